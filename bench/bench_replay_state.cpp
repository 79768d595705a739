// Replay state target: the state of every GPU at an arbitrary instant of a 54-day,
// 100,000-GPU run in under 5 ms. Reports ms per full-state query at random instants.
// Run from an optimised build: build/release/bin/faultline_bench_replay_state
#include "model/replay_state.h"
#include "simulator/simulator.h"

#include <benchmark/benchmark.h>

#include <random>

namespace {

const faultline::Run& bigRun() {
    static const faultline::Run run = [] {
        faultline::SimulationParams p = faultline::simulationPreset("llama3-405b");
        p.fabric.gpus = 100'000;
        return faultline::simulate(p);
    }();
    return run;
}

void BuildReplayIndex100k(benchmark::State& state) {
    const faultline::Run& run = bigRun();
    for (auto _ : state) benchmark::DoNotOptimize(faultline::ReplayIndex(run));
    state.counters["failures"] = static_cast<double>(run.failures.size());
    state.counters["stragglers"] = static_cast<double>(run.stragglers.size());
}

void StatesAtRandomInstant100k(benchmark::State& state) {
    const faultline::Run& run = bigRun();
    const faultline::ReplayIndex index(run);
    std::vector<faultline::GpuVisual> out(index.gpuCount());
    std::mt19937_64 random(1);
    std::uniform_int_distribution<faultline::Nanos> instant(0, run.info.duration - 1);
    for (auto _ : state) {
        index.statesAt(instant(random), out);
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    state.counters["gpus"] = static_cast<double>(out.size());
}

}  // namespace

BENCHMARK(BuildReplayIndex100k)->Unit(benchmark::kMillisecond);
BENCHMARK(StatesAtRandomInstant100k)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
