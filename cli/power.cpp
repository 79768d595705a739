#include "cli/args.h"
#include "cli/commands.h"

#include "analysis/cluster_power.h"
#include "model/json_text.h"
#include "model/run_file.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace faultline::cli {

const CommandSpec& powerSpec() {
    static const CommandSpec spec{
        "power",
        "RUN.faultline [--json | --csv]",
        "the cluster's power draw in MW over the run, and its largest swings",
        "Sums the GPUs' power telemetry (DCGM_FI_DEV_POWER_USAGE, imported from DCGM, Prometheus or nvidia-smi) into "
        "the cluster's draw over the run; a run without it (a simulated run) is drawn from the power model of "
        "docs/power.md: H100 SXM at 700 W training, 120 W stalled on a checkpoint or restart, 72 W while the job is down. "
        "Lists the largest swings in MW per second with the failure, restart or checkpoint at each.",
        {{"--json", "", "", "print the curve, marks and swings as JSON"}, {"--csv", "", "", "print the curve as CSV: time_s, utc, megawatts"}}};
    return spec;
}

int powerCommand(const CommandArgs& argv) {
    const Args args(argv, powerSpec());
    if (args.positional().size() != 1) throw UsageError("power takes one run file");
    if (args.flag("--json") && args.flag("--csv")) throw UsageError("power prints --json or --csv, not both");
    const Run run = readRunFile(args.positional().front());
    const ClusterPower power = clusterPower(run);
    std::string text;
    if (args.flag("--csv")) text = clusterPowerToCsv(power, run);
    else if (args.flag("--json")) text = jsonText(clusterPowerToJson(power, run));
    else text = clusterPowerToText(power, run);
    std::fputs(text.c_str(), stdout);
    return 0;
}

}  // namespace faultline::cli
