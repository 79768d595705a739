#include "cli/progress.h"

#include <cstdio>
#include <unistd.h>

namespace faultline::cli {

bool progressWanted(bool quiet) { return !quiet && isatty(STDERR_FILENO) == 1; }

ProgressLine::ProgressLine(std::string command, bool enabled) : m_command(std::move(command)), m_enabled(enabled) {
    if (m_enabled) m_ticker = std::thread([this] { tick(); });
}

ProgressLine::~ProgressLine() { finish(); }

void ProgressLine::setStage(const std::string& stage) {
    if (!m_enabled) return;
    std::lock_guard lock(m_mutex);
    m_stage = stage;
    m_fraction = -1;
    draw();
}

void ProgressLine::setFraction(double fraction) {
    if (!m_enabled) return;
    std::lock_guard lock(m_mutex);
    m_fraction = fraction;  // drawn at the next tick: progress callbacks come far more often
}

void ProgressLine::finish() {
    if (!m_enabled) return;
    {
        std::lock_guard lock(m_mutex);
        if (m_done) return;
        m_done = true;
    }
    m_wake.notify_all();
    if (m_ticker.joinable()) m_ticker.join();
    std::fputs("\r\033[K", stderr);  // erase the line: what stays on screen is the command's output
    std::fflush(stderr);
}

void ProgressLine::draw() {
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
    if (m_fraction >= 0)
        std::fprintf(stderr, "\r\033[K%s: %s... %3.0f%% (%.1f s)", m_command.c_str(), m_stage.c_str(), m_fraction * 100.0, seconds);
    else
        std::fprintf(stderr, "\r\033[K%s: %s... (%.1f s)", m_command.c_str(), m_stage.c_str(), seconds);
    std::fflush(stderr);
}

void ProgressLine::tick() {
    std::unique_lock lock(m_mutex);
    while (!m_done) {
        if (!m_stage.empty()) draw();
        m_wake.wait_for(lock, std::chrono::milliseconds(250));
    }
}

}  // namespace faultline::cli
