// Opening two llama3-405b runs (16,384 GPUs, 54 days each) and comparing them: the target is
// under 2 s, what the comparison window waits for before it shows anything. The run files are
// written once (not timed); each round reads both and computes the comparison, as
// loadComparison does. Run from an optimised build: build/bench/bin/faultline_bench_compare
#include "analysis/run_comparison.h"
#include "model/run_file.h"
#include "simulator/simulator.h"
#include "simulator/what_if.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <vector>

int main() {
    using namespace faultline;
    using Clock = std::chrono::steady_clock;
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / "faultline_bench_compare";
    std::filesystem::create_directories(dir);
    const std::string a = (dir / "a.faultline").string(), b = (dir / "b.faultline").string(), w = (dir / "whatif.faultline").string();
    SimulationParams p = simulationPreset("llama3-405b");
    const Run runA = simulate(p);
    p.seed = 2;
    writeRunFile(runA, a);
    writeRunFile(simulate(p), b);
    RecoveryPolicy policy;
    policy.checkpointInterval = 5 * kMinute;
    const auto w0 = Clock::now();
    const Run replayed = replayWithPolicy(runA, policy);
    const auto w1 = Clock::now();
    writeRunFile(replayed, w);

    auto ms = [](auto x, auto y) { return std::chrono::duration<double, std::milli>(y - x).count(); };
    std::vector<double> total, read, compare;
    for (int round = 0; round < 5; ++round) {
        const auto t0 = Clock::now();
        const Run ra = readRunFile(a);
        const Run rb = readRunFile(b);
        const auto t1 = Clock::now();
        const RunComparison c = compareRuns(ra, rb);
        const auto t2 = Clock::now();
        read.push_back(ms(t0, t1));
        compare.push_back(ms(t1, t2));
        total.push_back(ms(t0, t2));
        if (round == 0)
            std::printf("runs: %zu + %zu GPUs, %zu + %zu steps, %d + %d unexpected interruptions\n", ra.topology.gpus.size(),
                        rb.topology.gpus.size(), ra.steps.size(), rb.steps.size(), c.a.unexpected, c.b.unexpected);
    }
    auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };
    std::printf("open_both_ms=%.0f compare_ms=%.0f total_ms=%.0f (median of 5; target < 2000)\n", median(read), median(compare),
                median(total));
    std::printf("whatif_replay_ms=%.0f (llama3-405b, checkpoint every 5 min)\n", ms(w0, w1));
    std::filesystem::remove_all(dir);
    return 0;
}
