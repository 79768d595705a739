#pragma once
// One line on stderr that says what a long command is doing, how far it is and for how long,
// redrawn in place a few times a second and erased when the command is done. Only where stderr
// is a terminal (never in a pipe or a log) and not under --quiet.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace faultline::cli {

class ProgressLine {
public:
    // `enabled` false: every call does nothing. Use progressWanted() for the usual rule.
    ProgressLine(std::string command, bool enabled);
    ~ProgressLine();
    ProgressLine(const ProgressLine&) = delete;
    ProgressLine& operator=(const ProgressLine&) = delete;

    void setStage(const std::string& stage);  // "simulating 16,384 GPUs for 54 days"
    void setFraction(double fraction);        // 0..1 of the stage; negative: unknown
    void finish();                            // erase the line (the destructor does too)

private:
    void draw();
    void tick();

    std::string m_command;
    bool m_enabled;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::string m_stage;
    double m_fraction = -1;
    bool m_done = false;
    std::chrono::steady_clock::time_point m_start = std::chrono::steady_clock::now();
    std::thread m_ticker;
};

// The progress line is for a person watching: stderr a terminal and no --quiet.
bool progressWanted(bool quiet);

}  // namespace faultline::cli
