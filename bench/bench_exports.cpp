// Data exports of the llama3-405b sample run (54 days, 16,384 GPUs): the CSV tables and the
// Perfetto trace (written to memory, so the figure is the export, not the disk). The report
// and the video print their own time: `faultline --report` and `faultline --record`.
// Run from an optimised build: build/release/bin/faultline_bench_exports
#include "analysis/goodput.h"
#include "analysis/incidents.h"
#include "analysis/step_time_stragglers.h"
#include "analysis/straggler_analysis.h"
#include "exports/csv_export.h"
#include "exports/perfetto_export.h"
#include "simulator/simulator.h"

#include <benchmark/benchmark.h>

#include <sstream>

namespace {

const faultline::Run& llama3() {
    static const faultline::Run run = faultline::simulate(faultline::simulationPreset("llama3-405b"));
    return run;
}

void CsvTablesLlama3(benchmark::State& state) {
    const faultline::Run& run = llama3();
    std::size_t bytes = 0;
    for (auto _ : state) {
        bytes = faultline::incidentsToCsv(faultline::buildIncidents(run), run.info).size();
        bytes += faultline::goodputLedgerToCsv(faultline::computeGoodput(run), run.info).size();
        bytes += faultline::stragglersToCsv(faultline::analyzeStragglers(run), faultline::analyzeStepTimes(run.rankSteps), run).size();
    }
    state.counters["bytes"] = static_cast<double>(bytes);
}

void PerfettoTraceLlama3(benchmark::State& state) {
    const faultline::Run& run = llama3();
    faultline::PerfettoStats stats;
    std::size_t bytes = 0;
    for (auto _ : state) {
        std::ostringstream out;
        stats = faultline::writePerfettoTrace(run, out);
        bytes = out.str().size();
    }
    state.counters["events"] = static_cast<double>(stats.events);
    state.counters["MB"] = static_cast<double>(bytes) / 1e6;
    state.counters["events/s"] = benchmark::Counter(static_cast<double>(stats.events), benchmark::Counter::kIsIterationInvariantRate);
}

}  // namespace

BENCHMARK(CsvTablesLlama3)->Unit(benchmark::kMillisecond);
BENCHMARK(PerfettoTraceLlama3)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
