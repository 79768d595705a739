#include "cluster_power.h"

#include "model/root_cause.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace faultline {

namespace {

std::string bucketText(Nanos size) {
    return size % kDay == 0 ? std::to_string(size / kDay) + " d" : size % kHour == 0 ? std::to_string(size / kHour) + " h"
           : size % kMinute == 0 ? std::to_string(size / kMinute) + " min" : std::to_string(size / kSecond) + " s";
}

// Coarser buckets than this blur a restart (minutes) into its neighbours: where the run says
// when the job was down, the model draws the curve instead.
constexpr Nanos kCoarsestPowerBucket = 10 * kMinute;

// The telemetry curve: each bucket's sum over GPUs of their mean power. The level is the
// finest with at most ~20,000 buckets over the run, as a chart would read it.
bool telemetryCurve(const Run& run, ClusterPower& out, std::string& whyNot) {
    const auto metric = run.telemetry.metricIndex(kPowerMetric);
    if (!metric) return false;
    // The power rows alone are read from a run file, not the level's other metrics.
    const std::optional<std::size_t> level = telemetryLevelIndexFor(run.telemetry, std::max<Nanos>(run.info.duration, 1), 20'000);
    if (!level) return false;
    const Nanos size = run.telemetry.levels[*level].bucket;
    if (size > kCoarsestPowerBucket && (!run.downtimes.empty() || !run.checkpoints.empty())) {
        whyNot = "; the power telemetry is kept at " + bucketText(size) + " buckets, too coarse to show its restarts";
        return false;
    }
    std::map<std::int64_t, double> watts;
    std::vector<bool> seen(run.topology.gpus.size(), false);
    std::vector<TelemetrySummarySeries> read;
    for (const TelemetrySummarySeries& s : run.telemetry.metricSeries(*level, *metric, read)) {
        seen[static_cast<std::size_t>(s.gpu)] = true;
        for (std::size_t k = 0; k < s.buckets.size(); ++k) watts[s.buckets[k]] += s.mean[k];
    }
    if (watts.empty()) return false;
    out.fromTelemetry = true;
    out.gpus = static_cast<std::int32_t>(std::count(seen.begin(), seen.end(), true));
    for (const auto& [bucket, w] : watts) out.curve.push_back({bucket * size - run.info.startEpochNs, w / 1e6});
    out.source = "telemetry: " + std::string(kPowerMetric) + " of " + std::to_string(out.gpus) + " GPUs, summed per " + bucketText(size) +
                 " bucket (each GPU's mean)";
    return true;
}

// The model's curve: the job's state changes (downtimes, checkpoint saves and loads), each a
// ramp of rampTime from one level to the next.
void modelCurve(const Run& run, const PowerModel& model, ClusterPower& out) {
    const auto gpus = static_cast<double>(run.topology.gpus.size());
    out.gpus = static_cast<std::int32_t>(run.topology.gpus.size());
    // Level changes: +1 / -1 counters of "down" and "stalled" stretches.
    std::map<Nanos, std::pair<int, int>> changes;  // time -> (down delta, stalled delta)
    for (const Downtime& d : run.downtimes) {
        changes[d.begin].first += 1;
        changes[d.restarted].first -= 1;
        changes[d.restarted].second += 1;  // loading the checkpoint
        changes[d.end].second -= 1;
    }
    for (const Checkpoint& c : run.checkpoints) {
        changes[c.begin].second += 1;
        changes[c.end].second -= 1;
    }
    auto level = [&](int down, int stalled) {
        const double w = down > 0 ? model.idleWatts : stalled > 0 ? model.checkpointWatts : model.trainingWatts;
        return gpus * w / 1e6;
    };
    int down = 0, stalled = 0;
    double mw = level(0, 0);
    out.curve.push_back({0, mw});
    for (const auto& [t, delta] : changes) {
        down += delta.first;
        stalled += delta.second;
        const double next = level(down, stalled);
        if (next == mw) continue;
        if (t > out.curve.back().time) out.curve.push_back({t, mw});
        out.curve.push_back({t + model.rampTime, next});
        mw = next;
    }
    if (run.info.duration > out.curve.back().time) out.curve.push_back({run.info.duration, mw});
    char text[200];
    std::snprintf(text, sizeof text, "model: %d GPUs at %.0f W training, %.0f W during checkpoints and restarts, %.0f W while the job is down (docs/power.md)",
                  out.gpus, model.trainingWatts, model.checkpointWatts, model.idleWatts);
    out.source = text;
}

void addMarks(const Run& run, ClusterPower& out) {
    for (const Failure& f : run.failures) out.marks.push_back({f.time, "failure", std::string(rootCauseLabel(f.cause))});
    for (const Downtime& d : run.downtimes) out.marks.push_back({d.restarted, "restart", d.planned ? "planned restart" : "restart after failure"});
    for (const Checkpoint& c : run.checkpoints)
        out.marks.push_back({c.begin, "checkpoint", c.kind == CheckpointKind::Save ? "checkpoint save" : "checkpoint load"});
    std::stable_sort(out.marks.begin(), out.marks.end(), [](const PowerMark& a, const PowerMark& b) { return a.time < b.time; });
}

}  // namespace

ClusterPower clusterPower(const Run& run, const PowerModel& model, std::size_t swings) {
    ClusterPower out;
    std::string whyNot;
    if (!telemetryCurve(run, out, whyNot)) {
        modelCurve(run, model, out);
        out.source += whyNot;
    }
    addMarks(run, out);
    // Figures over the curve: a bucket's sum holds until the next (the model's points are
    // its corners, so the same rule integrates it exactly up to the ramps).
    double energy = 0;
    for (std::size_t i = 0; i < out.curve.size(); ++i) {
        out.peakMegawatts = std::max(out.peakMegawatts, out.curve[i].megawatts);
        if (i + 1 < out.curve.size()) {
            const double hours = toSeconds(out.curve[i + 1].time - out.curve[i].time) / 3600.0;
            energy += (out.curve[i].megawatts + (out.fromTelemetry ? out.curve[i].megawatts : out.curve[i + 1].megawatts)) / 2 * hours;
        }
    }
    out.energyMegawattHours = energy;
    const Nanos span = out.curve.size() > 1 ? out.curve.back().time - out.curve.front().time : 0;
    out.meanMegawatts = span > 0 ? energy / (toSeconds(span) / 3600.0) : (out.curve.empty() ? 0 : out.curve.front().megawatts);

    std::vector<PowerSwing> all;
    for (std::size_t i = 0; i + 1 < out.curve.size(); ++i) {
        const PowerPoint& a = out.curve[i];
        const PowerPoint& b = out.curve[i + 1];
        if (b.megawatts == a.megawatts || b.time <= a.time) continue;
        all.push_back({a.time, a.megawatts, b.megawatts, (b.megawatts - a.megawatts) / toSeconds(b.time - a.time), ""});
    }
    std::stable_sort(all.begin(), all.end(), [](const PowerSwing& a, const PowerSwing& b) { return std::abs(a.megawattsPerSecond) > std::abs(b.megawattsPerSecond); });
    if (all.size() > swings) all.resize(swings);
    // The mark that explains a swing: the latest at or before its start (within a bucket or a ramp).
    for (PowerSwing& s : all) {
        const Nanos slack = out.curve.size() > 1 && out.fromTelemetry ? out.curve[1].time - out.curve[0].time : model.rampTime;
        for (const PowerMark& m : out.marks)
            if (m.time <= s.time + slack && m.time >= s.time - slack) s.cause = m.label;
    }
    out.largestSwings = std::move(all);
    return out;
}

}  // namespace faultline
