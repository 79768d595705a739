#include "cli/args.h"
#include "cli/commands.h"
#include "exports/csv_export.h"
#include "exports/perfetto_export.h"

#include "analysis/incidents.h"
#include "analysis/step_time_stragglers.h"
#include "analysis/straggler_analysis.h"
#include "analysis/summary.h"
#include "model/error.h"
#include "model/run_file.h"

#include <cstdio>

namespace faultline::cli {

const CommandSpec& exportSpec() {
    static const CommandSpec spec{
        "export",
        "RUN.faultline (--perfetto OUT.json | --csv DIR)",
        "write a run for other tools: a Perfetto / Chrome trace, or CSV tables",
        "--perfetto writes the run as a Chrome / Perfetto trace (JSON) to open in ui.perfetto.dev or chrome://tracing: "
        "job state, downtime by cause with its phases, checkpoints, failures as instants, straggler episodes and steps, "
        "and traced collectives on one track per rank.\n"
        "--csv writes incidents.csv, goodput_per_day.csv and stragglers.csv into a folder (the tables "
        "'incidents --csv', 'summary --csv' and 'stragglers --csv' print).",
        {{"--perfetto", "", "OUT.json", "write the run as a Chrome / Perfetto trace"},
         {"--csv", "", "DIR", "write the run's tables as CSV files into DIR (made if missing)"},
         kForceOption, kQuietOption}};
    return spec;
}

int exportCommand(const CommandArgs& argv) {
    const Args args(argv, exportSpec());
    if (args.positional().size() != 1) throw UsageError("export takes one run file");
    const auto perfetto = args.value("--perfetto");
    const auto csv = args.value("--csv");
    if (!perfetto && !csv) throw UsageError("export needs --perfetto OUT.json or --csv DIR");
    const std::string runPath = args.positional().front();
    if (perfetto) args.output("--perfetto", OutputKind::Json, {runPath});
    if (csv) checkCsvTablesOutput(*csv, {runPath}, args.flag("--force"));
    const Run run = readRunFile(runPath);
    const bool quiet = args.flag("--quiet");
    if (perfetto) {
        const PerfettoStats stats = writePerfettoTraceFile(run, *perfetto);
        if (!quiet)
            std::printf("wrote %s: %lld events on %d tracks\n", perfetto->c_str(), static_cast<long long>(stats.events), stats.tracks);
    }
    if (csv) {
        writeCsvTables(run, readIncidentNotes(runPath), *csv);
        if (!quiet) std::printf("wrote %s/incidents.csv, goodput_per_day.csv, stragglers.csv\n", csv->c_str());
    }
    return 0;
}

}  // namespace faultline::cli
