#include "cli/args.h"
#include "cli/commands.h"

#include "analysis/run_comparison.h"
#include "model/json_text.h"
#include "model/run_file.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace faultline::cli {

const CommandSpec& compareSpec() {
    static const CommandSpec spec{
        "compare",
        "A.faultline B.faultline [--json]",
        "compare two runs: KPI differences, step times, root causes",
        "Prints the figures of two runs side by side with B minus A and the relative change, each marked better or worse: "
        "ETTR, goodput, planned and unexpected interruptions, MTBF, downtime split into detection, restart, checkpoint "
        "reload, lost work and planned maintenance, checkpoints (count, mean interval, mean save), step time (mean, median, "
        "p95) and straggler slowdown; then the root causes of each with their rates per 1,000 GPU-days, so runs of "
        "different size compare fairly. The runs may differ in size and topology.",
        {{"--json", "", "", "print the comparison as JSON: a and b (each the summary --json object), delta (B minus A), "
                            "step_time_s and causes (keys in the README)"}}};
    return spec;
}

int compareCommand(const CommandArgs& argv) {
    const Args args(argv, compareSpec());
    if (args.positional().size() != 2) throw UsageError("compare takes two run files, A and B");
    const Run a = readRunFile(args.positional()[0]);
    const Run b = readRunFile(args.positional()[1]);
    const RunComparison comparison = compareRuns(a, b);
    const std::string text = args.flag("--json") ? jsonText(comparisonToJson(comparison)) : comparisonToText(comparison);
    std::fputs(text.c_str(), stdout);
    return 0;
}

}  // namespace faultline::cli
