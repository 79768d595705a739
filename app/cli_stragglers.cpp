#include "cli_args.h"
#include "cli_commands.h"

#include "model/error.h"
#include "model/run_file.h"
#include "analysis/step_time_stragglers.h"
#include "analysis/straggler_analysis.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace faultline::cli {

int stragglersCommand(const CommandArgs& argv) {
    const Args args(argv, {"--limit"}, {"--json"});
    if (args.positional().size() != 1)
        throw Error("stragglers takes one run file: faultline-cli stragglers RUN.faultline [--limit N] [--json]");
    const Run run = readRunFile(args.positional().front());
    const StragglerReport report = analyzeStragglers(run);
    const StepTimeReport steps = analyzeStepTimes(run.rankSteps);
    const int limit = static_cast<int>(args.integer("--limit").value_or(20));
    std::string text;
    if (args.flag("--json")) {
        nlohmann::json j = stragglersToJson(report, run);
        j["step_times"] = stepTimesToJson(steps);
        text = j.dump(2) + "\n";
    } else {
        text = stragglersToText(report, run, limit);
        if (steps.steps > 0) text += "\n" + stepTimesToText(steps, limit);
    }
    std::fputs(text.c_str(), stdout);
    return 0;
}

}  // namespace faultline::cli
