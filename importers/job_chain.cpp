#include "importers/job_chain.h"

#include "importers/events/import_report.h"
#include "model/error.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace faultline {

namespace {

bool isStep(const ImportedJob& j) { return !j.parentId.empty(); }

// "123_4" (array task) and "123+1" (heterogeneous part) belong to job 123.
std::string baseId(const std::string& id) { return id.substr(0, id.find_first_of("_+")); }

// Several ranks' stdout name the same job: one record per (id, restart count), from its
// earliest line.
std::vector<ImportedJob> logJobs(const std::vector<ImportedJob>& in) {
    std::map<std::pair<std::string, std::int32_t>, ImportedJob> byRun;
    for (const ImportedJob& j : in) {
        if (!j.fromLog) continue;
        auto [it, fresh] = byRun.try_emplace({j.id, j.restarts}, j);
        ImportedJob& known = it->second;
        if (fresh) continue;
        if (j.firstLogLine > 0 && (known.firstLogLine == 0 || j.firstLogLine < known.firstLogLine)) known.firstLogLine = j.firstLogLine;
        if (known.name.empty()) known.name = j.name;
        if (known.nodes.size() < j.nodes.size()) known.nodes = j.nodes;
        if (known.batchHost.empty()) known.batchHost = j.batchHost;
    }
    std::vector<ImportedJob> out;
    for (auto& [key, j] : byRun) out.push_back(std::move(j));
    return out;
}

// sacct's records with the first sign of life their logs add; jobs only a log names are
// kept as they are (start: their first line). Steps follow their job.
std::vector<ImportedJob> mergeJobs(const std::vector<ImportedJob>& in) {
    std::vector<ImportedJob> jobs, steps;
    // sacct's text and JSON of the same jobs, imported together, describe each job twice.
    std::set<std::tuple<std::string, std::string, EpochNs>> seen;
    for (const ImportedJob& j : in)
        if (!j.fromLog && seen.insert({j.id, j.parentId, j.start}).second) (isStep(j) ? steps : jobs).push_back(j);
    // `sacct --duplicates` lists a requeued job's runs under one id, in order: the n-th run
    // was restart n-1 where the capture has no restart count.
    std::map<std::string, std::vector<ImportedJob*>> runsOf;
    for (ImportedJob& j : jobs) runsOf[j.id].push_back(&j);
    for (auto& [id, runs] : runsOf) {
        std::stable_sort(runs.begin(), runs.end(), [](const ImportedJob* a, const ImportedJob* b) { return a->start < b->start; });
        for (std::size_t n = 0; n < runs.size(); ++n) runs[n]->restarts = std::max(runs[n]->restarts, static_cast<std::int32_t>(n));
    }
    std::map<std::string, std::vector<std::size_t>> recordsOf;  // sacct's runs of each id
    for (std::size_t i = 0; i < jobs.size(); ++i) recordsOf[jobs[i].id].push_back(i);
    for (ImportedJob& log : logJobs(in)) {
        ImportedJob* best = nullptr;
        const auto records = recordsOf.find(log.id);
        for (std::size_t i : records == recordsOf.end() ? std::vector<std::size_t>() : records->second) {
            ImportedJob& j = jobs[i];
            const bool holds = log.firstLogLine > 0 && j.start > 0 && j.start <= log.firstLogLine && (j.end == 0 || log.firstLogLine <= j.end);
            if (holds || (!best && j.restarts == log.restarts)) best = &j;
            if (holds) break;
        }
        if (!best) {
            log.start = log.firstLogLine;
            jobs.push_back(std::move(log));
            continue;
        }
        if (best->firstLogLine == 0 || (log.firstLogLine > 0 && log.firstLogLine < best->firstLogLine)) best->firstLogLine = log.firstLogLine;
        if (best->name.empty()) best->name = log.name;
        if (best->nodes.empty()) best->nodes = log.nodes;
        if (best->batchHost.empty()) best->batchHost = log.batchHost;
    }
    auto key = [](const ImportedJob& j) { return j.start > 0 ? j.start : j.submit; };
    std::stable_sort(jobs.begin(), jobs.end(), [&](const ImportedJob& a, const ImportedJob& b) { return key(a) < key(b); });
    // Each step goes with the last run of its job that started before it: one look-up per step.
    std::map<std::string, std::vector<std::size_t>> runsById;
    for (std::size_t i = 0; i < jobs.size(); ++i) runsById[jobs[i].id].push_back(i);
    std::vector<std::vector<std::size_t>> stepsOf(jobs.size());
    std::vector<std::size_t> orphans;  // steps whose job's own line the capture lacks
    for (std::size_t s = 0; s < steps.size(); ++s) {
        const auto runs = runsById.find(steps[s].parentId);
        if (runs == runsById.end()) {
            orphans.push_back(s);
            continue;
        }
        std::size_t run = runs->second.front();
        for (std::size_t r : runs->second)
            if (jobs[r].start > 0 && jobs[r].start <= steps[s].start) run = r;
        stepsOf[run].push_back(s);
    }
    std::vector<ImportedJob> out;
    out.reserve(jobs.size() + steps.size());
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        out.push_back(std::move(jobs[i]));
        for (std::size_t s : stepsOf[i]) out.push_back(std::move(steps[s]));
    }
    for (std::size_t s : orphans) out.push_back(std::move(steps[s]));
    return out;
}

// Where training made progress, sorted for look-ups by time.
class Progress {
public:
    explicit Progress(const ImportedEvents& e) {
        std::int32_t rank = INT32_MAX;
        for (const auto& s : e.steps) rank = std::min(rank, s.rank);
        for (const auto& s : e.steps)
            if (s.rank == rank) m_steps.push_back({s.end, s.end - s.duration});
        for (const auto& c : e.checkpoints) (c.kind == CheckpointKind::Save ? m_saves : m_loads).push_back({c.end, c.begin});
        for (auto* v : {&m_steps, &m_saves, &m_loads}) std::sort(v->begin(), v->end());
    }
    bool any() const { return !m_steps.empty() || !m_saves.empty() || !m_loads.empty(); }
    // The last step, save or load that ended in [lo, hi].
    std::optional<EpochNs> last(EpochNs lo, EpochNs hi) const {
        std::optional<EpochNs> best;
        for (const auto* v : {&m_steps, &m_saves, &m_loads})
            if (auto t = lastIn(*v, lo, hi)) best = std::max(best.value_or(*t), *t);
        return best;
    }
    std::optional<EpochNs> lastSave(EpochNs lo, EpochNs hi) const { return lastIn(m_saves, lo, hi); }
    // The first step that ended in [lo, hi]: when it began.
    std::optional<EpochNs> firstStepBegin(EpochNs lo, EpochNs hi) const {
        auto it = std::lower_bound(m_steps.begin(), m_steps.end(), std::pair<EpochNs, EpochNs>{lo, INT64_MIN});
        if (it == m_steps.end() || it->first > hi) return std::nullopt;
        return it->second;
    }
    // The first load that began in [lo, hi]: (begin, end).
    std::optional<std::pair<EpochNs, EpochNs>> firstLoad(EpochNs lo, EpochNs hi) const {
        std::optional<std::pair<EpochNs, EpochNs>> best;
        for (const auto& [end, begin] : m_loads)
            if (begin >= lo && begin <= hi && (!best || begin < best->first)) best = {begin, end};
        return best;
    }

private:
    static std::optional<EpochNs> lastIn(const std::vector<std::pair<EpochNs, EpochNs>>& v, EpochNs lo, EpochNs hi) {
        auto it = std::upper_bound(v.begin(), v.end(), std::pair<EpochNs, EpochNs>{hi, INT64_MAX});
        if (it == v.begin() || std::prev(it)->first < lo) return std::nullopt;
        return std::prev(it)->first;
    }
    std::vector<std::pair<EpochNs, EpochNs>> m_steps, m_saves, m_loads;  // (end, begin)
};

std::string jobLabel(const ImportedJob& j) {
    return "job " + j.id + (j.restarts > 0 ? " (restart " + std::to_string(j.restarts) + ")" : "") + (j.name.empty() ? "" : " \"" + j.name + "\"");
}

std::string schedulerWord(const ImportedJob& j) {
    if (j.fromLog) return "no scheduler record of " + jobLabel(j) + " (no sacct output names it): its end is taken from its log";
    std::string s = "Slurm " + jobLabel(j) + " ended " + (j.stateText.empty() ? j.state : j.stateText);
    if (!j.exitCode.empty() && j.exitCode != "0:0") s += ", exit code " + j.exitCode;
    if (!j.reason.empty()) s += ", reason " + j.reason;
    return s + " at " + formatEpochNs(j.end);
}

// How much a symptom says: a hardware fault on one of the job's nodes says most; an error a
// rank printed says less; an NCCL watchdog timeout only says that a collective hung.
int evidenceRank(const ImportedFailure& f) {
    if (f.cause == RootCause::NcclWatchdogTimeout) return 1;
    return f.where.host.empty() && f.hosts.empty() ? 2 : 3;
}

constexpr EpochNs kAfterEnd = 2 * kMinute;  // kernel lines written while the job is torn down
constexpr EpochNs kSameRestart = kMinute;   // launchers' reports of one in-job restart

class ChainBuilder {
public:
    ChainBuilder(const ImportedEvents& e, JobChain& out, std::vector<std::string>& warnings)
        : m_events(e), m_out(out), m_warnings(warnings), m_progress(e) {
        // Symptoms by time, so each job's end looks only at its own window.
        for (std::size_t i = 0; i < e.failures.size(); ++i)
            if (e.failures[i].job.empty() && !e.failures[i].sinceBoot) m_byTime.push_back(i);
        std::stable_sort(m_byTime.begin(), m_byTime.end(), [&](std::size_t a, std::size_t b) { return e.failures[a].time < e.failures[b].time; });
        std::vector<InJobRestart> restarts = e.inJobRestarts;
        std::stable_sort(restarts.begin(), restarts.end(), [](const InJobRestart& a, const InJobRestart& b) { return a.time < b.time; });
        // Every node's launcher reports the same restart within moments: one restart, at the first.
        for (InJobRestart& r : restarts)
            if (m_restarts.empty() || r.time - m_restarts.back().time > kSameRestart) m_restarts.push_back(std::move(r));
    }

    void build() {
        const auto& chain = m_out.chain;
        for (std::size_t k = 0; k < chain.size(); ++k) {
            const ImportedJob& a = m_out.jobs[chain[k]];
            const ImportedJob* b = k + 1 < chain.size() ? &m_out.jobs[chain[k + 1]] : nullptr;
            inJobRestarts(chain[k], a, b);
            // Jobs that ran side by side (a sweep under one name) did not continue each other.
            if (b && a.end > 0 && b->start + kSecond < a.end) {
                m_warnings.push_back(jobLabel(a) + " and " + jobLabel(*b) + " ran at the same time: no downtime between them (name the run's own jobs with --job)");
                continue;
            }
            gap(chain[k], a, b);
        }
        // A job that made no progress was overtaken by its own failure: the recovery it was
        // part of lasted until that failure struck.
        for (std::size_t i = 0; i + 1 < m_out.downtimes.size(); ++i) {
            ChainDowntime& d = m_out.downtimes[i];
            if (m_overtaken[i]) d.end = std::max(d.restarted, std::min(m_out.downtimes[i + 1].begin, m_out.downtimes[i + 1].detected));
        }
    }

private:
    std::optional<std::size_t> evidence(const ImportedJob& a, EpochNs lo, EpochNs hi) {
        const std::set<std::string> nodes(a.nodes.begin(), a.nodes.end());
        std::optional<std::size_t> best;
        auto first = std::lower_bound(m_byTime.begin(), m_byTime.end(), lo, [&](std::size_t i, EpochNs t) { return m_events.failures[i].time < t; });
        for (auto it = first; it != m_byTime.end() && m_events.failures[*it].time <= hi; ++it) {
            const std::size_t i = *it;
            const ImportedFailure& f = m_events.failures[i];
            bool onJob = nodes.empty() || (f.where.host.empty() && f.hosts.empty()) || nodes.count(f.where.host);
            for (const std::string& h : f.hosts) onJob = onJob || nodes.count(h);
            if (!onJob) continue;
            m_out.explained[i] = 1;
            if (!best || evidenceRank(f) > evidenceRank(m_events.failures[*best]) ||
                (evidenceRank(f) == evidenceRank(m_events.failures[*best]) && f.time < m_events.failures[*best].time))
                best = i;
        }
        return best;
    }

    // The launcher's restarts of the workers inside job `a` (before the next job's life): each
    // a downtime from the last progress before it, detected at the restart line, restarted
    // there (the launcher starts the workers at once), over when the checkpoint is reloaded
    // or, without a load line, when the first step begins.
    void inJobRestarts(std::size_t index, const ImportedJob& a, const ImportedJob* b) {
        const EpochNs from = a.start > 0 ? a.start : a.firstLogLine;
        const EpochNs until = b ? (b->firstLogLine > 0 ? b->firstLogLine : b->start) : INT64_MAX;
        EpochNs lo = from;
        for (const InJobRestart& r : m_restarts) {
            if (r.time < from || r.time >= until || (a.end > 0 && r.time > a.end + kSecond)) continue;
            const std::optional<EpochNs> progress = m_progress.last(lo, r.time);
            const auto ev = evidence(a, progress ? *progress - kSecond : lo, r.time);
            const ImportedFailure* f = ev ? &m_events.failures[*ev] : nullptr;
            ChainDowntime d;
            d.endedJob = index;
            d.evidence = ev ? static_cast<std::int32_t>(*ev) : -1;
            d.cause = f ? f->cause : RootCause::Unknown;
            std::vector<std::string> notes;
            if (f) notes.push_back(f->detail + (f->source.empty() ? "" : " [" + f->source + "]"));
            notes.push_back("the launcher restarted the workers inside " + jobLabel(a) + ": " + r.detail + " [" + r.source + "]");
            if (!f) notes.push_back("no kernel log or training log line before the restart names a cause");
            d.detected = r.time;
            EpochNs begin = progress.value_or(r.time);
            if (f && evidenceRank(*f) >= 2 && f->time > begin) begin = f->time;
            d.begin = std::min(begin, d.detected);
            d.restarted = r.time;
            const EpochNs aEnd = a.end > 0 ? a.end + kSecond : until;
            const auto firstStep = m_progress.firstStepBegin(r.time, aEnd);
            const auto load = m_progress.firstLoad(r.time, firstStep.value_or(aEnd));
            d.end = load ? std::max(r.time, load->second) : firstStep ? std::max(r.time, *firstStep) : r.time;
            if (!load && firstStep) notes.push_back("no checkpoint load after the restart: training resumed with its first step");
            EpochNs durable = m_out.downtimes.empty() ? m_out.jobs[m_out.chain.front()].start : m_out.downtimes.back().end;
            if (auto save = m_progress.lastSave(durable, d.begin)) durable = std::max(durable, *save);
            d.lostWork = m_progress.any() ? std::max<EpochNs>(0, d.begin - durable) : 0;
            for (const std::string& n : notes) d.detail += (d.detail.empty() ? "" : "; ") + n;
            m_out.downtimes.push_back(std::move(d));
            m_overtaken.push_back(false);
            lo = r.time;
        }
    }

    void gap(std::size_t endedIndex, const ImportedJob& a, const ImportedJob* b) {
        const EpochNs nextSign = b ? (b->firstLogLine > 0 ? b->firstLogLine : b->start) : INT64_MAX;
        EpochNs aEnd = b ? b->start : INT64_MAX;
        if (a.end > 0) {
            // sacct keeps whole seconds, cut rather than rounded: the job ran on for up to a
            // second past its End, though never into the next job's life.
            aEnd = a.end + kSecond - 1;
            if (b) aEnd = std::min(aEnd, std::max(a.end, nextSign));
        }
        const std::optional<EpochNs> progress = m_progress.last(a.start, aEnd);
        // Evidence from the next job's own life (its first line on) is that job's story. A job
        // the scheduler says COMPLETED did its work and exited 0: a fault during its life (a
        // process the OOM killer took, a segfault) did not end it, however near.
        const bool completed = (a.stateText.empty() ? a.state : a.stateText).rfind("COMPLETED", 0) == 0;
        const auto ev = completed ? std::nullopt
                                  : evidence(a, progress ? *progress - kSecond : a.start, std::min(aEnd > INT64_MAX - kAfterEnd ? INT64_MAX : aEnd + kAfterEnd, nextSign - 1));
        const ImportedFailure* f = ev ? &m_events.failures[*ev] : nullptr;

        ChainDowntime d;
        d.endedJob = endedIndex;
        d.evidence = ev ? static_cast<std::int32_t>(*ev) : -1;
        std::vector<std::string> notes;
        if (f) {
            d.cause = f->cause;
            notes.push_back(f->detail + (f->source.empty() ? "" : " [" + f->source + "]"));
        } else if (a.fromLog) {
            d.cause = RootCause::Unknown;
        } else {
            const auto c = rootCauseForSlurmState(a.stateText.empty() ? a.state : a.stateText, a.reason);
            d.planned = !c || *c == RootCause::PlannedMaintenance;
            d.cause = d.planned ? RootCause::PlannedMaintenance : *c;
        }
        // The last job of the chain ends the run unless something broke it.
        if (!b && (d.planned || (!f && a.fromLog))) return;
        notes.push_back(schedulerWord(a));
        if (!f && !d.planned)
            notes.push_back("no kernel log or training log line around the job's end names a cause: the cause is the scheduler's word for how it ended");

        // Without the scheduler's end, the last thing the job's log says is when it was seen to fail.
        d.detected = a.end > 0 ? a.end : std::max(progress.value_or(a.start), f ? f->time : a.start);
        if (!progress) notes.push_back("no training log of " + jobLabel(a) + " shows progress: detection is counted from its end");
        EpochNs begin = progress.value_or(d.detected);
        if (f && evidenceRank(*f) >= 2 && f->time > begin) begin = f->time;
        if (!progress && f) begin = f->time;
        d.begin = std::min(begin, d.detected);

        if (b) {
            if (b->firstLogLine == 0) notes.push_back("no training log of " + jobLabel(*b) + ": the restart is counted to its start in sacct");
            d.restarted = std::max(d.detected, nextSign);
            const EpochNs bEnd = b->end > 0 ? b->end : INT64_MAX;
            const auto firstStep = m_progress.firstStepBegin(d.restarted, bEnd);
            const auto load = m_progress.firstLoad(d.restarted, firstStep.value_or(bEnd));
            if (load) d.end = std::max(d.restarted, load->second);
            else if (firstStep) d.end = std::max(d.restarted, *firstStep);
            else d.end = d.restarted;
            m_overtaken.push_back(!load && !firstStep);
            if (!load && firstStep) notes.push_back("no checkpoint load in the log of " + jobLabel(*b) + ": training resumed with its first step");
        } else {
            d.restarted = d.end = d.detected;
            m_overtaken.push_back(false);
            notes.push_back("no job continued the run after this");
        }
        if (!d.planned) {
            // Work since the state was last durable (a save, or the load that resumed) is redone.
            EpochNs durable = m_out.downtimes.empty() ? m_out.jobs[m_out.chain.front()].start : m_out.downtimes.back().end;
            if (auto save = m_progress.lastSave(durable, d.begin)) durable = std::max(durable, *save);
            d.lostWork = m_progress.any() ? std::max<EpochNs>(0, d.begin - durable) : 0;
        }
        for (const std::string& n : notes) d.detail += (d.detail.empty() ? "" : "; ") + n;
        m_out.downtimes.push_back(std::move(d));
    }

    const ImportedEvents& m_events;
    JobChain& m_out;
    std::vector<std::string>& m_warnings;
    Progress m_progress;
    std::vector<std::size_t> m_byTime;  // indices into events.failures that can be evidence, by time
    std::vector<char> m_overtaken;
    std::vector<InJobRestart> m_restarts;  // by time
};

}  // namespace

JobChain findJobChain(const ImportedEvents& events, const JobSelection& selection, std::vector<std::string>& warnings) {
    JobChain out;
    out.jobs = mergeJobs(events.jobs);
    out.explained.assign(events.failures.size(), 0);
    std::set<std::string> names;
    if (selection.ids.empty() && selection.name.empty())
        for (const ImportedJob& j : out.jobs)
            if (j.firstLogLine > 0 && !j.name.empty()) names.insert(j.name);
    auto wanted = [&](const ImportedJob& j) {
        if (!selection.ids.empty())
            return std::any_of(selection.ids.begin(), selection.ids.end(), [&](const std::string& id) { return id == j.id || id == baseId(j.id); });
        if (!selection.name.empty()) return j.name == selection.name;
        return j.firstLogLine > 0 || (!j.name.empty() && names.count(j.name) > 0);
    };
    // A job submitted to wait for one of the run's jobs (sbatch --dependency) continues the run
    // whatever its name; jobs are in start order, so one pass follows a chain of them. Jobs
    // named with --job are the run exactly.
    std::set<std::string> runIds;
    for (std::size_t i = 0; i < out.jobs.size(); ++i) {
        const ImportedJob& j = out.jobs[i];
        if (isStep(j) || j.start == 0) continue;
        const bool continues = selection.ids.empty() && std::any_of(j.dependsOn.begin(), j.dependsOn.end(), [&](const std::string& id) {
                                   return runIds.count(id) > 0 || runIds.count(baseId(id)) > 0;
                               });
        if (!wanted(j) && !continues) continue;
        out.chain.push_back(i);
        runIds.insert(j.id);
        runIds.insert(baseId(j.id));
    }
    if (out.chain.empty()) {
        if (!selection.ids.empty() || !selection.name.empty())
            throw Error("no job in the files is " + (selection.name.empty() ? "--job " + selection.ids.front() : "named \"" + selection.name + "\"") +
                        " (or none of them started)");
        return out;
    }
    std::stable_sort(out.chain.begin(), out.chain.end(), [&](std::size_t a, std::size_t b) { return out.jobs[a].start < out.jobs[b].start; });
    // One log naming its own job, with no scheduler record of it, is no chain to follow:
    // what the log says stands as it is.
    // Unless its launcher restarted the workers inside it: those are the run's downtimes.
    out.runJobs = out.chain;
    if (selection.ids.empty() && selection.name.empty() && out.chain.size() == 1 && out.jobs[out.chain.front()].fromLog &&
        events.inJobRestarts.empty()) {
        out.chain.clear();  // a job's own stdout is still that job: it stays the run's
        return out;
    }
    for (std::size_t i = 0; i < events.failures.size(); ++i)
        if (!events.failures[i].job.empty()) out.explained[i] = 1;  // the jobs' own states tell it now
    ChainBuilder(events, out, warnings).build();
    if (!events.steps.empty() || !events.checkpoints.empty()) return out;
    warnings.push_back("no training log shows progress: downtimes run from each job's end, and no work is counted as lost");
    return out;
}

}  // namespace faultline
