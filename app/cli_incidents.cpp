#include "cli_args.h"
#include "cli_commands.h"

#include "model/error.h"
#include "analysis/incidents.h"
#include "model/run_file.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>

namespace faultline::cli {

int incidentsCommand(const CommandArgs& argv) {
    const Args args(argv, {"--id"}, {"--json"});
    if (args.positional().size() != 1)
        throw Error("incidents takes one run file: faultline-cli incidents RUN.faultline [--id N] [--json]");
    const Run run = readRunFile(args.positional().front());
    std::vector<Incident> incidents = buildIncidents(run);
    if (auto id = args.integer("--id")) {
        auto it = std::find_if(incidents.begin(), incidents.end(), [&](const Incident& i) { return i.id == *id; });
        if (it == incidents.end())
            throw Error("no incident " + std::to_string(*id) + " (this run has " + std::to_string(incidents.size()) + ")");
        incidents = {*it};
        if (!args.flag("--json")) {
            std::fputs(incidentChainToText(incidents.front(), run.info).c_str(), stdout);
            return 0;
        }
    }
    const std::string text = args.flag("--json") ? incidentsToJson(incidents, run.info).dump(2) + "\n" : incidentsToText(incidents, run.info);
    std::fputs(text.c_str(), stdout);
    return 0;
}

}  // namespace faultline::cli
