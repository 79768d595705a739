// How straggler findings read in the CLI and in exports.
#include "model/format.h"
#include "step_time_stragglers.h"
#include "straggler_analysis.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace faultline {

namespace {

std::string opName(const Run& run, std::int32_t op) {
    return op >= 0 && static_cast<std::size_t>(op) < run.collectiveOps.size() ? run.collectiveOps[static_cast<std::size_t>(op)] : "?";
}

std::string groupName(const Run& run, std::int32_t group) {
    return group >= 0 && static_cast<std::size_t>(group) < run.processGroups.size() ? run.processGroups[static_cast<std::size_t>(group)].name : "?";
}

std::string where(const Run& run, std::int32_t gpu) { return gpu >= 0 ? run.topology.gpuName(gpu) : "unknown GPU"; }

}  // namespace

nlohmann::json stragglersToJson(const StragglerReport& report, const Run& run) {
    nlohmann::json ranks = nlohmann::json::array();
    for (const RankStragglerScore& r : report.ranks) {
        nlohmann::json evidence = nlohmann::json::array();
        for (const LateArrival& a : r.evidence)
            evidence.push_back({{"process_group", groupName(run, a.group)}, {"seq", a.seq}, {"op", opName(run, a.op)},
                                {"time_s", toSeconds(a.enter)}, {"late_s", toSeconds(a.lateness)}});
        ranks.push_back({{"rank", r.rank}, {"gpu", r.gpu >= 0 ? nlohmann::json(where(run, r.gpu)) : nlohmann::json()},
                         {"score", r.score}, {"collectives", r.collectives}, {"late", r.late},
                         {"total_late_s", toSeconds(r.totalLateness)}, {"evidence", evidence}, {"telemetry", r.telemetry},
                         {"timeline", r.timeline}});
    }
    nlohmann::json episodes = nlohmann::json::array();
    for (const StragglerEpisode& e : report.episodes)
        episodes.push_back({{"gpu", where(run, e.gpu)}, {"begin_s", toSeconds(e.begin)}, {"end_s", toSeconds(e.end)},
                            {"slowdown", e.slowdown}, {"cause", e.cause}});
    return {{"records", report.records},         {"instances", report.instances},
            {"skewed_instances", report.skewedInstances}, {"window_s", toSeconds(report.windowLength)},
            {"trace_begin_s", toSeconds(report.traceBegin)}, {"ranks", ranks}, {"episodes", episodes}};
}

std::string stragglersToText(const StragglerReport& report, const Run& run, int limit) {
    if (report.records == 0) return "No collective records in this run: import collective traces to find stragglers.\n";
    char buf[512];
    std::string out;
    std::snprintf(buf, sizeof buf, "%s collective records, %s collectives matched across ranks, %s with a late rank\n\n",
                  formatCount(report.records).c_str(), formatCount(report.instances).c_str(), formatCount(report.skewedInstances).c_str());
    out += buf;
    std::snprintf(buf, sizeof buf, "%6s  %-22s  %7s  %9s  %12s  %s\n", "rank", "gpu", "score", "late", "waited for", "worst evidence");
    out += buf;
    int shown = 0;
    for (const RankStragglerScore& r : report.ranks) {
        if (shown++ >= limit || r.totalLateness == 0) break;
        std::string evidence;
        if (!r.evidence.empty()) {
            const LateArrival& a = r.evidence.front();
            evidence = formatDuration(a.lateness) + " late to " + opName(run, a.op) + " #" + std::to_string(a.seq) + " in " + groupName(run, a.group);
        }
        std::snprintf(buf, sizeof buf, "%6d  %-22.22s  %7s  %4d/%-4d  %12s  %s\n", r.rank, where(run, r.gpu).c_str(),
                      formatPercent(r.score, 1).c_str(), r.late, r.collectives, formatDuration(r.totalLateness).c_str(), evidence.c_str());
        out += buf;
        if (!r.telemetry.empty()) out += std::string(32, ' ') + "its GPU while traced: " + r.telemetry + "\n";
    }
    if (shown == 0 || report.ranks.front().totalLateness == 0) out += "  no rank arrived late\n";
    if (!report.episodes.empty()) {
        out += "\nStraggler episodes\n";
        for (const StragglerEpisode& e : report.episodes) {
            std::snprintf(buf, sizeof buf, "  %-22s  %s for %s, about %.2fx slower\n", where(run, e.gpu).c_str(),
                          formatWallTime(run.info.startEpochNs, e.begin).c_str(), formatDuration(e.end - e.begin).c_str(), e.slowdown);
            out += buf;
        }
    }
    return out;
}

nlohmann::json stepTimesToJson(const StepTimeReport& report) {
    nlohmann::json ranks = nlohmann::json::array();
    for (const RankStepScore& r : report.ranks)
        ranks.push_back({{"rank", r.rank}, {"mean_ratio", r.meanRatio}, {"window_ratio", r.windowRatio}});
    nlohmann::json episodes = nlohmann::json::array();
    for (const StepTimeEpisode& e : report.episodes)
        episodes.push_back({{"rank", e.rank}, {"first_step", e.firstStep}, {"last_step", e.lastStep}, {"begin_s", toSeconds(e.begin)},
                            {"end_s", toSeconds(e.end)}, {"slowdown", e.slowdown}});
    return {{"steps", report.steps}, {"ranks", ranks}, {"episodes", episodes}};
}

std::string stepTimesToText(const StepTimeReport& report, int limit) {
    if (report.steps == 0) return "";
    std::string out = "Per-rank step times: " + formatCount(report.steps) + " steps compared across ranks\n";
    char buf[256];
    int shown = 0;
    for (const RankStepScore& r : report.ranks) {
        if (shown++ >= limit) break;
        std::snprintf(buf, sizeof buf, "  rank %-6d steps take %.3fx the median rank's\n", r.rank, r.meanRatio);
        out += buf;
    }
    for (const StepTimeEpisode& e : report.episodes) {
        std::snprintf(buf, sizeof buf, "  rank %-6d straggled from step %lld to %lld, %.2fx slower\n", e.rank,
                      static_cast<long long>(e.firstStep), static_cast<long long>(e.lastStep), e.slowdown);
        out += buf;
    }
    return out;
}

}  // namespace faultline
