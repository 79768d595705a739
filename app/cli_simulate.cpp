#include "cli_args.h"
#include "cli_commands.h"

#include "model/error.h"
#include "model/format.h"
#include "model/run_file.h"
#include "simulator/simulator.h"

#include <chrono>
#include <cstdio>

namespace faultline::cli {

namespace {

Nanos durationOption(const Args& args, const std::string& name, Nanos fallback) {
    auto text = args.value(name);
    if (!text) return fallback;
    auto d = parseDuration(*text);
    if (!d || *d <= 0) throw Error("option " + name + " expects a duration such as 10m, 90s or 1h, not \"" + *text + "\"");
    return *d;
}

}  // namespace

int simulateCommand(const CommandArgs& argv) {
    const Args args(argv,
                    {"--preset", "--seed", "-o", "--output", "--gpus", "--days", "--checkpoint-interval",
                     "--failures-per-day", "--planned-per-day", "--stragglers-per-day", "--step-time", "--trace-ranks",
                     "--trace-steps", "--trace-at"},
                    {});
    const auto output = args.value("-o") ? args.value("-o") : args.value("--output");
    if (!output) throw Error("simulate needs an output file: -o RUN.faultline");
    if (!args.positional().empty()) throw Error("simulate takes no file arguments; write the output with -o");

    SimulationParams p = simulationPreset(args.value("--preset").value_or("llama3-405b"));
    if (auto seed = args.integer("--seed")) p.seed = static_cast<std::uint64_t>(*seed);
    if (auto gpus = args.integer("--gpus")) {
        if (*gpus < 1 || *gpus > 10'000'000) throw Error("option --gpus expects 1 to 10,000,000 GPUs");
        p.fabric.gpus = static_cast<int>(*gpus);
    }
    if (auto days = args.number("--days")) p.days = *days;
    if (auto perDay = args.number("--failures-per-day")) p.failuresPerGpuDay = *perDay / p.fabric.gpus;
    if (auto perDay = args.number("--planned-per-day")) p.plannedPerDay = *perDay;
    if (auto perDay = args.number("--stragglers-per-day")) p.stragglersPerDay = *perDay;
    p.checkpointInterval = durationOption(args, "--checkpoint-interval", p.checkpointInterval);
    p.stepTime = durationOption(args, "--step-time", p.stepTime);
    if (auto ranks = args.integer("--trace-ranks")) p.trace.ranks = static_cast<int>(*ranks);
    if (auto steps = args.integer("--trace-steps")) p.trace.steps = static_cast<int>(*steps);
    if (args.value("--trace-at")) p.trace.begin = durationOption(args, "--trace-at", 0);

    const auto start = std::chrono::steady_clock::now();
    const Run run = simulate(p);
    const auto simulated = std::chrono::steady_clock::now();
    writeRunFile(run, *output);
    const auto written = std::chrono::steady_clock::now();
    auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
    std::printf("%s: %s GPUs, %s, %zu interruptions, %s steps (simulated in %.0f ms, written in %.0f ms)\n",
                output->c_str(), formatCount(static_cast<std::int64_t>(run.topology.gpus.size())).c_str(),
                formatDuration(run.info.duration).c_str(), run.downtimes.size(),
                formatCount(static_cast<std::int64_t>(run.steps.size())).c_str(), ms(start, simulated), ms(simulated, written));
    return 0;
}

}  // namespace faultline::cli
