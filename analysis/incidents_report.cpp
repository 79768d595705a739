// How incidents read in the CLI and in exports: a table, one incident's chain, and JSON.
#include "model/format.h"
#include "model/time_notes.h"
#include "incidents.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>

namespace faultline {

std::string rankRanges(std::vector<std::int32_t> ranks) {
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    std::string out;
    for (std::size_t i = 0; i < ranks.size();) {
        std::size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
        out += (out.empty() ? "" : ",") + std::to_string(ranks[i]) + (j > i ? "-" + std::to_string(ranks[j]) : std::string());
        i = j + 1;
    }
    return out;
}

std::string suspectReasonOf(const Failure& failure) {
    // The importer's own words (importers/console_failures.cpp); the time notes that may follow
    // them (model/time_notes.h) are about the failure, not its suspects.
    const std::string cleaned = withoutTimeNotes(failure.detail);
    std::string_view d = cleaned;
    constexpr std::string_view kRoot = "torchrun's root cause: ";
    if (const std::size_t at = d.find(kRoot); at != std::string_view::npos) {
        const std::string_view root = d.substr(at + kRoot.size());
        return std::string(root.substr(0, root.find("; ")));
    }
    constexpr std::string_view kSuspects = "; suspect rank(s) ";
    if (const std::size_t at = d.find(kSuspects); at != std::string_view::npos) {
        std::string_view why = d.substr(at + kSuspects.size());
        const std::size_t open = why.find(" (");  // after the list of ranks
        if (open == std::string_view::npos || why.back() != ')') return {};
        return std::string(why.substr(open + 2, why.size() - open - 3));
    }
    return {};
}

std::string ranksOfFailureText(const std::vector<std::int32_t>& reporting, const std::vector<std::int32_t>& suspects, const std::string& reason) {
    std::string out;
    if (!reporting.empty()) out = "reported by rank" + std::string(reporting.size() > 1 ? "s " : " ") + rankRanges(reporting);
    if (!suspects.empty()) {
        out += std::string(out.empty() ? "" : "; ") + "suspect rank" + (suspects.size() > 1 ? "s " : " ") + rankRanges(suspects);
        if (!reason.empty()) out += " (" + reason + ")";
    }
    return out;
}

nlohmann::json incidentsToJson(const std::vector<Incident>& incidents, const RunInfo& info) {
    nlohmann::json out = nlohmann::json::array();
    for (const Incident& inc : incidents) {
        nlohmann::json chain = nlohmann::json::array();
        for (const IncidentEvent& e : inc.chain) chain.push_back({{"time_s", toSeconds(e.time)}, {"what", e.what}});
        nlohmann::json j = {
            {"id", inc.id},
            {"planned", inc.planned},
            {"cause", rootCauseKey(inc.cause)},
            {"cause_label", inc.causeLabel},
            {"time_s", toSeconds(inc.begin)},
            {"wall_time", formatWallTime(info.startEpochNs, inc.begin)},
            {"hardware", inc.hardware},
            {"gpus", inc.gpus},
            {"reporting_ranks", inc.reportingRanks},
            {"suspect_ranks", inc.suspectRanks},
            {"xid", inc.xid},
            {"detection_s", toSeconds(inc.detection)},
            {"restart_s", toSeconds(inc.restart)},
            {"reload_s", toSeconds(inc.reload)},
            {"lost_work_s", inc.lostWorkKnown ? nlohmann::json(toSeconds(inc.lostWork)) : nlohmann::json()},
            {"time_to_recover_s", inc.end ? nlohmann::json(toSeconds(inc.timeToRecover)) : nlohmann::json()},
            {"gpu_hours_lost", inc.gpuHoursLost ? nlohmann::json(*inc.gpuHoursLost) : nlohmann::json()},
            {"step_at_failure", inc.stepAtFailure ? nlohmann::json(*inc.stepAtFailure) : nlohmann::json()},
            {"resumed_from_step", inc.resumedFromStep ? nlohmann::json(*inc.resumedFromStep) : nlohmann::json()},
            {"headline", inc.headline},
            {"chain", chain},
        };
        out.push_back(std::move(j));
    }
    return out;
}

std::string incidentsToText(const std::vector<Incident>& incidents, const RunInfo& info) {
    std::string out;
    char buf[512];
    std::snprintf(buf, sizeof buf, "%5s  %-23s  %-30s  %-34s  %14s  %14s  %12s  %s\n", "#", "time", "cause", "hardware", "to recover", "lost work",
                  "GPU-h lost", "suspect ranks");
    out += buf;
    for (const Incident& inc : incidents) {
        std::string cause = inc.causeLabel;
        if (inc.xid) cause += " (Xid " + std::to_string(inc.xid) + ")";
        const std::string suspects = rankRanges(inc.suspectRanks);
        std::snprintf(buf, sizeof buf, "%5d  %-23s  %-30.30s  %-34.34s  %14s  %14s  %12s  %.60s\n", inc.id,
                      formatWallTime(info.startEpochNs, inc.begin).c_str(), cause.c_str(), inc.hardware.c_str(),
                      inc.end ? formatDuration(inc.timeToRecover).c_str() : "-", inc.lostWorkKnown ? formatDuration(inc.lostWork).c_str() : "unknown",
                      gpuHoursText(inc.gpuHoursLost).c_str(), suspects.empty() ? "-" : suspects.c_str());
        out += buf;
    }
    return out;
}

std::string incidentChainToText(const Incident& inc, const RunInfo& info) {
    std::string out = "Incident " + std::to_string(inc.id) + ": " + inc.headline + "\n";
    if (!inc.reportingRanks.empty()) out += "  reported by ranks " + rankRanges(inc.reportingRanks) + "\n";
    if (!inc.suspectRanks.empty())
        out += "  suspect ranks " + rankRanges(inc.suspectRanks) + (inc.suspectReason.empty() ? "" : " (" + inc.suspectReason + ")") + "\n";
    for (const IncidentEvent& e : inc.chain) out += "  " + formatWallTime(info.startEpochNs, e.time) + "  " + e.what + "\n";
    return out;
}

}  // namespace faultline
