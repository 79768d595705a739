#include "cli/args.h"
#include "cli/commands.h"
#include "analysis/rank_places.h"
#include "analysis/next_checks.h"
#include "exports/csv_export.h"

#include "model/error.h"
#include "analysis/blast_radius.h"
#include "analysis/incidents.h"
#include "analysis/repeat_offenders.h"
#include "model/run_file.h"
#include "model/json_text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>

namespace faultline::cli {

const CommandSpec& incidentsSpec() {
    static const CommandSpec spec{
        "incidents",
        "RUN.faultline [--id N | --repeat] [--json | --csv]",
        "list a run's interruptions, or one as a chain of events",
        "Lists every interruption of the run with its time, root cause, component and downtime; with --id, one incident "
        "as the chain of events from first symptom to training resumed and, for a failed switch, cable, NIC or host, its blast "
        "radius: the GPUs and cables it cut off and its path up the fabric.",
        {{"--id", "", "N", "show incident N as a chain of events, with the blast radius of the failed part"},
         {"--repeat", "", "", "list the repeat offenders: GPUs, hosts, racks and switches that failed more than once, and the time between"},
         {"--json", "", "", "print the incidents as JSON"},
         {"--csv", "", "", "print the incidents as CSV, with the reviewer's notes, confirmed cause and tags"}}};
    return spec;
}

namespace {

// The reviewer's notes (kept in the run's review file, or saved into the run file) under a chain.
std::string reviewText(const Incident& incident, const std::map<Nanos, IncidentNote>& notes) {
    const auto it = notes.find(incident.begin);
    if (it == notes.end()) return "";
    const IncidentNote& n = it->second;
    std::string out = "\nReview:\n";
    if (n.confirmedCause) out += "  confirmed cause: " + std::string(rootCauseKey(*n.confirmedCause)) + "\n";
    if (!n.tags.empty()) out += "  tags: " + joinTags(n.tags) + "\n";
    if (!n.notes.empty()) out += "  notes: " + n.notes + "\n";
    return out;
}

void addReviews(nlohmann::json& json, const std::vector<Incident>& incidents, const std::map<Nanos, IncidentNote>& notes) {
    nlohmann::json* list = json.is_array() ? &json : (json.contains("incidents") ? &json["incidents"] : nullptr);
    if (!list) return;
    for (std::size_t i = 0; i < incidents.size() && i < list->size(); ++i) {
        const auto it = notes.find(incidents[i].begin);
        if (it == notes.end()) continue;
        nlohmann::json review{{"notes", it->second.notes}, {"tags", it->second.tags}};
        review["confirmed_cause"] = it->second.confirmedCause ? std::string(rootCauseKey(*it->second.confirmedCause)) : std::string();
        (*list)[i]["review"] = std::move(review);
    }
}

}  // namespace

int incidentsCommand(const CommandArgs& argv) {
    const Args args(argv, incidentsSpec());
    if (args.positional().size() != 1) throw UsageError("incidents takes one run file");
    const std::optional<long long> id = args.integer("--id");
    const Run run = readRunFile(args.positional().front());
    if (args.flag("--repeat")) {
        if (id || args.flag("--csv")) throw UsageError("--repeat lists parts, not incidents: it takes --json alone");
        const std::vector<RepeatOffender> offenders = findRepeatOffenders(run);
        const std::string text = args.flag("--json") ? jsonText(repeatOffendersToJson(offenders, run)) : repeatOffendersToText(offenders, run);
        std::fputs(text.c_str(), stdout);
        return 0;
    }
    std::vector<Incident> incidents = buildIncidents(run);
    if (id) {
        auto it = std::find_if(incidents.begin(), incidents.end(), [&](const Incident& i) { return i.id == *id; });
        if (it == incidents.end())
            throw Error("no incident " + std::to_string(*id) + " (this run has " + std::to_string(incidents.size()) + ")");
        incidents = {*it};
        if (!args.flag("--json") && !args.flag("--csv")) {
            std::fputs(incidentChainToText(incidents.front(), run.info).c_str(), stdout);
            // When (with what the import assumed of it) and where its ranks ran, as the incident view says.
            std::string whenWhere = "  when: " + incidentWhenText(incidents.front(), run) + "\n";
            if (const std::string where = incidentRankPlacesText(run, incidents.front()); !where.empty()) whenWhere += "  where: " + where + "\n";
            std::fputs(whenWhere.c_str(), stdout);
            // Beside the evidence: what it means and what to check next, with its source.
            if (const std::string next = nextChecksToText(nextChecks(incidents.front(), run)); !next.empty())
                std::fputs(("\n" + next).c_str(), stdout);
            // A failed switch, cable, NIC or host: what it cut off, and its way up the fabric.
            if (const ComponentRef part = failedPart(run, incidents.front()); part.kind != ComponentKind::None && part.kind != ComponentKind::Gpu) {
                std::string text = "\n" + blastRadiusToText(run.topology, blastRadius(run.topology, part));
                if (const std::string traffic = trafficThroughText(run, part); !traffic.empty()) text += "  " + traffic + "\n";
                std::fputs(text.c_str(), stdout);
            }
            std::fputs(reviewText(incidents.front(), readIncidentNotes(args.positional().front())).c_str(), stdout);
            return 0;
        }
    }
    if (args.flag("--csv")) {
        std::fputs(incidentsToCsv(incidents, run.info, readIncidentNotes(args.positional().front())).c_str(), stdout);
        return 0;
    }
    std::string text;
    if (args.flag("--json")) {
        nlohmann::json json = incidentsToJson(incidents, run.info);
        addReviews(json, incidents, readIncidentNotes(args.positional().front()));
        if (id && json.is_array() && !json.empty()) {
            nlohmann::json next = nlohmann::json::array();
            for (const NextCheck& c : nextChecks(incidents.front(), run))
                next.push_back({{"evidence", c.evidence}, {"meaning", c.meaning}, {"check", c.check}, {"source", c.source}});
            json[0]["next_checks"] = std::move(next);
        }
        text = jsonText(json);
    } else {
        text = incidentsToText(incidents, run.info);
    }
    std::fputs(text.c_str(), stdout);
    return 0;
}

}  // namespace faultline::cli
