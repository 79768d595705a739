#include "cli/args.h"
#include "analysis/stored_figures.h"
#include "cli/commands.h"
#include "cli/progress.h"

#include "model/error.h"
#include "model/format.h"
#include "model/run_file.h"
#include "simulator/cluster_logs.h"
#include "simulator/simulator.h"
#include "simulator/telemetry_logs.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace faultline::cli {

namespace {

Nanos durationOption(const Args& args, const std::string& name, Nanos fallback) { return args.duration(name).value_or(fallback); }

}  // namespace

const CommandSpec& simulateSpec() {
    static const CommandSpec spec{
        "simulate",
        "[--preset NAME] -o RUN.faultline [OPTIONS]",
        "simulate a training run and write its run file",
        "Simulates a training run on a Meta-style RoCE fabric (GPUs, hosts, racks, RTSW/CTSW/ATSW switches) or an InfiniBand "
        "fat tree (rail leaves, spines, cores) with failures, "
        "downtimes, checkpoints, steps and stragglers at the preset's rates, and writes its run file. The same seed always "
        "gives the same run.",
        {
            {"--preset", "", "NAME",
             "llama3-405b (default: 16,384 GPUs, 54 days, failures at the rate and root-cause mix Meta reported for Llama 3) "
             "tiny (256 GPUs, 2 days, failure-dense), meta-24k-roce or meta-24k-ib (24,576 GPUs for 54 days on Meta's RoCE "
             "fabric or an InfiniBand fat tree, with each fabric's failures at their own rates: the pair to compare), "
             "fleet-350k (352,256 GPUs: eleven RoCE and InfiniBand clusters in five buildings, the 16,384-GPU pre-training "
             "job among thousands of other jobs scheduled over 54 days, failures ending whichever job holds the hardware)"},
            {"--output", "-o", "RUN.faultline", "the run file to write (required unless --emit-logs is given)"},
            kForceOption,
            {"--emit-logs", "", "DIR", "also write the files a real cluster would have left for the run: sacct (text and --json), "
                                      "kernel logs of the nodes that failed, the training job's stdout per job, topology.conf "
                                      "(ibnetdiscover output for an InfiniBand fat tree), the link-down counters of the hosts whose cable failed, "
                                      "and GPU telemetry per host (dcgm-exporter scrapes or nvidia-smi --query-gpu CSV)"},
            {"--telemetry-interval", "", "DURATION", "GPU telemetry (power, temperature, SM clock, throttle reasons, ECC errors) "
                                                     "every DURATION for every GPU (default 5m; 0 for none)"},
            {"--emit-telemetry-interval", "", "DURATION", "the emitted telemetry's interval, a multiple of --telemetry-interval "
                                                          "(default the same)"},
            {"--emit-telemetry-hosts", "", "N", "hosts whose telemetry --emit-logs writes (default every host while the files "
                                                "stay under 2 GB; hosts whose GPUs throttle or count ECC errors first)"},
            {"--seed", "", "N", "the random seed (default 1)"},
            {"--gpus", "", "N", "the number of GPUs (1 to 10,000,000)"},
            {"--days", "", "D", "the run's length in days"},
            {"--checkpoint-interval", "", "DURATION", "training time between checkpoint saves (10m, 90s, 1h)"},
            {"--step-time", "", "DURATION", "the mean synchronous step time"},
            {"--failures-per-day", "", "F", "unexpected interruptions per day for the whole cluster"},
            {"--planned-per-day", "", "P", "planned interruptions per day"},
            {"--stragglers-per-day", "", "S", "straggler episodes per day"},
            {"--trace-ranks", "", "N", "write per-rank collective traces for N ranks..."},
            {"--trace-steps", "", "S", "...over S training steps..."},
            {"--trace-at", "", "TIME", "...starting at this time since the run's start (6h)"},
            kQuietOption,
        }};
    return spec;
}

int simulateCommand(const CommandArgs& argv) {
    const Args args(argv, simulateSpec());
    const auto output = args.value("--output");
    const auto emitLogs = args.value("--emit-logs");
    if (!output && !emitLogs) throw UsageError("simulate needs an output file: -o RUN.faultline (or --emit-logs DIR)");
    if (!args.positional().empty()) throw UsageError("simulate takes no file arguments; write the output with -o");
    if (output) args.output("--output", OutputKind::RunFile, {});

    const std::string preset = args.value("--preset").value_or("llama3-405b");
    const std::vector<std::string> presets = simulationPresetNames();
    if (std::find(presets.begin(), presets.end(), preset) == presets.end()) {
        std::string known;
        for (std::size_t i = 0; i < presets.size(); ++i) known += (i == 0 ? "" : i + 1 == presets.size() ? " or " : ", ") + presets[i];
        throw UsageError("option --preset expects " + known + ", not \"" + preset + "\"");
    }
    SimulationParams p = simulationPreset(preset);
    const bool fleet = !p.fleet.clusters.empty();
    if (fleet)  // the fleet's shape is the preset's; its pre-training job keeps its own options
        for (const char* option : {"--gpus", "--trace-ranks", "--telemetry-interval", "--emit-logs"})
            if (args.value(option)) throw UsageError(std::string("option ") + option + " does not apply to the fleet-350k preset");
    int allGpus = p.fabric.gpus;
    if (fleet) {
        allGpus = 0;
        for (const FleetClusterShape& c : p.fleet.clusters) allGpus += c.gpus;
    }
    if (auto seed = args.integer("--seed")) p.seed = static_cast<std::uint64_t>(*seed);
    if (auto gpus = args.integer("--gpus")) {
        if (*gpus < 1 || *gpus > 10'000'000) throw UsageError("option --gpus expects 1 to 10,000,000 GPUs");
        p.fabric.gpus = static_cast<int>(*gpus);
        p.fatTree.gpus = p.fabric.gpus;
        allGpus = p.fabric.gpus;
    }
    if (auto days = args.number("--days")) p.days = *days;
    if (auto perDay = args.number("--failures-per-day")) p.failuresPerGpuDay = *perDay / allGpus;
    if (auto perDay = args.number("--planned-per-day")) p.plannedPerDay = *perDay;
    if (auto perDay = args.number("--stragglers-per-day")) p.stragglersPerDay = *perDay;
    p.checkpointInterval = durationOption(args, "--checkpoint-interval", p.checkpointInterval);
    p.stepTime = durationOption(args, "--step-time", p.stepTime);
    if (auto ranks = args.integer("--trace-ranks")) p.trace.ranks = static_cast<int>(*ranks);
    if (auto steps = args.integer("--trace-steps")) p.trace.steps = static_cast<int>(*steps);
    if (args.value("--trace-at")) p.trace.begin = durationOption(args, "--trace-at", 0);
    if (auto interval = args.duration("--telemetry-interval", true)) p.telemetry.interval = *interval;
    TelemetryLogOptions telemetryLogs;
    if (auto interval = args.duration("--emit-telemetry-interval")) telemetryLogs.interval = *interval;
    if (auto hosts = args.integer("--emit-telemetry-hosts")) {
        if (*hosts < 0) throw UsageError("option --emit-telemetry-hosts expects a number of hosts, 0 or more");
        telemetryLogs.hosts = static_cast<int>(std::min<std::int64_t>(*hosts, 1'000'000'000));
    }
    if (telemetryLogs.interval > 0 && (p.telemetry.interval <= 0 || telemetryLogs.interval % p.telemetry.interval != 0))
        throw UsageError("option --emit-telemetry-interval expects a multiple of --telemetry-interval");

    const bool quiet = args.flag("--quiet");
    ProgressLine progress("faultline-cli simulate", progressWanted(quiet));
    progress.setStage("simulating " + formatCount(allGpus) + " GPUs for " + formatDuration(static_cast<Nanos>(p.days * 24 * kHour)));
    const auto start = std::chrono::steady_clock::now();
    const Run run = simulate(p);
    const auto simulated = std::chrono::steady_clock::now();
    if (output) {
        progress.setStage("writing " + *output);
        writeRunFileWithFigures(run, *output);
    }
    const auto written = std::chrono::steady_clock::now();
    ClusterLogSummary logs;
    TelemetryLogSummary telemetry;
    if (emitLogs) {
        progress.setStage("writing the cluster's files into " + *emitLogs);
        logs = writeClusterLogs(run, *emitLogs, preset);
        if (p.telemetry.interval > 0) {
            progress.setStage("writing the GPUs' telemetry into " + *emitLogs);
            telemetry = writeTelemetryLogs(run, telemetryModel(run, p), *emitLogs, telemetryLogs);
        }
    }
    const auto emitted = std::chrono::steady_clock::now();
    progress.finish();
    if (quiet) return kExitOk;
    if (emitLogs)
        std::printf("%s: %d job runs, %d kernel logs, telemetry of %d of %d hosts every %s, %s (written in %.0f ms)\n", emitLogs->c_str(), logs.jobs,
                    logs.kernelLogs, telemetry.hosts, telemetry.allHosts, telemetry.hosts > 0 ? formatDuration(telemetry.interval).c_str() : "-",
                    formatBytes(logs.bytes + telemetry.bytes).c_str(), std::chrono::duration<double, std::milli>(emitted - written).count());
    if (!output) return kExitOk;
    auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
    std::printf("%s: %s GPUs, %s, %zu interruptions, %s steps (simulated in %.0f ms, written in %.0f ms)\n",
                output->c_str(), formatCount(static_cast<std::int64_t>(run.topology.gpus.size())).c_str(),
                formatDuration(run.info.duration).c_str(), run.downtimes.size(),
                formatCount(static_cast<std::int64_t>(run.steps.size())).c_str(), ms(start, simulated), ms(simulated, written));
    return kExitOk;
}

}  // namespace faultline::cli
