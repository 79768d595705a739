#include "analysis/rank_places.h"

#include "model/format.h"
#include "model/time_notes.h"
#include "model/unplaced_hosts.h"

#include <algorithm>

namespace faultline {

std::string rankPlaceText(const Run& run, std::int32_t rank) {
    const std::string name = "rank " + std::to_string(rank);
    if (rank < 0 || static_cast<std::size_t>(rank) >= run.rankToGpu.size()) return name + " (host unknown)";
    const std::int32_t gpu = run.rankToGpu[static_cast<std::size_t>(rank)];
    const Topology& t = run.topology;
    if (gpu < 0 || static_cast<std::size_t>(gpu) >= t.gpus.size()) return name + " (host unknown)";
    const Gpu& g = t.gpus[static_cast<std::size_t>(gpu)];
    const Host& h = t.hosts[static_cast<std::size_t>(g.host)];
    if (isUnplacedHost(h)) return name + " (host unknown)";
    std::string out = name + " on " + h.name + " GPU " + std::to_string(g.index);
    if (!g.pciBusId.empty()) out += " (" + g.pciBusId + ")";
    return out;
}

std::string incidentWhenText(const Incident& incident, const Run& run) {
    std::string out = formatWallTime(run.info.startEpochNs, incident.begin);
    if (incident.failure < 0 || static_cast<std::size_t>(incident.failure) >= run.failures.size()) return out;
    const std::vector<std::string> notes = timeNotesOf(run.failures[static_cast<std::size_t>(incident.failure)].detail);
    for (std::size_t i = 0; i < notes.size(); ++i) out += (i ? ", " : " (") + notes[i] + (i + 1 == notes.size() ? ")" : "");
    return out;
}

std::string incidentRankPlacesText(const Run& run, const Incident& incident, std::size_t limit) {
    std::vector<std::int32_t> ranks = incident.suspectRanks;
    for (std::int32_t r : incident.reportingRanks)
        if (std::find(ranks.begin(), ranks.end(), r) == ranks.end()) ranks.push_back(r);
    std::string out;
    for (std::size_t i = 0; i < ranks.size() && i < limit; ++i) out += (i ? ", " : "") + rankPlaceText(run, ranks[i]);
    if (ranks.size() > limit) out += " and " + std::to_string(ranks.size() - limit) + " more";
    return out;
}

}  // namespace faultline
