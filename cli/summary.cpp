#include "cli/args.h"
#include "cli/commands.h"
#include "exports/csv_export.h"

#include "model/error.h"
#include "model/run_file.h"
#include "analysis/summary.h"
#include "analysis/stored_figures.h"

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
    const std::string& path = args.positional().front();
    if (args.flag("--csv")) {
        const Run run = readRunFile(path);
        std::fputs(goodputLedgerToCsv(summarize(run).ledger, run.info).c_str(), stdout);
        return 0;
    }
    // The figures stored at import where the file has them (of this build's format); a file
    // written before they were stored is read whole and worked out, as before.
    std::optional<SummaryFigures> figures;
    if (const auto stored = readStoredFigures(path)) figures = summaryFiguresIn(*stored);
    if (!figures) figures = summaryFigures(readRunFile(path));
    std::fputs((args.flag("--json") ? figures->json : figures->text).c_str(), stdout);
    return 0;
}

}  // namespace faultline::cli
