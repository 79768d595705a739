#include "test_runs.h"

#include "simulator/simulator.h"

#include <array>
#include <stdexcept>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

namespace faultline::test {

const Run& smallFleetRun() {
    static const Run run = [] {
        SimulationParams p = simulationPreset("tiny");
        p.preset = "small-fleet";
        p.seed = 3;
        using enum FabricKind;
        p.fleet.clusters = {{"a1-roce-1k", "Hall A1", "Building A", RoceClos, 1'024},
                            {"a2-ib-1k", "Hall A2", "Building A", InfinibandFatTree, 1'024},
                            {"b1-roce-512", "Hall B1", "Building B", RoceClos, 512}};
        p.fleet.pretrainingGpus = 512;
        p.fleet.jobMix = {{"eval", 8, 0.5, 3.0}, {"finetune", 64, 0.3, 6.0}, {"sft", 256, 0.2, 12.0}};
        p.fleet.warmUpDays = 1.0;
        return simulate(p);
    }();
    return run;
}

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

const Run& rackSwitchFailureRun() {
    static const Run run = [] {
        SimulationParams p = simulationPreset("tiny");
        p.seed = 4;
        return simulate(p);
    }();
    return run;
}

const Failure& rackSwitchFailure(const Run& run) {
    for (const Failure& f : run.failures)
        if (f.component.kind == ComponentKind::Switch &&
            run.topology.switches[static_cast<std::size_t>(f.component.index)].tier == SwitchTier::Rack)
            return f;
    throw std::runtime_error("the run has no failed rack switch");
}

CommandResult runCommand(const std::string& command, bool withStderr) {
    FILE* pipe = popen((command + (withStderr ? " 2>&1" : " 2>/dev/null")).c_str(), "r");
    std::string output;
    std::array<char, 4096> buf{};
    while (std::size_t n = fread(buf.data(), 1, buf.size(), pipe)) output.append(buf.data(), n);
    const int status = pclose(pipe);
    return {WEXITSTATUS(status), output};
}

std::string fileChecksum(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::uint64_t h = 14695981039346656037ull;
    for (char c; in.get(c);) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    std::error_code ec;
    const auto mtime = std::filesystem::last_write_time(path, ec).time_since_epoch().count();
    return std::to_string(h) + "@" + std::to_string(mtime);
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
