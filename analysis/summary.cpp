#include "summary.h"

#include "model/format.h"
#include "model/time_notes.h"
#include "goodput.h"

#include <array>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace faultline {

namespace {

Nanos meanCheckpointInterval(const Run& run) {
    std::vector<Nanos> downtimeBegins;
    for (const Downtime& d : run.downtimes) downtimeBegins.push_back(d.begin);
    std::sort(downtimeBegins.begin(), downtimeBegins.end());
    const Checkpoint* previous = nullptr;
    Nanos total = 0;
    std::int64_t gaps = 0;
    for (const Checkpoint& c : run.checkpoints) {
        if (c.kind != CheckpointKind::Save) continue;
        if (previous != nullptr && c.begin >= previous->end) {
            // A downtime between the two saves restarts the clock: that gap is no interval.
            const auto d = std::lower_bound(downtimeBegins.begin(), downtimeBegins.end(), previous->end);
            if (d == downtimeBegins.end() || *d >= c.begin) {
                total += c.begin - previous->end;
                ++gaps;
            }
        }
        previous = &c;
    }
    return gaps > 0 ? total / gaps : 0;
}

}  // namespace

Nanos youngDalyInterval(Nanos meanSave, Nanos mtbf) {
    if (meanSave <= 0 || mtbf <= 0) return 0;
    return static_cast<Nanos>(std::llround(std::sqrt(2.0 * static_cast<double>(meanSave) * static_cast<double>(mtbf))));
}

std::string ettrCaveat(const RunSummary& s) {
    if (!s.ettrKnown || s.withoutDowntime == 0) return {};
    return "not counting " + formatCounted(s.withoutDowntime, "interruption", "interruptions") +
           (s.withoutDowntime == 1 ? " whose downtime the files do not show" : " whose downtimes the files do not show");
}

std::string untracedText(const RunSummary& s) {
    return formatCount(static_cast<std::int64_t>(s.gpus - s.untracedGpus)) + " of " + formatCount(static_cast<std::int64_t>(s.gpus)) +
           "; no data on the other " + formatCount(static_cast<std::int64_t>(s.untracedGpus)) + " (whether they kept pace is unknown)";
}

namespace {

// Whether nothing in the run carries a time of its own: failures only, each with its time
// inferred or unknown, and no steps, jobs, checkpoints, traces or telemetry.
bool onlyUndatedEvidence(const Run& run) {
    if (run.failures.empty() || !run.steps.empty() || !run.jobs.empty() || !run.checkpoints.empty() || !run.collectives.empty() ||
        run.hang || !run.telemetry.empty())
        return false;
    for (const Failure& f : run.failures) {
        const std::vector<std::string> notes = timeNotesOf(f.detail);
        if (std::find_if(notes.begin(), notes.end(), [](const std::string& n) { return n == "time inferred" || n == "time unknown"; }) == notes.end())
            return false;
    }
    return true;
}

}  // namespace

RunSummary summarize(const Run& run) {
    RunSummary s;
    s.startInferred = onlyUndatedEvidence(run);
    s.ledger = computeGoodput(run);
    const GoodputLedger& ledger = s.ledger;
    s.name = run.info.name;
    s.startEpochNs = run.info.startEpochNs;
    s.gpus = run.topology.gpus.size();
    s.hosts = run.topology.hosts.size();
    s.racks = run.topology.racks.size();
    for (const Host& h : run.topology.hosts)
        if (h.gpuCountAssumed) s.assumedGpus += static_cast<std::size_t>(h.gpuCount), ++s.assumedHosts;
    s.switches = run.topology.switches.size();
    s.fabric = outlineFabric(run.topology);
    s.duration = run.info.duration;
    s.shape = run.jobShape;
    s.untracedGpus = run.untracedGpus.size();

    s.unexpected = ledger.unexpected;
    s.withoutDowntime = ledger.withoutDowntime;
    s.planned = ledger.planned;
    for (const CauseMtbf& c : ledger.mtbfByCause) s.causes.push_back({c.cause, c.count, 100.0 * c.count / s.unexpected});
    s.mtbf = ledger.mtbf;
    s.ettr = ledger.whole.ettr();
    s.goodput = ledger.whole.goodput();
    const Badput& b = ledger.whole.badput;
    s.downtime = {b.detection, b.restart, b.reload, b.lostWork, b.planned};

    for (const Checkpoint& c : run.checkpoints) {
        if (c.kind != CheckpointKind::Save) continue;
        ++s.checkpoints;
        s.checkpointSaveTotal += c.end - c.begin;
    }
    if (s.checkpoints > 0) s.meanCheckpointSave = s.checkpointSaveTotal / s.checkpoints;
    s.checkpointInterval = meanCheckpointInterval(run);
    s.optimalCheckpointInterval = youngDalyInterval(s.meanCheckpointSave, s.mtbf);
    s.basis = evidenceBasis(run, s.unexpected, s.checkpoints, s.checkpointInterval > 0, ledger.timeAccounted);
    for (const SummaryFigure f : kSummaryFigures) s.evidence[static_cast<std::size_t>(f)] = figureEvidence(f, s.basis);
    s.ettrKnown = s.known(SummaryFigure::Ettr);
    for (const Job& j : run.jobs)
        if (j.inRun) {
            ++s.jobsInRun;
            s.requeues += j.restarts > 0 ? 1 : 0;
        }
    return s;
}

namespace {

// Every figure's verdict: what it needs and, when unknown, why it is null.
nlohmann::json evidenceToJson(const RunSummary& s) {
    nlohmann::json out = nlohmann::json::object();
    for (const SummaryFigure f : kSummaryFigures) {
        const FigureEvidence& e = s.evidenceFor(f);
        out[std::string(summaryFigureKey(f))] = {{"known", e.known}, {"needs", e.needs},
                                                 {"reason", e.known ? nlohmann::json() : nlohmann::json(unknownFigureText(e))}};
    }
    return out;
}

}  // namespace

std::string figureOrUnknown(const RunSummary& s, SummaryFigure f, const std::string& value) { return s.known(f) ? value : kNotEnoughToSay; }

std::vector<std::string> unknownFigureNotes(const RunSummary& s) {
    std::vector<std::string> out;
    for (const SummaryFigure f : kSummaryFigures)
        if (!s.known(f)) out.push_back(std::string(summaryFigureLabel(f)) + ": " + unknownFigureText(s.evidenceFor(f)));
    return out;
}

nlohmann::json summaryToJson(const RunSummary& s) {
    const bool downtimeKnown = s.known(SummaryFigure::DowntimeShares);
    auto downtime = [downtimeKnown](Nanos d) { return downtimeKnown ? nlohmann::json(toSeconds(d)) : nlohmann::json(); };
    nlohmann::json causes = nlohmann::json::array();
    for (const CauseCount& c : s.causes)
        causes.push_back({{"cause", rootCauseKey(c.cause)}, {"label", rootCauseLabel(c.cause)}, {"count", c.count},
                          {"percent", c.percent}});
    return {
        {"name", s.name},
        {"start_inferred", s.startInferred},
        {"gpus", s.gpus},
        {"gpus_assumed", s.assumedGpus},
        {"hosts", s.hosts},
        {"racks", s.racks},
        {"switches", s.switches},
        {"fabric", fabricOutlineToJson(s.fabric)},
        {"duration_s", toSeconds(s.duration)},
        {"job_shape", s.shape.known() ? nlohmann::json{{"world_size", s.shape.worldSize}, {"gpus_per_node", s.shape.gpusPerNode},
                                                        {"tensor_parallel", s.shape.tensorParallel}, {"pipeline_parallel", s.shape.pipelineParallel},
                                                        {"data_parallel", s.shape.dataParallel}}
                                      : nlohmann::json()},
        {"untraced_gpus", s.untracedGpus},
        {"interruptions", {{"planned", s.planned}, {"unexpected", s.unexpected}, {"without_downtime", s.withoutDowntime}}},
        {"causes", causes},
        {"ettr", s.ettrKnown ? nlohmann::json(s.ettr) : nlohmann::json()},
        {"goodput", s.ettrKnown ? nlohmann::json(s.goodput) : nlohmann::json()},
        {"downtime_s",
         {{"detection", downtime(s.downtime.detection)},
          {"restart", downtime(s.downtime.restart)},
          {"reload", downtime(s.downtime.reload)},
          {"lost_work", downtime(s.downtime.lostWork)},
          {"planned", downtime(s.downtime.planned)}}},
        {"mtbf_s", s.known(SummaryFigure::Mtbf) ? nlohmann::json(toSeconds(s.mtbf)) : nlohmann::json()},
        {"checkpoints", s.checkpoints},
        {"jobs", {{"in_run", s.jobsInRun}, {"requeues", s.requeues}}},
        {"checkpoint_mean_save_s", toSeconds(s.meanCheckpointSave)},
        {"checkpoint_interval_s",
         s.known(SummaryFigure::CheckpointInterval) ? nlohmann::json(toSeconds(s.checkpointInterval)) : nlohmann::json()},
        {"optimal_checkpoint_interval_s",
         s.known(SummaryFigure::YoungDaly) ? nlohmann::json(toSeconds(s.optimalCheckpointInterval)) : nlohmann::json()},
        {"figures", evidenceToJson(s)},
        {"goodput_ledger", goodputToJson(s.ledger)},
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
    line("Started", formatWallTime(s.startEpochNs, 0) + (s.startInferred ? " (inferred: no line of the files gives a date; placed at their last write)" : ""));
    line("Duration", formatDuration(s.duration));
    const std::string assumed = s.assumedGpus == 0 ? std::string()
                                                   : " (" + formatCount(static_cast<std::int64_t>(s.assumedGpus)) + " of them assumed: no file numbers the GPUs of " +
                                                         formatCounted(static_cast<std::int64_t>(s.assumedHosts), "host", "hosts") + ")";
    line("Cluster", formatCounted(static_cast<std::int64_t>(s.gpus), "GPU", "GPUs") + assumed + ", " + formatCounted(static_cast<std::int64_t>(s.hosts), "host", "hosts") +
                        ", " + formatCounted(static_cast<std::int64_t>(s.racks), "rack", "racks") + ", " +
                        formatCounted(static_cast<std::int64_t>(s.switches), "switch", "switches"));
    line("Fabric", fabricOutlineText(s.fabric));
    if (s.shape.known()) line("Job shape", jobShapeText(s.shape));
    if (s.untracedGpus > 0) line("Traced GPUs", untracedText(s));
    line("Interruptions", std::to_string(s.planned + s.unexpected) + " (" + std::to_string(s.planned) + " planned, " +
                              std::to_string(s.unexpected) + " unexpected)");
    if (s.jobsInRun > 0)
        line("Jobs", std::to_string(s.jobsInRun) + " trained the run (" + std::to_string(s.requeues) + " of them requeued runs)");
    // A figure the evidence cannot support is said so, with what would make it known.
    auto figure = [&s, &line](SummaryFigure f, const std::string& label, const std::string& value) {
        line(label, s.known(f) ? value : unknownFigureText(s.evidenceFor(f)));
    };
    const std::string caveat = ettrCaveat(s);
    figure(SummaryFigure::Ettr, "Effective training time",
           formatPercent(s.ettr) + " (goodput " + formatPercent(s.goodput) + " after straggler slowdown" + (caveat.empty() ? "" : "; " + caveat) + ")");
    figure(SummaryFigure::Mtbf, "Mean time between failures", formatDuration(s.mtbf));
    if (s.known(SummaryFigure::DowntimeShares)) {
        line("Downtime: detection", formatDuration(s.downtime.detection));
        line("Downtime: restart", formatDuration(s.downtime.restart));
        line("Downtime: checkpoint reload", formatDuration(s.downtime.reload));
        line("Downtime: lost work", formatDuration(s.downtime.lostWork));
        line("Planned maintenance", formatDuration(s.downtime.planned));
    } else {
        line("Downtime", unknownFigureText(s.evidenceFor(SummaryFigure::DowntimeShares)));
    }
    line("Checkpoints saved", formatCount(s.checkpoints) + (s.checkpoints > 0 ? " (mean save " + formatDuration(s.meanCheckpointSave) + ")" : ""));
    figure(SummaryFigure::CheckpointInterval, "Checkpoint interval", formatDuration(s.checkpointInterval));
    figure(SummaryFigure::YoungDaly, "Young/Daly optimal interval",
           formatDuration(s.optimalCheckpointInterval) + " (for MTBF " + formatDuration(s.mtbf) + " and " + formatDuration(s.meanCheckpointSave) +
               " saves)");
    if (!s.causes.empty()) {
        out += "\nRoot causes of unexpected interruptions\n";
        for (const CauseCount& c : s.causes) {
            char buf[160];
            std::snprintf(buf, sizeof buf, "  %-32s %5d  %5.1f%%\n", std::string(rootCauseLabel(c.cause)).c_str(), c.count, c.percent);
            out += buf;
        }
    }
    // The ledger is shares of the run: it needs what ETTR needs.
    out += "\n" + (s.ettrKnown ? goodputToText(s.ledger) : "Goodput ledger: " + unknownFigureText(s.evidenceFor(SummaryFigure::Ettr)) + "\n");
    return out;
}

}  // namespace faultline
