#include "what_if.h"

#include "model/error.h"
#include "model/format.h"
#include "recovery.h"

#include <algorithm>
#include <cmath>

namespace faultline {

namespace {

// One interruption of the original run as the replay meets it: when it struck and what the
// original recovery took, phase by phase.
struct Incident {
    Nanos time = 0;
    bool planned = false;
    RootCause cause = RootCause::Unknown;
    std::int32_t failure = -1;
    std::int32_t job = -1;
    Nanos detection = 0, restart = 0, reload = 0;
};

// Steps take what the run's own steps took at the same moment (the time of day, the
// stragglers of the hour); after the run's last step, what its last step took.
class StepClock {
public:
    explicit StepClock(const Run& run) : m_steps(run.steps) {}
    bool known() const { return !m_steps.empty(); }
    Nanos stepAt(Nanos t) const {
        const auto it = std::lower_bound(m_steps.begin(), m_steps.end(), t, [](const Step& s, Nanos x) { return s.time < x; });
        return std::max<Nanos>(1, (it == m_steps.end() ? m_steps.back() : *it).duration);
    }

private:
    const std::vector<Step>& m_steps;
};

class Replay {
public:
    Replay(const Run& source, const RecoveryPolicy& policy, Nanos save)
        : m_source(source), m_policy(policy), m_save(save), m_clock(source) {}

    Run run(std::vector<Incident> incidents);

private:
    void trainUntil(Nanos stop);
    void interrupt(const Incident& what, std::vector<Incident>& pending);

    const Run& m_source;
    const RecoveryPolicy& m_policy;
    Nanos m_save;
    StepClock m_clock;  // without steps, training is replayed as time alone
    Run m_run;
    Nanos m_now = 0;
    Nanos m_durableSince = 0;
    Nanos m_sinceSave = 0;
    std::int64_t m_step = 0;
    std::int64_t m_durableStep = 0;
    std::int64_t m_checkpointBytes = 0;
};

void Replay::trainUntil(Nanos stop) {
    while (m_now < stop) {
        if (m_sinceSave >= m_policy.checkpointInterval) {
            if (m_now + m_save > stop) return;  // a save cut short is not durable
            m_run.checkpoints.push_back({m_now, m_now + m_save, m_step, m_checkpointBytes, CheckpointKind::Save});
            m_now += m_save;
            m_durableSince = m_now;
            m_durableStep = m_step;
            m_sinceSave = 0;
            continue;
        }
        if (!m_clock.known()) {
            // No steps: train in one stretch up to the next save or the stop.
            const Nanos until = std::min(stop, m_now + (m_policy.checkpointInterval - m_sinceSave));
            m_sinceSave += until - m_now;
            m_now = until;
            continue;
        }
        const Nanos d = m_clock.stepAt(m_now);
        if (m_now + d > stop) {
            // The step in flight is cut: its time counts towards lost work, not a step.
            m_sinceSave += stop - m_now;
            m_now = stop;
            return;
        }
        m_now += d;
        m_sinceSave += d;
        m_run.steps.push_back({m_now, ++m_step, d});
    }
}

void Replay::interrupt(const Incident& what, std::vector<Incident>& pending) {
    Downtime d;
    d.planned = what.planned;
    d.cause = what.cause;
    d.failure = what.failure;
    d.job = what.job;
    Nanos begin = std::max(m_now, what.time);
    if (what.planned) {
        // A planned stop saves first, so it loses no work; maintenance lasts what it lasted.
        m_run.checkpoints.push_back({begin, begin + m_save, m_step, m_checkpointBytes, CheckpointKind::Save});
        begin += m_save;
        m_durableStep = m_step;
        d.begin = d.detected = begin;
        d.restarted = begin + what.restart;
        d.end = d.restarted + what.reload;
    } else {
        d.begin = begin;
        d.lostWork = begin - m_durableSince;
        d.detected = begin + m_policy.detection.value_or(what.detection);
        d.restarted = d.detected + m_policy.restart.value_or(what.restart);
        d.end = d.restarted + m_policy.reload.value_or(what.reload);
    }
    if (settleRecovery(d, pending)) m_run.checkpoints.push_back({d.restarted, d.end, m_durableStep, m_checkpointBytes, CheckpointKind::Load});
    m_run.downtimes.push_back(d);
    m_step = m_durableStep;
    m_now = d.end;
    m_durableSince = d.end;
    m_sinceSave = 0;
}

Run Replay::run(std::vector<Incident> pending) {
    m_run.info = m_source.info;
    m_run.info.name = m_source.info.name + " (what if: " + describePolicy(m_policy) + ")";
    m_run.info.source = "what-if of \"" + m_source.info.name + "\": " + describePolicy(m_policy);
    m_run.topology = m_source.topology;
    m_run.failures = m_source.failures;
    m_run.jobs = m_source.jobs;
    m_run.stragglers = m_source.stragglers;
    m_run.rankToGpu = m_source.rankToGpu;
    for (const Checkpoint& c : m_source.checkpoints) m_checkpointBytes = std::max(m_checkpointBytes, c.bytes);
    m_run.steps.reserve(m_source.steps.size() + 16);

    const Nanos duration = m_source.info.duration;
    while (true) {
        const Nanos stop = pending.empty() ? duration : std::min(duration, pending.front().time);
        trainUntil(stop);
        if (pending.empty() || pending.front().time >= duration) break;
        const Incident next = pending.front();
        pending.erase(pending.begin());
        interrupt(next, pending);
        if (m_now >= duration) break;
    }
    return std::move(m_run);
}

}  // namespace

std::string describePolicy(const RecoveryPolicy& p) {
    std::string out = "checkpoint every " + formatDuration(p.checkpointInterval);
    if (p.saveTime) out += ", save " + formatDuration(*p.saveTime);
    if (p.detection) out += ", detection " + formatDuration(*p.detection);
    if (p.restart) out += ", restart " + formatDuration(*p.restart);
    if (p.reload) out += ", reload " + formatDuration(*p.reload);
    return out;
}

Run replayWithPolicy(const Run& run, const RecoveryPolicy& policy) {
    if (policy.checkpointInterval <= 0) throw Error("what-if: the checkpoint interval must be positive");
    for (const std::optional<Nanos>& v : {policy.saveTime, policy.detection, policy.restart, policy.reload})
        if (v && *v < 0) throw Error("what-if: a recovery time cannot be negative");
    if (run.downtimes.empty())
        throw Error("what-if: run \"" + run.info.name +
                    "\" has no downtimes to replay (its files say neither when the job stopped nor how long it was down)");

    Nanos save = 0;
    int saves = 0;
    for (const Checkpoint& c : run.checkpoints)
        if (c.kind == CheckpointKind::Save) {
            save += c.end - c.begin;
            ++saves;
        }
    if (policy.saveTime) save = *policy.saveTime;
    else if (saves > 0) save /= saves;
    else throw Error("what-if: run \"" + run.info.name + "\" saved no checkpoints, so its save time is unknown: give --save-time");

    std::vector<Incident> incidents;
    incidents.reserve(run.downtimes.size());
    for (const Downtime& d : run.downtimes) {
        Incident i;
        i.planned = d.planned;
        i.cause = d.cause;
        i.failure = d.failure;
        i.job = d.job;
        // A failure strikes when its failure record says; without one, when the job stopped.
        i.time = (d.failure >= 0 && static_cast<std::size_t>(d.failure) < run.failures.size()) ? run.failures[static_cast<std::size_t>(d.failure)].time
                                                                                              : d.begin;
        i.detection = std::max<Nanos>(0, d.detected - d.begin);
        i.restart = std::max<Nanos>(0, d.restarted - d.detected);
        i.reload = std::max<Nanos>(0, d.end - d.restarted);
        incidents.push_back(i);
    }
    std::stable_sort(incidents.begin(), incidents.end(), [](const Incident& a, const Incident& b) { return a.time < b.time; });
    return Replay(run, policy, save).run(std::move(incidents));
}

}  // namespace faultline
