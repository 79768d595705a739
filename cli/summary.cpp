#include "cli/args.h"
#include "cli/commands.h"
#include "exports/csv_export.h"

#include "model/error.h"
#include "model/run_file.h"
#include "analysis/summary.h"
#include "model/json_text.h"
#include "analysis/run_highlights.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace faultline::cli {

const CommandSpec& summarySpec() {
    static const CommandSpec spec{
        "summary",
        "RUN.faultline [--json | --csv]",
        "print a run's figures and its goodput ledger",
        "Prints GPUs, hosts, racks and switches, the fabric (its kind, switches per tier and rails), the duration, planned and unexpected interruptions, root causes sorted as "
        "in the Llama 3 table, effective training time (ETTR), downtime split into detection, restart, checkpoint reload "
        "and lost work, mean time between failures, checkpoints and the goodput ledger, overall and per day.",
        {{"--json", "", "", "print the summary as JSON (keys in the README)"},
         {"--csv", "", "", "print the goodput ledger as CSV, one row per day"}}};
    return spec;
}

int summaryCommand(const CommandArgs& argv) {
    const Args args(argv, summarySpec());
    if (args.positional().size() != 1) throw UsageError("summary takes one run file");
    const Run run = readRunFile(args.positional().front());
    const RunSummary summary = summarize(run);
    if (args.flag("--csv")) {
        std::fputs(goodputLedgerToCsv(summary.ledger, run.info).c_str(), stdout);
        return 0;
    }
    std::string text;
    if (args.flag("--json")) {
        nlohmann::json json = summaryToJson(summary);
        json["highlights"] = runHighlights(run, summary, analyzeStragglers(run));
        text = jsonText(json);
    } else {
        // What the run holds leads, as in the app's summary panel.
        text = highlightsToText(runHighlights(run, summary, analyzeStragglers(run))) + "\n" + summaryToText(summary);
    }
    std::fputs(text.c_str(), stdout);
    return 0;
}

}  // namespace faultline::cli
