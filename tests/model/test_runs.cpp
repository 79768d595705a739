#include "test_runs.h"

#include "model/simulator.h"

#include <atomic>
#include <unistd.h>

namespace faultline::test {

const Run& tinyRun() {
    static const Run run = [] {
        SimulationParams p = simulationPreset("tiny");
        p.seed = 7;
        return simulate(p);
    }();
    return run;
}

const Run& tracedTinyRun() {
    static const Run run = [] {
        SimulationParams p = simulationPreset("tiny");
        p.seed = 11;
        p.stragglersPerDay = 12;
        p.trace = {.ranks = 256, .steps = 400, .begin = 6 * kHour};
        return simulate(p);
    }();
    return run;
}

ScratchDir::ScratchDir() {
    static std::atomic<int> counter{0};
    m_path = std::filesystem::temp_directory_path() /
             ("faultline-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(m_path);
    std::filesystem::create_directories(m_path);
}

ScratchDir::~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(m_path, ignored);
}

}  // namespace faultline::test
