#include "cli_args.h"
#include "cli_commands.h"
#include "csv_export.h"

#include "model/error.h"
#include "analysis/incidents.h"
#include "model/run_file.h"
#include "model/json_text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>

namespace faultline::cli {

const CommandSpec& incidentsSpec() {
    static const CommandSpec spec{
        "incidents",
        "RUN.faultline [--id N] [--json | --csv]",
        "list a run's interruptions, or one as a chain of events",
        "Lists every interruption of the run with its time, root cause, component and downtime; with --id, one incident "
        "as the chain of events from first symptom to training resumed.",
        {{"--id", "", "N", "show incident N as a chain of events"}, {"--json", "", "", "print the incidents as JSON"},
         {"--csv", "", "", "print the incidents as CSV, with the reviewer's notes, confirmed cause and tags"}}};
    return spec;
}

int incidentsCommand(const CommandArgs& argv) {
    const Args args(argv, incidentsSpec());
    if (args.positional().size() != 1) throw UsageError("incidents takes one run file");
    const std::optional<long long> id = args.integer("--id");
    const Run run = readRunFile(args.positional().front());
    std::vector<Incident> incidents = buildIncidents(run);
    if (id) {
        auto it = std::find_if(incidents.begin(), incidents.end(), [&](const Incident& i) { return i.id == *id; });
        if (it == incidents.end())
            throw Error("no incident " + std::to_string(*id) + " (this run has " + std::to_string(incidents.size()) + ")");
        incidents = {*it};
        if (!args.flag("--json") && !args.flag("--csv")) {
            std::fputs(incidentChainToText(incidents.front(), run.info).c_str(), stdout);
            return 0;
        }
    }
    if (args.flag("--csv")) {
        std::fputs(incidentsToCsv(incidents, run.info, readIncidentNotes(args.positional().front())).c_str(), stdout);
        return 0;
    }
    const std::string text = args.flag("--json") ? jsonText(incidentsToJson(incidents, run.info)) : incidentsToText(incidents, run.info);
    std::fputs(text.c_str(), stdout);
    return 0;
}

}  // namespace faultline::cli
