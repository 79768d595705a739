#include "summary.h"

#include "format.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>

namespace faultline {

namespace {

// Time of [begin, end) that falls inside the run.
Nanos within(Nanos begin, Nanos end, Nanos duration) {
    return std::max<Nanos>(0, std::min(end, duration) - std::max<Nanos>(begin, 0));
}

}  // namespace

RunSummary summarize(const Run& run) {
    RunSummary s;
    const Nanos duration = run.info.duration;
    s.name = run.info.name;
    s.startEpochNs = run.info.startEpochNs;
    s.gpus = run.topology.gpus.size();
    s.hosts = run.topology.hosts.size();
    s.racks = run.topology.racks.size();
    s.switches = run.topology.switches.size();
    s.duration = duration;

    std::array<int, kRootCauseCount> counts{};
    Nanos down = 0;
    for (const Downtime& d : run.downtimes) {
        (d.planned ? s.planned : s.unexpected) += 1;
        if (!d.planned) ++counts[static_cast<std::size_t>(d.cause)];
        s.downtime.detection += within(d.begin, d.detected, duration);
        s.downtime.restart += within(d.detected, d.restarted, duration);
        s.downtime.reload += within(d.restarted, d.end, duration);
        s.downtime.lostWork += d.lostWork;
        down += within(d.begin, d.end, duration);
    }
    for (int c = 0; c < kRootCauseCount; ++c)
        if (counts[static_cast<std::size_t>(c)] > 0)
            s.causes.push_back({static_cast<RootCause>(c), counts[static_cast<std::size_t>(c)],
                                100.0 * counts[static_cast<std::size_t>(c)] / s.unexpected});
    std::stable_sort(s.causes.begin(), s.causes.end(), [](const CauseCount& a, const CauseCount& b) { return a.count > b.count; });

    for (const Checkpoint& c : run.checkpoints) {
        if (c.kind != CheckpointKind::Save) continue;
        ++s.checkpoints;
        s.checkpointSaveTotal += within(c.begin, c.end, duration);
    }
    if (s.checkpoints > 0) s.meanCheckpointSave = s.checkpointSaveTotal / s.checkpoints;
    if (s.unexpected > 0) s.mtbf = duration / s.unexpected;
    if (duration > 0) {
        const Nanos productive = duration - down - s.downtime.lostWork - s.checkpointSaveTotal;
        s.ettr = std::max(0.0, static_cast<double>(productive) / static_cast<double>(duration));
    }
    return s;
}

nlohmann::json summaryToJson(const RunSummary& s) {
    nlohmann::json causes = nlohmann::json::array();
    for (const CauseCount& c : s.causes)
        causes.push_back({{"cause", rootCauseKey(c.cause)}, {"label", rootCauseLabel(c.cause)}, {"count", c.count},
                          {"percent", c.percent}});
    return {
        {"name", s.name},
        {"gpus", s.gpus},
        {"hosts", s.hosts},
        {"racks", s.racks},
        {"switches", s.switches},
        {"duration_s", toSeconds(s.duration)},
        {"interruptions", {{"planned", s.planned}, {"unexpected", s.unexpected}}},
        {"causes", causes},
        {"ettr", s.ettr},
        {"downtime_s",
         {{"detection", toSeconds(s.downtime.detection)},
          {"restart", toSeconds(s.downtime.restart)},
          {"reload", toSeconds(s.downtime.reload)},
          {"lost_work", toSeconds(s.downtime.lostWork)}}},
        {"mtbf_s", toSeconds(s.mtbf)},
        {"checkpoints", s.checkpoints},
        {"checkpoint_mean_save_s", toSeconds(s.meanCheckpointSave)},
    };
}

std::string summaryToText(const RunSummary& s) {
    std::string out;
    auto line = [&out](const std::string& label, const std::string& value) {
        char buf[256];
        std::snprintf(buf, sizeof buf, "%-28s %s\n", label.c_str(), value.c_str());
        out += buf;
    };
    line("Run", s.name);
    line("Started", formatWallTime(s.startEpochNs, 0));
    line("Duration", formatDuration(s.duration));
    line("Cluster", formatCount(static_cast<std::int64_t>(s.gpus)) + " GPUs, " + formatCount(static_cast<std::int64_t>(s.hosts)) +
                        " hosts, " + formatCount(static_cast<std::int64_t>(s.racks)) + " racks, " +
                        formatCount(static_cast<std::int64_t>(s.switches)) + " switches");
    line("Interruptions", std::to_string(s.planned + s.unexpected) + " (" + std::to_string(s.planned) + " planned, " +
                              std::to_string(s.unexpected) + " unexpected)");
    line("Effective training time", formatPercent(s.ettr));
    line("Mean time between failures", s.unexpected ? formatDuration(s.mtbf) : "no failures");
    line("Downtime: detection", formatDuration(s.downtime.detection));
    line("Downtime: restart", formatDuration(s.downtime.restart));
    line("Downtime: checkpoint reload", formatDuration(s.downtime.reload));
    line("Downtime: lost work", formatDuration(s.downtime.lostWork));
    line("Checkpoints saved", formatCount(s.checkpoints) + " (mean save " + formatDuration(s.meanCheckpointSave) + ")");
    if (!s.causes.empty()) {
        out += "\nRoot causes of unexpected interruptions\n";
        for (const CauseCount& c : s.causes) {
            char buf[160];
            std::snprintf(buf, sizeof buf, "  %-32s %5d  %5.1f%%\n", std::string(rootCauseLabel(c.cause)).c_str(), c.count, c.percent);
            out += buf;
        }
    }
    return out;
}

}  // namespace faultline
