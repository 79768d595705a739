// Foundation targets, on the llama3-405b preset (16,384 GPUs, 54 days):
//   simulate and write its run file in under 10 s; open it and compute the summary in under 1 s.
// Run from an optimised build: build/release/bin/faultline_bench_foundation
#include "model/run_file.h"
#include "simulator/simulator.h"
#include "analysis/summary.h"

#include <benchmark/benchmark.h>

#include <filesystem>
#include <sys/resource.h>
#include <unistd.h>

namespace {

const std::string& runPath() {
    static const std::string path =
        (std::filesystem::temp_directory_path() / ("faultline-bench-" + std::to_string(::getpid()) + ".faultline")).string();
    return path;
}

double peakRssMb() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

void SimulateLlama3(benchmark::State& state) {
    for (auto _ : state) benchmark::DoNotOptimize(faultline::simulate(faultline::simulationPreset("llama3-405b")));
}

void SimulateAndWriteLlama3(benchmark::State& state) {
    std::size_t steps = 0;
    for (auto _ : state) {
        const faultline::Run run = faultline::simulate(faultline::simulationPreset("llama3-405b"));
        faultline::writeRunFile(run, runPath());
        steps = run.steps.size();
    }
    state.counters["steps"] = static_cast<double>(steps);
    state.counters["file_MB"] = static_cast<double>(std::filesystem::file_size(runPath())) / 1e6;
    state.counters["peak_rss_MB"] = peakRssMb();
}

void OpenAndSummarizeLlama3(benchmark::State& state) {
    double ettr = 0;
    for (auto _ : state) ettr = faultline::summarize(faultline::readRunFile(runPath())).ettr;
    state.counters["ettr"] = ettr;
    state.counters["peak_rss_MB"] = peakRssMb();
}

BENCHMARK(SimulateLlama3)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(SimulateAndWriteLlama3)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(OpenAndSummarizeLlama3)->Unit(benchmark::kMillisecond)->Iterations(5);

}  // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    std::filesystem::remove(runPath());
    return 0;
}
