#include "cli/args.h"
#include "analysis/stored_figures.h"
#include "cli/commands.h"

#include "analysis/run_comparison.h"
#include "model/format.h"
#include "model/run_file.h"
#include "simulator/what_if.h"

#include <cstdio>

namespace faultline::cli {

const CommandSpec& whatIfSpec() {
    static const CommandSpec spec{
        "whatif",
        "RUN.faultline --checkpoint-interval DURATION [OPTIONS] -o B.faultline",
        "replay a run's failures under another recovery policy",
        "Replays the same failures, at the same moments on the same hardware, under another recovery policy, and writes "
        "the run that would have resulted: training, checkpoint saves, lost work and downtimes follow the policy. Each "
        "recovery time not given keeps what the run measured at each incident. Prints what the policy changes (ETTR, "
        "lost work, save overhead); `faultline-cli compare RUN B` and the app's comparison show the rest. Works on "
        "simulated runs and on imported runs with downtimes.",
        {{"--checkpoint-interval", "", "DURATION", "training time between checkpoint saves (5m, 90s, 1h; required)"},
         {"--save-time", "", "DURATION", "how long a save blocks training (default: the run's mean save)"},
         {"--detection", "", "DURATION", "from failure to detection (default: as measured at each incident)"},
         {"--restart", "", "DURATION", "from detection to the relaunched job's start (default: as measured)"},
         {"--reload", "", "DURATION", "loading the checkpoint (default: as measured)"},
         {"--output", "-o", "B.faultline", "the run file to write (required)"},
         kForceOption}};
    return spec;
}

int whatIfCommand(const CommandArgs& argv) {
    const Args args(argv, whatIfSpec());
    if (args.positional().size() != 1) throw UsageError("whatif takes one run file");
    const auto output = args.value("--output");
    if (!output) throw UsageError("whatif needs an output file: -o B.faultline");
    args.output("--output", OutputKind::RunFile, args.positional());
    RecoveryPolicy policy;
    const auto interval = args.duration("--checkpoint-interval");
    if (!interval) throw UsageError("whatif needs --checkpoint-interval DURATION (e.g. 5m)");
    policy.checkpointInterval = *interval;
    policy.saveTime = args.duration("--save-time", true);
    policy.detection = args.duration("--detection", true);
    policy.restart = args.duration("--restart", true);
    policy.reload = args.duration("--reload", true);

    const Run source = readRunFile(args.positional().front());
    const Run replayed = replayWithPolicy(source, policy);
    writeRunFileWithFigures(replayed, *output);

    const RunComparison c = compareRuns(source, replayed);
    std::printf("Wrote %s: %s\n", output->c_str(), replayed.info.name.c_str());
    for (const KpiRow& row : c.rows()) {
        if (row.label != "ETTR" && row.label != "Downtime: lost work" && row.label != "Checkpoint save overhead" &&
            row.label != "Checkpoints saved")
            continue;
        auto cell = [&row](const std::optional<double>& v, bool sign) { return v ? formatKpiValue(row, *v, sign) : std::string("-"); };
        std::printf("  %-26s %14s -> %-14s (%s)\n", row.label.c_str(), cell(row.a, false).c_str(), cell(row.b, false).c_str(),
                    cell(row.delta(), true).c_str());
    }
    return 0;
}

}  // namespace faultline::cli
