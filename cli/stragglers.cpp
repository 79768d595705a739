#include "cli/args.h"
#include "cli/commands.h"
#include "exports/csv_export.h"

#include "model/error.h"
#include "model/run_file.h"
#include "analysis/step_time_stragglers.h"
#include "analysis/straggler_analysis.h"
#include "model/json_text.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace faultline::cli {

const CommandSpec& stragglersSpec() {
    static const CommandSpec spec{
        "stragglers",
        "RUN.faultline [--limit N] [--json | --csv]",
        "find late ranks from collective traces and step times",
        "Finds the ranks that held up synchronous steps, from the run's per-rank collective traces (simulate "
        "--trace-ranks, or imported Kineto traces) and per-rank step times, with how late and how often.",
        {{"--limit", "", "N", "list at most N ranks (default 20)"}, {"--json", "", "", "print the report as JSON"},
         {"--csv", "", "", "print every rank with a figure as CSV (no limit)"}}};
    return spec;
}

int stragglersCommand(const CommandArgs& argv) {
    const Args args(argv, stragglersSpec());
    if (args.positional().size() != 1) throw UsageError("stragglers takes one run file");
    const long long requested = args.integer("--limit").value_or(20);
    if (requested < 1 || requested > 1'000'000'000) throw UsageError("option --limit expects a count of at least 1");
    const int limit = static_cast<int>(requested);
    const Run run = readRunFile(args.positional().front());
    const StragglerReport report = analyzeStragglers(run);
    const StepTimeReport steps = analyzeStepTimes(run.rankSteps);
    std::string text;
    if (args.flag("--csv")) {
        text = stragglersToCsv(report, steps, run);
    } else if (args.flag("--json")) {
        nlohmann::json j = stragglersToJson(report, run);
        j["step_times"] = stepTimesToJson(steps);
        text = jsonText(j);
    } else {
        text = stragglersToText(report, run, limit);
        if (steps.steps > 0) text += "\n" + stepTimesToText(steps, limit);
    }
    std::fputs(text.c_str(), stdout);
    return 0;
}

}  // namespace faultline::cli
