// Analysis targets: incidents and goodput of the llama3-405b run in under 1 s; straggler
// analysis of 1,000,000 collective records across 1,024 ranks in under 2 s.
// Run from an optimised build: build/release/bin/faultline_bench_analysis
#include "analysis/goodput.h"
#include "analysis/incidents.h"
#include "simulator/simulator.h"
#include "analysis/straggler_analysis.h"

#include <benchmark/benchmark.h>

namespace {

const faultline::Run& llama3() {
    static const faultline::Run run = faultline::simulate(faultline::simulationPreset("llama3-405b"));
    return run;
}

// 1,024 ranks x 245 steps x 4 buckets = 1,003,520 records, stragglers planted.
const faultline::Run& traced() {
    static const faultline::Run run = [] {
        faultline::SimulationParams p = faultline::simulationPreset("llama3-405b");
        p.days = 2;
        p.stragglersPerDay = 2'000;  // dense, so the traced ranks have some
        p.trace = {.ranks = 1'024, .steps = 245, .begin = 6 * faultline::kHour};
        return faultline::simulate(p);
    }();
    return run;
}

void IncidentsAndGoodputLlama3(benchmark::State& state) {
    const faultline::Run& run = llama3();
    std::size_t incidents = 0;
    double ettr = 0;
    for (auto _ : state) {
        incidents = faultline::buildIncidents(run).size();
        ettr = faultline::computeGoodput(run).whole.ettr();
    }
    state.counters["incidents"] = static_cast<double>(incidents);
    state.counters["ettr"] = ettr;
}

void StragglersFromCollectives(benchmark::State& state) {
    const faultline::Run& run = traced();
    std::size_t episodes = 0;
    for (auto _ : state) episodes = faultline::analyzeStragglers(run).episodes.size();
    state.counters["records"] = static_cast<double>(run.collectives.size());
    state.counters["ranks"] = static_cast<double>(run.rankToGpu.size());
    state.counters["episodes"] = static_cast<double>(episodes);
    std::size_t planted = 0;
    for (const faultline::StragglerEpisode& e : run.stragglers)
        planted += e.gpu < 1'024 && e.begin < run.collectives.back().exit && e.end > run.collectives.front().enter;
    state.counters["planted"] = static_cast<double>(planted);
}

BENCHMARK(IncidentsAndGoodputLlama3)->Unit(benchmark::kMillisecond)->Iterations(5);
BENCHMARK(StragglersFromCollectives)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace

BENCHMARK_MAIN();
