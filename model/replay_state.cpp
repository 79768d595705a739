#include "replay_state.h"

#include "format.h"
#include "host_jobs.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace faultline {

namespace {

constexpr Nanos kNever = std::numeric_limits<Nanos>::max();
// Enough buckets that one holds only the few intervals around its instant, few enough that
// an interval of a day lands in a few dozen of them.
constexpr Nanos kTargetBuckets = 4096;

std::uint8_t slowdownPercent(double slowdown) {
    const double percent = std::round((slowdown - 1.0) * 100.0);
    return static_cast<std::uint8_t>(std::clamp(percent, 1.0, 255.0));
}

// Hardware a failure names is swapped before the job comes back; a switch, cable or software
// failure leaves the GPUs it cut off as they were.
bool replacesGpus(const Failure& f) {
    return f.component.kind == ComponentKind::Gpu || f.component.kind == ComponentKind::Host;
}

std::string componentName(const Run& run, const ComponentRef& c) {
    const Topology& t = run.topology;
    switch (c.kind) {
        case ComponentKind::Gpu: return t.gpuName(c.index);
        case ComponentKind::Host: return "host " + t.hosts.at(static_cast<std::size_t>(c.index)).name;
        case ComponentKind::Nic: return t.nicName(c.index);
        case ComponentKind::Switch: return t.switches.at(static_cast<std::size_t>(c.index)).name;
        case ComponentKind::Link: return t.linkName(c.index);
        case ComponentKind::None: break;
    }
    return {};
}

std::optional<Nanos> firstAfter(const std::vector<Nanos>& sorted, Nanos t) {
    auto it = std::upper_bound(sorted.begin(), sorted.end(), t);
    if (it == sorted.end()) return std::nullopt;
    return *it;
}

std::optional<Nanos> lastBefore(const std::vector<Nanos>& sorted, Nanos t) {
    auto it = std::lower_bound(sorted.begin(), sorted.end(), t);
    if (it == sorted.begin()) return std::nullopt;
    return *std::prev(it);
}

}  // namespace

const char* gpuStateName(GpuState state) {
    switch (state) {
        case GpuState::Training: return "training";
        case GpuState::Straggling: return "straggling";
        case GpuState::Checkpointing: return "checkpointing";
        case GpuState::Down: return "down";
        case GpuState::Failed: return "failed";
        case GpuState::NoData: return "no data";
    }
    return "?";
}

const char* jobPhaseName(JobPhase phase) {
    switch (phase) {
        case JobPhase::Training: return "training";
        case JobPhase::SavingCheckpoint: return "saving checkpoint";
        case JobPhase::Stopped: return "stopped";
        case JobPhase::Restarting: return "restarting";
        case JobPhase::LoadingCheckpoint: return "loading checkpoint";
    }
    return "?";
}

ReplayIndex::ReplayIndex(const Run& run)
    : m_run(run), m_replacedAt(run.topology.gpus.size(), kNever), m_untraced(run.topology.gpus.size(), false) {
    for (std::int32_t gpu : run.untracedGpus)
        if (gpu >= 0 && static_cast<std::size_t>(gpu) < m_untraced.size()) m_untraced[static_cast<std::size_t>(gpu)] = true;
    const Nanos duration = std::max<Nanos>(run.info.duration, 1);
    m_bucketWidth = std::max<Nanos>(1, (duration + kTargetBuckets - 1) / kTargetBuckets);
    m_buckets.resize(static_cast<std::size_t>(duration / m_bucketWidth + 1));

    // A failed GPU stays failed until the relaunched job is up without it; one whose failure
    // no downtime answers stays failed until the scheduler next gives its host a job (another
    // job of a fleet it ended), else to the end (an imported run cut short).
    std::vector<Nanos> failedUntil(run.failures.size(), run.info.duration);
    std::vector<char> answered(run.failures.size(), 0);
    for (const Downtime& d : run.downtimes)
        if (d.failure >= 0 && static_cast<std::size_t>(d.failure) < run.failures.size()) {
            failedUntil[static_cast<std::size_t>(d.failure)] = d.restarted;
            answered[static_cast<std::size_t>(d.failure)] = 1;
        }
    if (!run.jobs.empty()) {
        const HostJobs hostJobs(run);
        for (std::size_t i = 0; i < run.failures.size(); ++i) {
            const Failure& f = run.failures[i];
            if (answered[i] || f.jobs.empty() || f.gpus.empty()) continue;
            const std::int32_t host = run.topology.gpus.at(static_cast<std::size_t>(f.gpus.front())).host;
            for (std::int32_t j : hostJobs.jobsOfHost(host))
                if (const Nanos start = *run.jobs[static_cast<std::size_t>(j)].start; start > f.time) {
                    failedUntil[i] = std::min(failedUntil[i], start);
                    break;
                }
        }
    }
    const auto gpuCount = static_cast<std::int32_t>(m_replacedAt.size());
    for (std::size_t i = 0; i < run.failures.size(); ++i) {
        const Failure& f = run.failures[i];
        for (std::int32_t gpu : f.gpus) {
            if (gpu < 0 || gpu >= gpuCount) continue;
            // A failure nothing answers before the run's end is still failed at its last
            // instant (a crash on a log's last line is drawn red there), and nothing says its
            // GPU was replaced.
            const bool toTheEnd = failedUntil[i] >= run.info.duration;
            fileInterval({f.time, toTheEnd ? std::max(failedUntil[i], f.time) + 1 : failedUntil[i], gpu, 0, true});
            if (replacesGpus(f) && !toTheEnd) {
                Nanos& at = m_replacedAt[static_cast<std::size_t>(gpu)];
                at = std::min(at, failedUntil[i]);
            }
        }
        m_events.push_back(f.time);
        m_failuresByTime.push_back(static_cast<std::int32_t>(i));
    }
    std::sort(m_failuresByTime.begin(), m_failuresByTime.end(), [&run](std::int32_t a, std::int32_t b) {
        return run.failures[static_cast<std::size_t>(a)].time < run.failures[static_cast<std::size_t>(b)].time;
    });
    for (const StragglerEpisode& s : run.stragglers) {
        if (s.gpu < 0 || s.gpu >= gpuCount) continue;
        fileInterval({s.begin, s.end, s.gpu, slowdownPercent(s.slowdown), false});
        m_events.insert(m_events.end(), {s.begin, s.end});
    }
    for (const Downtime& d : run.downtimes) {
        m_events.insert(m_events.end(), {d.begin, d.detected, d.restarted, d.end});
        m_incidents.push_back(d.begin);
    }
    m_checkpoints = run.checkpoints;
    std::sort(m_checkpoints.begin(), m_checkpoints.end(),
              [](const Checkpoint& a, const Checkpoint& b) { return a.begin < b.begin; });
    for (const Checkpoint& c : m_checkpoints) m_events.insert(m_events.end(), {c.begin, c.end});
    std::sort(m_events.begin(), m_events.end());
    m_events.erase(std::unique(m_events.begin(), m_events.end()), m_events.end());
    std::sort(m_incidents.begin(), m_incidents.end());
}

std::size_t ReplayIndex::bucketOf(Nanos t) const {
    const Nanos b = std::clamp<Nanos>(t / m_bucketWidth, 0, static_cast<Nanos>(m_buckets.size()) - 1);
    return static_cast<std::size_t>(b);
}

void ReplayIndex::fileInterval(const GpuInterval& interval) {
    if (interval.end <= interval.begin) return;
    const std::size_t last = bucketOf(interval.end - 1);
    for (std::size_t b = bucketOf(interval.begin); b <= last; ++b) m_buckets[b].push_back(interval);
}

JobStatus ReplayIndex::jobAt(Nanos t) const {
    JobStatus s;
    auto step = std::upper_bound(m_run.steps.begin(), m_run.steps.end(), t,
                                 [](Nanos time, const Step& st) { return time < st.time; });
    if (step != m_run.steps.begin()) s.step = std::prev(step)->step;

    // Downtimes do not overlap and are in time order: the last one begun by t is the only
    // candidate.
    auto down = std::upper_bound(m_run.downtimes.begin(), m_run.downtimes.end(), t,
                                 [](Nanos time, const Downtime& d) { return time < d.begin; });
    if (down != m_run.downtimes.begin() && t < std::prev(down)->end) {
        const Downtime& d = *std::prev(down);
        s.downtime = static_cast<std::int32_t>(std::distance(m_run.downtimes.begin(), std::prev(down)));
        s.failure = d.failure;
        s.sinceDown = t - d.begin;
        s.phase = t < d.detected ? JobPhase::Stopped : t < d.restarted ? JobPhase::Restarting : JobPhase::LoadingCheckpoint;
        return s;
    }
    auto cp = std::upper_bound(m_checkpoints.begin(), m_checkpoints.end(), t,
                               [](Nanos time, const Checkpoint& c) { return time < c.begin; });
    if (cp != m_checkpoints.begin() && t < std::prev(cp)->end && std::prev(cp)->kind == CheckpointKind::Save)
        s.phase = JobPhase::SavingCheckpoint;
    return s;
}

void ReplayIndex::statesAt(Nanos t, std::span<GpuVisual> out) const {
    const JobStatus job = jobAt(t);
    GpuState base = GpuState::Training;
    if (job.phase == JobPhase::SavingCheckpoint || job.phase == JobPhase::LoadingCheckpoint) base = GpuState::Checkpointing;
    else if (job.phase != JobPhase::Training) base = GpuState::Down;

    const std::size_t n = std::min(out.size(), m_replacedAt.size());
    for (std::size_t g = 0; g < n; ++g) out[g] = {base, 0, m_replacedAt[g] <= t, 0};
    // While the job trains, an untraced GPU's pace is unknown; the job's downtimes and
    // checkpoints are the whole job's and hold for it too.
    if (base == GpuState::Training)
        for (std::size_t g = 0; g < n; ++g)
            if (m_untraced[g]) out[g].state = GpuState::NoData;

    // Failed wins over everything; a straggler shows only while the job trains.
    for (const GpuInterval& i : m_buckets[bucketOf(t)]) {
        if (t < i.begin || t >= i.end || static_cast<std::size_t>(i.gpu) >= n) continue;
        GpuVisual& v = out[static_cast<std::size_t>(i.gpu)];
        if (i.failed) {
            v.state = GpuState::Failed;
            v.slowdownPercent = 0;
        } else if (v.state == GpuState::Training || v.state == GpuState::Straggling || v.state == GpuState::NoData) {
            v.state = GpuState::Straggling;
            v.slowdownPercent = std::max(v.slowdownPercent, i.slowdownPercent);
        }
    }
}

std::vector<GpuVisual> ReplayIndex::statesAt(Nanos t) const {
    std::vector<GpuVisual> out(m_replacedAt.size());
    statesAt(t, out);
    return out;
}

std::optional<Nanos> ReplayIndex::stepTime(std::int64_t step) const {
    for (const Step& s : m_run.steps)  // steps repeat after restarts; callers ask rarely
        if (s.step == step) return s.time;
    return std::nullopt;
}

std::optional<Nanos> ReplayIndex::nextStep(Nanos t) const {
    auto it = std::upper_bound(m_run.steps.begin(), m_run.steps.end(), t,
                               [](Nanos time, const Step& st) { return time < st.time; });
    if (it == m_run.steps.end()) return std::nullopt;
    return it->time;
}

std::optional<Nanos> ReplayIndex::previousStep(Nanos t) const {
    auto it = std::lower_bound(m_run.steps.begin(), m_run.steps.end(), t,
                               [](const Step& st, Nanos time) { return st.time < time; });
    if (it == m_run.steps.begin()) return std::nullopt;
    return std::prev(it)->time;
}

std::optional<Nanos> ReplayIndex::nextEvent(Nanos t) const { return firstAfter(m_events, t); }
std::optional<Nanos> ReplayIndex::previousEvent(Nanos t) const { return lastBefore(m_events, t); }
std::optional<Nanos> ReplayIndex::nextIncident(Nanos t) const { return firstAfter(m_incidents, t); }
std::optional<Nanos> ReplayIndex::previousIncident(Nanos t) const { return lastBefore(m_incidents, t); }

std::vector<std::int32_t> ReplayIndex::failuresBetween(Nanos from, Nanos to) const {
    auto timeOf = [this](std::int32_t f) { return m_run.failures[static_cast<std::size_t>(f)].time; };
    auto first = std::upper_bound(m_failuresByTime.begin(), m_failuresByTime.end(), from,
                                  [&](Nanos time, std::int32_t f) { return time < timeOf(f); });
    std::vector<std::int32_t> out;
    for (auto it = first; it != m_failuresByTime.end() && timeOf(*it) <= to; ++it) out.push_back(*it);
    return out;
}

std::string describeJob(const Run& run, const JobStatus& status) {
    const std::string step = "step " + formatCount(status.step);
    if (status.phase == JobPhase::Training) return "training, " + step;
    if (status.phase == JobPhase::SavingCheckpoint) return "saving checkpoint, " + step;

    std::string why = "planned maintenance";
    if (status.failure >= 0 && static_cast<std::size_t>(status.failure) < run.failures.size()) {
        const Failure& f = run.failures[static_cast<std::size_t>(status.failure)];
        why = std::string(rootCauseLabel(f.cause));
        if (const std::string where = componentName(run, f.component); !where.empty()) why += " on " + where;
    }
    std::string what;
    switch (status.phase) {
        case JobPhase::Stopped: what = "stopped by " + why; break;
        case JobPhase::Restarting: what = "restart after " + why; break;
        default: what = "loading checkpoint (" + step + ") after " + why; break;
    }
    // At the instant it went down there is no "for how long" to tell yet.
    return "down: " + what + (status.sinceDown >= kSecond ? ", " + formatDuration(status.sinceDown) : "");
}

}  // namespace faultline
