// Training logs (stdout of the job): Megatron-LM iteration and checkpoint lines, torchtitan
// step and checkpoint lines, NCCL watchdog timeouts, slurmstepd cancellations. Lines of any
// other kind are the bulk of such logs and are passed over silently.
#include "formats.h"
#include "hostlist.h"
#include "job_banner.h"
#include "line_reader.h"
#include "text_parse.h"
#include "training_log_line.h"

#include <cmath>
#include <map>
#include <ctime>

namespace faultline {

namespace {

// Every rank of a hung collective reports its own watchdog timeout within seconds: one
// failure, with all the ranks that reported it.
constexpr EpochNs kWatchdogBurst = 60'000'000'000;
// Other ranks, or an async save's writer after its caller, report a checkpoint done within
// minutes of the first report; a stepless end later than this is a checkpoint of its own.
constexpr EpochNs kLateReport = 30LL * 60 * 1'000'000'000;

int yearOf(EpochNs t) {
    const std::time_t secs = static_cast<std::time_t>(t / 1'000'000'000);
    std::tm tm{};
    gmtime_r(&secs, &tm);
    return tm.tm_year + 1900;
}

class TrainingLogReader {
public:
    TrainingLogReader(const std::string& path, ImportContext& ctx) : m_in(path), m_ctx(ctx) {}

    void run() {
        std::string_view line;
        while (m_in.next(line)) {
            if ((m_in.lineNumber() & 0xfff) == 0) m_ctx.tick(m_in.progress());
            try {
                handle(line);
            } catch (const TimeOutOfRange& e) {
                m_in.fail(e.what());
            }
        }
        if (m_save) closeCheckpoint(m_save, m_clock.value_or(m_save->end), CheckpointKind::Save);
        placeRanks();
        closeJob();
        if (m_ctx.report.counts.empty())
            throw Error(m_in.path() +
                        ": this file does not look like a training log: no line is a training step, checkpoint, NCCL watchdog or "
                        "Slurm cancel line or NCCL communicator init (expected Megatron-LM, torchtitan, PyTorch Distributed Checkpoint or NVIDIA Resiliency "
                        "Extension output)" +
                        (m_ctx.report.warnings.empty() ? std::string() : "; first problem: " + m_ctx.report.warnings.front()));
    }

private:
    void handle(std::string_view line) {
        const std::optional<EpochNs> stamp = timeInLine(line);
        if (stamp) {
            m_clock = *stamp;
            if (m_firstDated == 0) m_firstDated = *stamp;
            if (m_job && m_job->firstLogLine == 0) m_job->firstLogLine = *stamp;
        }
        m_rank = -1;
        // Only a global rank numbers a rank's own steps: srun merges every node's "[default0]:"
        // into one stdout, so a local rank does not say which rank a line is from.
        if (auto r = rankPrefix(line); r && !r->local) {
            m_rank = r->rank;
            m_ctx.report.ranks.insert(r->rank);
        }
        if (auto v = parseSlurmVariable(line)) return slurmVariable(*v);
        if (auto p = parseParallelSizes(line)) return parallelSizes(*p);
        // Step lines are the bulk of a log: they are looked for before the rarer kinds.
        bool bad = false;
        if (auto it = parseMegatronIteration(line, bad)) return iteration(*it, stamp.has_value());
        if (bad) return m_ctx.report.skip(m_in.where() + ": expected \"iteration N/ M | ... | elapsed time per iteration (ms): T\"");
        if (auto step = parseTitanStep(line)) return titanStep(*step, stamp);
        if (auto n = parseNcclCommInit(line)) return commInit(std::move(*n));
        if (auto s = parseTorchrunShape(line)) {
            if (s->procsPerNode > 0 && m_ctx.events.gpusPerNode == 0) m_ctx.events.gpusPerNode = s->procsPerNode;
            m_ctx.events.worldSize = std::max(m_ctx.events.worldSize, s->worldSize);
            m_ctx.report.count("torchrun shape lines");
            return;
        }
        if (auto w = parseWatchdogTimeout(line)) return watchdog(*w, line, stamp);
        if (auto c = parseSlurmCancel(line)) return cancel(*c);
        if (auto r = parseWorkerGroupRestart(line)) return inJobRestart(*r, line, stamp);
        if (auto cp = parseCheckpointLine(line)) return checkpoint(*cp, stamp);
        bool isSave = false;
        if (auto ms = parseCheckpointTimer(line, isSave)) return timer(*ms, isSave);
        if (auto cause = rootCauseForLogLine(line)) return logError(*cause, line, stamp);
    }

    // NCCL's communicator inits say where each rank ran; only the world's communicator (the
    // largest) numbers ranks globally, so the placement is taken from it at the end.
    void commInit(NcclCommInit n) {
        m_ctx.report.count("NCCL communicator inits");
        auto& ranks = m_commRanks[n.ranks];
        ranks[n.rank] = std::move(n);
    }

    void placeRanks() {
        if (m_commRanks.empty()) return;
        const auto& [size, ranks] = *m_commRanks.rbegin();
        m_ctx.events.worldSize = std::max(m_ctx.events.worldSize, size);
        for (const auto& [rank, n] : ranks) {
            m_ctx.events.placements.push_back({rank, n.host, n.device});
            if (!n.pciBusId.empty()) m_ctx.events.gpuBusIds.emplace_back(n.host, n.pciBusId);
            m_ctx.report.ranks.insert(rank);
        }
        m_ctx.report.count("rank placements", static_cast<std::int64_t>(ranks.size()));
    }

    // The launch script's SLURM_* lines name the job this part of the log belongs to.
    void slurmVariable(const SlurmVariable& v) {
        const std::string value(v.value);
        if (v.name == "SLURM_JOB_ID") {
            if (m_job && !m_job->id.empty() && m_job->id != value) closeJob();
            if (!m_job) m_job = ImportedJob{};
            m_job->id = value;
            m_job->fromLog = true;
            return;
        }
        if (v.name == "SLURM_RESTART_COUNT") {
            // A requeued job keeps its id: a new restart count is the next run of it.
            const auto count = static_cast<std::int32_t>(parseInt(v.value).value_or(0));
            if (m_job && m_sawRestartCount && m_job->restarts != count) {
                ImportedJob next;
                next.id = m_job->id;
                next.name = m_job->name;
                next.fromLog = true;
                closeJob();
                m_job = std::move(next);
            }
            if (!m_job) m_job = ImportedJob{};
            m_job->restarts = count;
            m_sawRestartCount = true;
            return;
        }
        if (v.name == "WORLD_SIZE") {
            m_ctx.events.worldSize = std::max(m_ctx.events.worldSize, static_cast<std::int32_t>(parseInt(v.value).value_or(0)));
            return;
        }
        if (v.name == "SLURM_GPUS_ON_NODE") {
            m_ctx.events.gpusPerNode = static_cast<std::int32_t>(parseInt(v.value).value_or(0));
            return;
        }
        if (!m_job) m_job = ImportedJob{};
        if (v.name == "SLURM_JOB_NAME") m_job->name = value;
        if (v.name == "SLURM_JOB_NODELIST" || v.name == "SLURM_NODELIST") {
            try {
                m_job->nodes = expandHostList(v.value);
            } catch (const Error& e) {
                m_ctx.report.skip(m_in.where() + ": " + std::string(v.name) + ": " + e.what());
            }
        }
    }

    void parallelSizes(const ParallelSizes& p) {
        ImportedEvents& e = m_ctx.events;
        e.worldSize = std::max(e.worldSize, p.world);
        if (p.tensor) e.tensorParallel = p.tensor;
        if (p.pipeline) e.pipelineParallel = p.pipeline;
        if (p.data) e.dataParallel = p.data;
    }

    void closeJob() {
        if (!m_job) return;
        if (!m_job->id.empty()) {
            if (m_job->nodes.size() > m_ctx.events.rankHosts.size()) m_ctx.events.rankHosts = m_job->nodes;
            m_ctx.events.jobs.push_back(std::move(*m_job));
            m_ctx.report.count("jobs");
        }
        m_job.reset();
        m_sawRestartCount = false;
        m_lastOfKind[0].reset();  // the next job's checkpoints are its own
        m_lastOfKind[1].reset();
    }

    // An error the training process printed (a traceback, a NaN check, a lost dependency):
    // evidence of why the job ended. One failure per burst, as every rank prints its own.
    void logError(RootCause cause, std::string_view line, std::optional<EpochNs> stamp) {
        if (cause == RootCause::NcclWatchdogTimeout || !m_clock) return;
        const EpochNs t = stamp ? *stamp : *m_clock;
        if (m_lastError && m_ctx.events.failures[*m_lastError].cause == cause && t - m_ctx.events.failures[*m_lastError].time <= kWatchdogBurst) return;
        ImportedFailure f;
        f.time = t;
        f.cause = cause;
        f.detail = std::string(trim(line.substr(0, 300)));
        f.source = m_in.where();
        m_lastError = m_ctx.events.failures.size();
        m_ctx.events.failures.push_back(std::move(f));
        m_ctx.report.count("error lines");
    }

    bool placed(const char* what) {
        if (m_clock) return true;
        m_ctx.report.skip(m_in.where() + ": " + what + " before any dated line; cannot place it in time (expected a timestamp such as Megatron's \"datetime: 2021-05-23 08:23:57\")");
        return false;
    }

    void addStep(std::int64_t step, EpochNs end, Nanos duration) {
        m_lastOfKind[1].reset();  // training went on: a load of the same step again is a new one
        m_ctx.events.steps.push_back({m_rank, step, end, duration});
        m_ctx.report.count("steps");
        m_ctx.report.seen(end - duration);
        m_ctx.report.seen(end);
    }

    // Megatron prints one line per log interval with the mean time per iteration: the clock
    // advances by the iterations since the last line times that mean.
    void iteration(const MegatronIteration& it, bool dated) {
        if (!placed("an iteration line")) return;
        const Nanos perIteration = static_cast<Nanos>(std::llround(it.elapsedMs * 1e6));
        if (!dated) *m_clock += (it.iteration > m_lastIteration ? it.iteration - m_lastIteration : 1) * perIteration;
        m_lastIteration = it.iteration;
        addStep(it.iteration, *m_clock, perIteration);
    }

    void titanStep(std::int64_t step, std::optional<EpochNs> stamp) {
        if (!stamp) return;
        // Each rank's step lines time its own steps.
        Nanos duration = 0;
        auto& last = m_lastTitan[m_rank];
        if (last && step > last->first) duration = (*stamp - last->second) / (step - last->first);
        last = {step, *stamp};
        m_lastIteration = step;
        addStep(step, *stamp, duration);
    }

    void checkpoint(const CheckpointLine& c, std::optional<EpochNs> stamp) {
        if (c.at == 0 && !placed("a checkpoint line")) return;
        const EpochNs now = c.at > 0 ? c.at : *m_clock;
        const std::int64_t step = c.step >= 0 ? c.step : m_lastIteration;
        const bool save = c.event == CheckpointEvent::SaveBegin || c.event == CheckpointEvent::SaveEnd || c.event == CheckpointEvent::SaveFailed;
        const CheckpointKind kind = save ? CheckpointKind::Save : CheckpointKind::Load;
        std::optional<ImportedCheckpoint>& open = save ? m_save : m_load;
        std::optional<std::size_t>& last = m_lastOfKind[save ? 0 : 1];
        // The last checkpoint closed is this one when it names the same step: an async save's
        // caller reports staging done ("Finished saving ... (or staging if async is enabled)")
        // before its writer (or every other rank) reports the checkpoint written.
        // An end that names no step is another report of the last one, while it is fresh.
        const bool end = c.event == CheckpointEvent::SaveEnd || c.event == CheckpointEvent::LoadEnd;
        const bool sameAsLast = !open && last &&
                                (c.step < 0 && end ? now - m_ctx.events.checkpoints[*last].end <= kLateReport
                                                   : m_ctx.events.checkpoints[*last].step == step);
        if (c.event == CheckpointEvent::SaveFailed || c.event == CheckpointEvent::LoadFailed) {
            // A checkpoint that was not written is none: lost work counts from the last good one.
            open.reset();
            if (sameAsLast && *last + 1 == m_ctx.events.checkpoints.size()) {
                m_ctx.events.checkpoints.pop_back();
                m_ctx.report.count(save ? "checkpoint saves" : "checkpoint loads", -1);
                last.reset();
                m_lastClosed.reset();
            }
            m_ctx.report.count(save ? "failed checkpoint saves" : "failed checkpoint loads");
            m_ctx.report.seen(now);
            return;
        }
        if (c.event == CheckpointEvent::SaveBegin || c.event == CheckpointEvent::LoadBegin) {
            // Every rank (or an async save's caller, then its writer) reports the same
            // checkpoint's start: it began at the first.
            if ((open && open->step == step) || sameAsLast) return;
            if (!save) m_lastOfKind[0].reset();  // after a reload the same step may be saved anew
            if (open) closeCheckpoint(open, now, kind);
            open = ImportedCheckpoint{now, now, step, kind, c.bytes};
            return;
        }
        if (!open) {
            // The other ranks' ends of a checkpoint already closed: it ends with the last.
            if (sameAsLast) {
                ImportedCheckpoint& done = m_ctx.events.checkpoints[*last];
                done.end = std::max(done.end, now);
                if (c.bytes > 0) done.bytes = c.bytes;
                m_ctx.report.seen(done.end);
                return;
            }
            // An end without its begin: the duration the line states (torchtitan) says when it began.
            const Nanos took = c.seconds > 0 ? static_cast<Nanos>(std::llround(c.seconds * 1e9)) : 0;
            open = ImportedCheckpoint{now - took, now, step, kind, c.bytes};
        }
        if (c.step >= 0) open->step = c.step;
        if (c.bytes > 0) open->bytes = c.bytes;
        EpochNs endsAt = now;
        if (!stamp && c.at == 0 && c.seconds > 0) endsAt = open->begin + static_cast<Nanos>(std::llround(c.seconds * 1e9));
        closeCheckpoint(open, endsAt, kind);
        if (!save && c.step >= 0) m_lastIteration = c.step;  // training resumes from the loaded step
    }

    void closeCheckpoint(std::optional<ImportedCheckpoint>& open, EpochNs end, CheckpointKind kind) {
        ImportedCheckpoint c = *open;
        open.reset();
        c.kind = kind;
        c.end = std::max(end, c.begin);
        m_ctx.events.checkpoints.push_back(c);
        m_lastClosed = m_ctx.events.checkpoints.size() - 1;
        m_lastOfKind[kind == CheckpointKind::Save ? 0 : 1] = m_lastClosed;
        m_ctx.report.count(kind == CheckpointKind::Save ? "checkpoint saves" : "checkpoint loads");
        m_ctx.report.seen(c.begin);
        m_ctx.report.seen(c.end);
    }

    // Megatron's timers come after the "successfully saved/loaded" line: they give the
    // checkpoint its duration when the log has no timestamps of its own.
    void timer(double ms, bool isSave) {
        if (!m_lastClosed) return;
        ImportedCheckpoint& c = m_ctx.events.checkpoints[*m_lastClosed];
        if ((c.kind == CheckpointKind::Save) != isSave || c.end != c.begin) return;
        c.end = c.begin + static_cast<Nanos>(std::llround(ms * 1e6));
        m_ctx.report.seen(c.end);
        if (m_clock && *m_clock < c.end) m_clock = c.end;
        m_lastClosed.reset();
    }

    void watchdog(const WatchdogTimeout& w, std::string_view line, std::optional<EpochNs> stamp) {
        if (!stamp) {
            const int year = m_ctx.options.year > 0 ? m_ctx.options.year : m_clock ? yearOf(*m_clock) : currentUtcYear();
            stamp = glogTime(line, year);
        }
        if (!stamp && !placed("an NCCL watchdog timeout")) return;
        const EpochNs t = stamp ? *stamp : *m_clock;
        m_ctx.report.count("watchdog timeouts");
        m_ctx.report.seen(t);
        if (w.rank >= 0) m_ctx.report.ranks.insert(w.rank);
        if (m_lastWatchdog && t - m_ctx.events.failures[*m_lastWatchdog].time <= kWatchdogBurst) {
            ImportedFailure& f = m_ctx.events.failures[*m_lastWatchdog];
            if (w.rank >= 0) f.ranks.push_back(w.rank);
            return;
        }
        ImportedFailure f;
        f.time = t;
        f.cause = RootCause::NcclWatchdogTimeout;
        f.source = m_in.where();
        if (w.rank >= 0) f.ranks.push_back(w.rank);
        f.detail = "NCCL watchdog timeout" + (w.op.empty() ? std::string() : " in " + w.op) +
                   (w.seq >= 0 ? " (SeqNum " + std::to_string(w.seq) + ")" : std::string()) +
                   (w.timeoutMs > 0 ? " after " + std::to_string(w.timeoutMs / 1000) + " s" : std::string()) +
                   (w.rank >= 0 ? ", first reported by rank " + std::to_string(w.rank) : std::string());
        m_lastWatchdog = m_ctx.events.failures.size();
        m_ctx.events.failures.push_back(std::move(f));
        m_ctx.report.count("failures");
    }

    void inJobRestart(std::string_view what, std::string_view line, std::optional<EpochNs> stamp) {
        if (!stamp) {  // torch's own logger: "[I804 09:11:05.480000 ...]"
            const int year = m_ctx.options.year > 0 ? m_ctx.options.year : m_clock ? yearOf(*m_clock) : currentUtcYear();
            stamp = glogTime(line, year);
        }
        if (!stamp && !placed("a worker group restart")) return;
        const EpochNs t = stamp ? *stamp : *m_clock;
        m_ctx.events.inJobRestarts.push_back({t, std::string(what), m_in.where()});
        m_ctx.report.count("in-job restarts");
        m_ctx.report.seen(t);
    }

    void cancel(const SlurmCancel& c) {
        // A log without a SLURM_* banner still names its job when slurmstepd cancels it.
        if (!m_job || m_job->id.empty()) {
            if (!m_job) m_job = ImportedJob{};
            m_job->id = c.job;
            m_job->fromLog = true;
            if (m_job->firstLogLine == 0) m_job->firstLogLine = m_firstDated;
        }
        ImportedFailure f;
        f.time = c.time;
        f.hosts = {c.host};
        f.job = c.job;  // the scheduler's word on how the job ended, as sacct's state is
        f.detail = "Slurm job " + c.job + " cancelled on " + c.host + (c.reason.empty() ? std::string() : " " + c.reason);
        m_ctx.events.failures.push_back(std::move(f));
        m_ctx.report.count("failures");
        m_ctx.report.seen(c.time);
    }

    LineReader m_in;
    ImportContext& m_ctx;
    std::optional<EpochNs> m_clock;
    std::int64_t m_lastIteration = 0;
    std::map<std::int32_t, std::optional<std::pair<std::int64_t, EpochNs>>> m_lastTitan;  // by rank
    std::int32_t m_rank = -1;
    std::map<std::int32_t, std::map<std::int32_t, NcclCommInit>> m_commRanks;  // by communicator size, then rank  // the rank the current line's prefix names; -1: none
    std::optional<ImportedCheckpoint> m_save;
    std::optional<ImportedCheckpoint> m_load;
    std::optional<std::size_t> m_lastClosed;
    std::optional<std::size_t> m_lastOfKind[2];  // the last save and load closed
    std::optional<std::size_t> m_lastWatchdog;
    std::optional<std::size_t> m_lastError;
    std::optional<ImportedJob> m_job;  // the job whose output this part of the log is
    bool m_sawRestartCount = false;
    EpochNs m_firstDated = 0;
};

}  // namespace

void importTrainingLog(const std::string& path, ImportContext& ctx) {
    TrainingLogReader reader(path, ctx);
    reader.run();
}

}  // namespace faultline
