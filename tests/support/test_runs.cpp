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

Failure faultyGpuFailure(std::int32_t gpu, Nanos time) {
    Failure f;
    f.time = time;
    f.cause = RootCause::FaultyGpu;
    f.component = {ComponentKind::Gpu, gpu};
    f.gpus = {gpu};
    return f;
}

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

std::shared_ptr<const Run> tracedRun() { return std::shared_ptr<const Run>(&tracedTinyRun(), [](const Run*) {}); }

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

namespace {
Step stepOf(Nanos at, std::int64_t n, double seconds) { return {at, n, fromSeconds(seconds)}; }

// The scheduler job that trained the run from its start to its end: the evidence that lets
// ETTR be said of a run whose steps the files sample only.
Job jobSpanning(Nanos duration) {
    Job job;
    job.id = "1";
    job.start = 0;
    job.end = duration;
    job.inRun = true;
    return job;
}
}  // namespace

// 10 hours on 16 GPUs: one failure at 2 h (down 7 min, 6 min of work lost), three 10 s saves,
// four steps of 1, 2, 3 and 4 s, one job from start to end.
Run comparisonRunA() {
    Run run;
    run.info = {"A", 0, 10 * kHour, "test"};
    run.topology = buildFabric(FabricShape{.gpus = 16});
    run.failures = {{2 * kHour, RootCause::FaultyGpu, {ComponentKind::Gpu, 3}, 79, {3}, "Xid 79"}};
    run.downtimes = {{2 * kHour, 2 * kHour + kMinute, 2 * kHour + 5 * kMinute, 2 * kHour + 7 * kMinute, 6 * kMinute, false,
                      RootCause::FaultyGpu, 0}};
    for (Nanos at : {1 * kHour, 3 * kHour, 5 * kHour}) run.checkpoints.push_back({at, at + 10 * kSecond, 1, 1000, CheckpointKind::Save});
    run.steps = {stepOf(10 * kSecond, 1, 1), stepOf(20 * kSecond, 2, 2), stepOf(30 * kSecond, 3, 3), stepOf(40 * kSecond, 4, 4)};
    run.jobs = {jobSpanning(run.info.duration)};
    return run;
}

// 10 hours on 32 GPUs: two failures (2 h, 6 h), each down 6 min with 10 min lost, no saves,
// steps of 2, 2, 2 and 10 s, one job from start to end.
Run comparisonRunB() {
    Run run;
    run.info = {"B", 0, 10 * kHour, "test"};
    run.topology = buildFabric(FabricShape{.gpus = 32});
    run.failures = {{2 * kHour, RootCause::FaultyGpu, {ComponentKind::Gpu, 1}, 79, {1}, "Xid 79"},
                    {6 * kHour, RootCause::SoftwareBug, {ComponentKind::None, -1}, 0, {}, "segfault"}};
    for (int i = 0; i < 2; ++i) {
        const Nanos at = (i == 0 ? 2 : 6) * kHour;
        run.downtimes.push_back({at, at + 2 * kMinute, at + 5 * kMinute, at + 6 * kMinute, 10 * kMinute, false,
                                 run.failures[static_cast<std::size_t>(i)].cause, i});
    }
    run.steps = {stepOf(10 * kSecond, 1, 2), stepOf(20 * kSecond, 2, 2), stepOf(30 * kSecond, 3, 2), stepOf(40 * kSecond, 4, 10)};
    run.jobs = {jobSpanning(run.info.duration)};
    return run;
}

// 4 hours, no steps, one failure at 2 h (detected in 1 min, restarted 4 min later, reloaded
// in 2 min) and one 10 s save.
Run oneFailureRun() {
    Run run;
    run.info = {"one failure", 0, 4 * kHour, "test"};
    run.topology = buildFabric(FabricShape{.gpus = 16});
    run.failures = {{2 * kHour, RootCause::FaultyGpu, {ComponentKind::Gpu, 3}, 79, {3}, "Xid 79"}};
    run.downtimes = {{2 * kHour, 2 * kHour + kMinute, 2 * kHour + 5 * kMinute, 2 * kHour + 7 * kMinute, 0, false, RootCause::FaultyGpu, 0}};
    run.checkpoints = {{kHour, kHour + 10 * kSecond, 0, 1000, CheckpointKind::Save}};
    return run;
}

Run oneMinuteCrash() {
    Run run;
    run.info = {"crash", 0, kMinute, "import"};
    run.topology = buildFabric(FabricShape{.gpus = 16});
    for (int i = 1; i <= 50; ++i) run.steps.push_back({i * kSecond, i, kSecond});
    run.failures = {{kMinute - kSecond, RootCause::GpuHbm3Memory, {ComponentKind::Gpu, 12}, 48, {12},
                     "CUDA error: uncorrectable ECC error encountered"}};
    return run;
}

Run eighteenMillisecondHang() {
    Run run;
    run.info = {"hang", 0, 18 * kMillisecond, "import"};
    run.topology = buildFabric(FabricShape{.gpus = 16});
    run.failures = {{kMillisecond / 4, RootCause::NcclWatchdogTimeout, {ComponentKind::Gpu, 10}, 0, {10}, "rank 10 never joined all_to_all"}};
    run.downtimes = {{kMillisecond / 4, 18 * kMillisecond, 18 * kMillisecond, 18 * kMillisecond, 0, false, RootCause::NcclWatchdogTimeout, 0}};
    return run;
}

Run oneInstantCrash() {
    Run run;
    run.info = {"one line", 1717243203 * kSecond, 0, "import"};
    run.topology = buildFabric(FabricShape{.gpus = 8});
    run.failures = {{0, RootCause::FaultyGpu, {ComponentKind::Gpu, 3}, 0, {3},
                     "CUDA error: unknown error (time inferred from the lines around it)"}};
    return run;
}

}  // namespace faultline::test
