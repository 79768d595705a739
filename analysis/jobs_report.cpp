#include "jobs_report.h"

#include "model/format.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <map>

namespace faultline {

namespace {

// The downtime that began when each job ended, by job row.
std::map<std::int32_t, const Downtime*> downtimeAfter(const Run& run) {
    std::map<std::int32_t, const Downtime*> out;
    for (const Downtime& d : run.downtimes)
        if (d.job >= 0) out[d.job] = &d;
    return out;
}

bool shown(const Job& j, bool all) { return all || j.inRun; }

std::string when(const Run& run, const std::optional<Nanos>& t) { return t ? formatWallTime(run.info.startEpochNs, *t) : "-"; }

std::string ended(const Downtime* d) {
    if (!d) return "";
    return d->planned ? "planned stop" : std::string(rootCauseLabel(d->cause));
}

}  // namespace

std::vector<JobRow> jobRows(const Run& run, bool all) {
    const auto after = downtimeAfter(run);
    std::vector<JobRow> rows;
    for (std::size_t i = 0; i < run.jobs.size(); ++i) {
        const Job& j = run.jobs[i];
        if (!shown(j, all)) continue;
        const auto d = after.find(static_cast<std::int32_t>(i));
        JobRow r;
        r.job = static_cast<std::int32_t>(i);
        r.id = (j.parent >= 0 ? "  " : "") + j.id + (j.restarts > 0 ? " (r" + std::to_string(j.restarts) + ")" : "");
        r.name = j.name;
        r.state = j.state.empty() ? "?" : j.state;
        r.exitCode = j.exitCode;
        r.start = when(run, j.start);
        r.end = when(run, j.end);
        r.nodes = j.hosts.size();
        r.gpus = j.gpus;
        r.then = ended(d == after.end() ? nullptr : d->second);
        r.startTime = j.start;
        r.inRun = j.inRun;
        rows.push_back(std::move(r));
    }
    return rows;
}

std::string jobsToText(const Run& run, bool all) {
    if (run.jobs.empty()) return "no jobs in this run (simulated, or imported without scheduler records or job banners)\n";
    std::string out;
    char line[512];
    std::snprintf(line, sizeof line, "%-16s %-20s %-10s %-6s %-24s %-24s %6s %6s  %s\n", "job", "name", "state", "exit", "start", "end",
                  "nodes", "GPUs", "then");
    out += line;
    for (const JobRow& r : jobRows(run, all)) {
        std::snprintf(line, sizeof line, "%-16s %-20s %-10s %-6s %-24s %-24s %6zu %6d  %s\n", r.id.c_str(), r.name.substr(0, 20).c_str(),
                      r.state.c_str(), r.exitCode.c_str(), r.start.c_str(), r.end.c_str(), r.nodes, r.gpus, r.then.c_str());
        out += line;
    }
    const auto inRun = std::count_if(run.jobs.begin(), run.jobs.end(), [](const Job& j) { return j.inRun; });
    out += std::to_string(inRun) + " jobs trained the run, " + std::to_string(run.downtimes.size()) + " downtimes between them; " +
           std::to_string(run.jobs.size()) + " jobs and steps in the files" + (all ? "" : " (--all lists them)") + "\n";
    return out;
}

nlohmann::json jobsToJson(const Run& run, bool all) {
    const auto after = downtimeAfter(run);
    nlohmann::json jobs = nlohmann::json::array();
    auto time = [&](const std::optional<Nanos>& t) { return t ? nlohmann::json(run.info.startEpochNs + *t) : nlohmann::json(); };
    for (std::size_t i = 0; i < run.jobs.size(); ++i) {
        const Job& j = run.jobs[i];
        if (!shown(j, all)) continue;
        const auto d = after.find(static_cast<std::int32_t>(i));
        nlohmann::json o = {{"id", j.id},
                            {"name", j.name},
                            {"parent", j.parent >= 0 ? nlohmann::json(run.jobs[static_cast<std::size_t>(j.parent)].id) : nlohmann::json()},
                            {"restarts", j.restarts},
                            {"state", j.state},
                            {"exit_code", j.exitCode},
                            {"reason", j.reason},
                            {"submit_epoch_ns", time(j.submit)},
                            {"start_epoch_ns", time(j.start)},
                            {"end_epoch_ns", time(j.end)},
                            {"nodes", j.hosts.size()},
                            {"gpus", j.gpus},
                            {"in_run", j.inRun}};
        if (d != after.end()) o["then"] = d->second->planned ? "planned" : std::string(rootCauseKey(d->second->cause));
        jobs.push_back(std::move(o));
    }
    return {{"jobs", jobs}};
}

}  // namespace faultline
