#include "run_validity.h"

#include "parallel.h"

#include <algorithm>
#include <limits>

namespace faultline {

std::string RunViolation::text() const { return table + (row >= 0 ? " row " + std::to_string(row) : std::string()) + ": " + what; }

namespace {

using Found = std::optional<RunViolation>;

Found violation(std::string table, std::size_t row, std::string what) { return RunViolation{std::move(table), static_cast<std::int64_t>(row), std::move(what)}; }

bool inRun(Nanos t) { return t >= -kLongestRun && t <= 2 * kLongestRun; }

// The first row of `rows` that breaks the rule, or rows.size(): looked for on every core, a
// block of rows at a time (a run's collectives are tens of millions).
template <typename Rows, typename Breaks>
std::size_t firstBreaking(const Rows& rows, const Breaks& breaks) {
    std::vector<std::size_t> first(rowBlocks(rows.size()), rows.size());
    forEachRowBlock(rows.size(), [&](std::size_t b, std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i)
            if (breaks(rows[i])) {
                first[b] = i;
                return;
            }
    });
    return first.empty() ? rows.size() : *std::min_element(first.begin(), first.end());
}

// Every rank a hang names is one of the run's, and every origin is one of its findings.
template <typename NotARank>
Found checkHang(const HangReport& hang, const NotARank& notARank, std::size_t ranks) {
    auto badRank = [&](const std::vector<std::int32_t>& list) -> std::optional<std::int32_t> {
        for (std::int32_t r : list)
            if (r < 0 || static_cast<std::size_t>(r) >= ranks) return r;
        return std::nullopt;
    };
    if (auto r = badRank(hang.culprits)) return violation("hangs", 0, notARank(*r));
    if (auto r = badRank(hang.ranksWithoutDump)) return violation("hangs", 0, notARank(*r));
    for (std::size_t i = 0; i < hang.findings.size(); ++i) {
        const HangFinding& f = hang.findings[i];
        for (const auto* list : {&f.groupRanks, &f.missing, &f.stuck})
            if (auto r = badRank(*list)) return violation("hang_findings", i, notARank(*r));
    }
    for (std::size_t i = 0; i < hang.origins.size(); ++i) {
        const HangOrigin& o = hang.origins[i];
        if (o.finding >= hang.findings.size()) return violation("hang_origins", i, "finding " + std::to_string(o.finding) + " does not exist");
        for (const auto* list : {&o.culprits, &o.waiting})
            if (auto r = badRank(*list)) return violation("hang_origins", i, notARank(*r));
    }
    return std::nullopt;
}

// Times must be ones a run can hold, or the figures computed from them would overflow or
// make no sense ("mean save 401 d").
Found checkTimes(const Run& run) {
    const RunInfo& info = run.info;
    if (info.duration < 0) return RunViolation{"meta", -1, "the run's duration is negative (" + std::to_string(info.duration) + " ns)"};
    if (info.duration > kLongestRun)
        return RunViolation{"meta", -1, "the run's duration (" + std::to_string(info.duration / (365 * 24 * 3600 * kSecond)) + " years, " +
                                            std::to_string(info.duration) + " ns) is longer than ten years"};
    if (info.startEpochNs < 0) return RunViolation{"meta", -1, "the run starts before 1970"};
    if (info.startEpochNs > std::numeric_limits<std::int64_t>::max() - 2 * kLongestRun)
        return RunViolation{"meta", -1, "the run starts after 2242, too close to 2262, the last year a run can hold"};
    for (std::size_t i = 0; i < run.failures.size(); ++i)
        if (!inRun(run.failures[i].time)) return violation("failures", i, "the failure lies years outside the run");
    for (std::size_t i = 0; i < run.downtimes.size(); ++i) {
        const Downtime& d = run.downtimes[i];
        if (!inRun(d.begin) || !inRun(d.end) || d.lostWork < 0 || d.lostWork > kLongestRun)
            return violation("downtimes", i, "the downtime has times outside the run or negative lost work");
    }
    for (std::size_t i = 0; i < run.checkpoints.size(); ++i) {
        const Checkpoint& c = run.checkpoints[i];
        if (!inRun(c.begin) || !inRun(c.end) || c.end < c.begin) return violation("checkpoints", i, "the checkpoint ends before it begins or lies outside the run");
    }
    for (std::size_t i = 0; i < run.steps.size(); ++i) {
        const Step& s = run.steps[i];
        if (!inRun(s.time) || s.duration < 0 || s.duration > kLongestRun)
            return violation("steps", i, "step " + std::to_string(s.step) + " has a negative or absurd time");
    }
    for (std::size_t i = 0; i < run.rankSteps.size(); ++i) {
        const RankStep& s = run.rankSteps[i];
        if (!inRun(s.time) || s.duration < 0 || s.duration > kLongestRun)
            return violation("rank_steps", i, "rank " + std::to_string(s.rank) + "'s step " + std::to_string(s.step) + " has a negative or absurd time");
    }
    for (std::size_t i = 0; i < run.stragglers.size(); ++i) {
        const StragglerEpisode& e = run.stragglers[i];
        if (!inRun(e.begin) || !inRun(e.end) || e.end < e.begin) return violation("stragglers", i, "the episode ends before it begins or lies outside the run");
    }
    if (const std::size_t i = firstBreaking(run.collectives, [](const CollectiveRecord& c) { return !inRun(c.enter) || !inRun(c.exit) || c.exit < c.enter; });
        i < run.collectives.size())
        return violation("collectives", i, "the collective ends before it begins or lies outside the run");
    return std::nullopt;
}

std::size_t componentCount(const Topology& t, ComponentKind kind) {
    switch (kind) {
        case ComponentKind::Gpu: return t.gpus.size();
        case ComponentKind::Host: return t.hosts.size();
        case ComponentKind::Nic: return t.nics.size();
        case ComponentKind::Switch: return t.switches.size();
        case ComponentKind::Link: return t.links.size();
        case ComponentKind::None: break;
    }
    return 0;
}

const char* componentName(ComponentKind kind) {
    switch (kind) {
        case ComponentKind::Gpu: return "GPU";
        case ComponentKind::Host: return "host";
        case ComponentKind::Nic: return "NIC";
        case ComponentKind::Switch: return "switch";
        case ComponentKind::Link: return "link";
        case ComponentKind::None: break;
    }
    return "component";
}

// References between tables must hold, or views would index out of range (or size arrays by
// a rank of two billion) later.
Found checkReferences(const Run& run) {
    const Topology& t = run.topology;
    auto inRange = [](std::int64_t i, std::size_t n) { return i >= 0 && static_cast<std::uint64_t>(i) < n; };
    auto noGpu = [&](std::int32_t g) { return "names GPU " + std::to_string(g) + ", which does not exist (the run has " + std::to_string(t.gpus.size()) + " GPUs)"; };
    for (std::size_t i = 0; i < run.failures.size(); ++i) {
        const Failure& f = run.failures[i];
        if (f.component.kind != ComponentKind::None && !inRange(f.component.index, componentCount(t, f.component.kind)))
            return violation("failures", i, "component_index " + std::to_string(f.component.index) + " names a " + componentName(f.component.kind) +
                                                ", which does not exist (the run has " + std::to_string(componentCount(t, f.component.kind)) + " of them)");
        for (std::int32_t g : f.gpus)
            if (!inRange(g, t.gpus.size())) return violation("failures", i, "the failure " + noGpu(g));
        for (std::int32_t j : f.jobs)
            if (!inRange(j, run.jobs.size())) return violation("failures", i, "job " + std::to_string(j) + " does not exist");
    }
    for (std::size_t i = 0; i < run.downtimes.size(); ++i) {
        const Downtime& d = run.downtimes[i];
        if (d.failure >= static_cast<std::int64_t>(run.failures.size()) || d.failure < -1)
            return violation("downtimes", i, "failure " + std::to_string(d.failure) + " does not exist");
        if (d.job >= static_cast<std::int64_t>(run.jobs.size()) || d.job < -1) return violation("downtimes", i, "job " + std::to_string(d.job) + " does not exist");
        if (!(d.begin <= d.detected && d.detected <= d.restarted && d.restarted <= d.end)) return violation("downtimes", i, "the downtime has its phases out of order");
    }
    for (std::size_t i = 0; i < run.jobs.size(); ++i) {
        const Job& j = run.jobs[i];
        if (j.parent >= static_cast<std::int64_t>(i) || j.parent < -1) return violation("jobs", i, "job " + j.id + " names a parent job that does not exist");
        for (std::int32_t h : j.hosts)
            if (!inRange(h, t.hosts.size())) return violation("jobs", i, "job " + j.id + " names host " + std::to_string(h) + ", which does not exist");
    }
    for (std::size_t i = 0; i < run.stragglers.size(); ++i)
        if (!inRange(run.stragglers[i].gpu, t.gpus.size())) return violation("stragglers", i, "the episode " + noGpu(run.stragglers[i].gpu));
    for (std::size_t r = 0; r < run.rankToGpu.size(); ++r)
        if (!inRange(run.rankToGpu[r], t.gpus.size())) return violation("rank_map", r, "rank " + std::to_string(r) + " " + noGpu(run.rankToGpu[r]));
    for (std::int32_t gpu : run.untracedGpus)
        if (!inRange(gpu, t.gpus.size())) return RunViolation{"meta", -1, "untraced_gpus " + noGpu(gpu)};
    // A rank runs on one GPU: no run has more ranks than it has GPUs or rank map entries.
    const std::size_t ranks = std::max(run.rankToGpu.size(), t.gpus.size());
    auto notARank = [&](std::int64_t r) {
        return "rank " + std::to_string(r) + " is not one of the run's ranks (0 to " + std::to_string(static_cast<std::int64_t>(ranks) - 1) + ")";
    };
    // The ranks that reported a failure and those it suspects are shown and counted by every
    // reader: -1 or two billion would be printed as a suspect.
    for (std::size_t i = 0; i < run.failures.size(); ++i) {
        for (std::int32_t r : run.failures[i].ranks)
            if (!inRange(r, ranks)) return violation("failures", i, "ranks: " + notARank(r));
        for (std::int32_t r : run.failures[i].suspectRanks)
            if (!inRange(r, ranks)) return violation("failures", i, "suspect_ranks: " + notARank(r));
    }
    for (std::size_t i = 0; i < run.processGroups.size(); ++i)
        for (std::int32_t r : run.processGroups[i].ranks)
            if (!inRange(r, ranks)) return violation("process_groups", i, notARank(r));
    if (const std::size_t i = firstBreaking(run.collectives, [&](const CollectiveRecord& c) {
            return !inRange(c.rank, ranks) || !inRange(c.group, run.processGroups.size()) || !inRange(c.op, run.collectiveOps.size());
        });
        i < run.collectives.size()) {
        const CollectiveRecord& c = run.collectives[i];
        if (!inRange(c.rank, ranks)) return violation("collectives", i, notARank(c.rank));
        if (!inRange(c.group, run.processGroups.size())) return violation("collectives", i, "process group " + std::to_string(c.group) + " does not exist");
        return violation("collectives", i, "op " + std::to_string(c.op) + " does not exist");
    }
    for (std::size_t i = 0; i < run.rankSteps.size(); ++i)
        if (run.rankSteps[i].rank < 0) return violation("rank_steps", i, notARank(run.rankSteps[i].rank));
    if (run.hang) return checkHang(*run.hang, notARank, ranks);
    return std::nullopt;
}

// Telemetry: every series names a metric and GPU of the run, its arrays agree in length, its
// times are ones the run can hold and its buckets run forward.
std::optional<std::string> badSeries(std::int32_t metric, std::int32_t gpu, const TelemetryBounds& bounds) {
    if (metric < 0 || static_cast<std::size_t>(metric) >= bounds.metrics) return "metric " + std::to_string(metric) + " does not exist";
    if (gpu < 0 || static_cast<std::size_t>(gpu) >= bounds.gpus) return "GPU " + std::to_string(gpu) + " does not exist";
    return std::nullopt;
}

Found checkTelemetry(const Run& run) {
    const Telemetry& tm = run.telemetry;
    const TelemetryBounds bounds{tm.metrics.size(), run.topology.gpus.size(), run.info.startEpochNs, tm.levels.size()};
    if (Found v = findTelemetryRawViolation(tm.raw, bounds)) return v;
    std::size_t row = 0;
    for (std::size_t l = 0; l < tm.levels.size(); ++l) {
        const TelemetryLevel& level = tm.levels[l];
        if (level.bucket <= 0 || level.bucket > kLongestRun) return violation("telemetry_levels", l, "a bucket of " + std::to_string(level.bucket) + " ns");
        if (Found v = findTelemetryLevelViolation(level, bounds, row)) return v;
        row += level.series.size();
    }
    return std::nullopt;
}

}  // namespace

std::optional<RunViolation> findTelemetryRawViolation(const std::vector<TelemetryRawSeries>& raw, const TelemetryBounds& bounds) {
    for (std::size_t i = 0; i < raw.size(); ++i) {
        const TelemetryRawSeries& r = raw[i];
        if (auto bad = badSeries(r.metric, r.gpu, bounds)) return violation("telemetry_raw", i, *bad);
        if (r.times.size() != r.values.size()) return violation("telemetry_raw", i, "the series has " + std::to_string(r.times.size()) + " times but " + std::to_string(r.values.size()) + " samples");
        if (r.levelsFrom < 0 || static_cast<std::size_t>(r.levelsFrom) > bounds.levels)
            return violation("telemetry_raw", i, "levels_from " + std::to_string(r.levelsFrom) + " is not one of the levels (0 to " + std::to_string(bounds.levels) + ")");
        for (std::size_t k = 0; k < r.times.size(); ++k)
            if (!inRun(r.times[k]) || (k > 0 && r.times[k] < r.times[k - 1])) return violation("telemetry_raw", i, "a sample lies outside the run or out of time order");
    }
    return std::nullopt;
}

std::optional<RunViolation> findTelemetryLevelViolation(const TelemetryLevel& level, const TelemetryBounds& bounds, std::size_t firstRow) {
    if (level.bucket <= 0 || level.bucket > kLongestRun) return RunViolation{"telemetry_levels", -1, "a bucket of " + std::to_string(level.bucket) + " ns"};
    const std::int64_t limit = std::numeric_limits<std::int64_t>::max() / level.bucket;
    std::size_t row = firstRow;
    for (const TelemetrySummarySeries& s : level.series) {
        if (auto bad = badSeries(s.metric, s.gpu, bounds)) return violation("telemetry_summary", row, *bad);
        const std::size_t n = s.buckets.size();
        if (s.min.size() != n || s.mean.size() != n || s.max.size() != n) return violation("telemetry_summary", row, "the series' arrays differ in length");
        for (std::size_t k = 0; k < n; ++k) {
            const std::int64_t b = s.buckets[k];
            if (b < 0 || b >= limit || !inRun(b * level.bucket - bounds.startEpochNs) || (k > 0 && b <= s.buckets[k - 1]))
                return violation("telemetry_summary", row, "a bucket lies outside the run or out of time order");
        }
        ++row;
    }
    return std::nullopt;
}

std::optional<RunViolation> findRunViolation(const Run& run) {
    if (Found v = checkTimes(run)) return v;
    if (Found v = checkReferences(run)) return v;
    return checkTelemetry(run);
}

}  // namespace faultline
