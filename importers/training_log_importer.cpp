// Training logs (stdout of the job): Megatron-LM iteration and checkpoint lines, torchtitan
// step and checkpoint lines, NCCL watchdog timeouts, slurmstepd cancellations. Lines of any
// other kind are the bulk of such logs and are passed over silently.
#include "formats.h"
#include "line_reader.h"
#include "text_parse.h"
#include "training_log_line.h"

#include <cmath>
#include <ctime>

namespace faultline {

namespace {

// Every rank of a hung collective reports its own watchdog timeout within seconds: one
// failure, with all the ranks that reported it.
constexpr EpochNs kWatchdogBurst = 60'000'000'000;

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
        if (m_ctx.report.counts.empty())
            throw Error(m_in.path() +
                        ": this file does not look like a training log: no line is a training step, checkpoint, NCCL watchdog or "
                        "Slurm cancel line (expected Megatron-LM or torchtitan output)" +
                        (m_ctx.report.warnings.empty() ? std::string() : "; first problem: " + m_ctx.report.warnings.front()));
    }

private:
    void handle(std::string_view line) {
        const std::optional<EpochNs> stamp = timeInLine(line);
        if (stamp) m_clock = *stamp;
        bool bad = false;
        if (auto it = parseMegatronIteration(line, bad)) return iteration(*it, stamp.has_value());
        if (bad) return m_ctx.report.skip(m_in.where() + ": expected \"iteration N/ M | ... | elapsed time per iteration (ms): T\"");
        if (auto step = parseTitanStep(line)) return titanStep(*step, stamp);
        if (auto w = parseWatchdogTimeout(line)) return watchdog(*w, line, stamp);
        if (auto c = parseSlurmCancel(line)) return cancel(*c);
        if (auto cp = parseCheckpointLine(line)) return checkpoint(*cp, stamp);
        bool isSave = false;
        if (auto ms = parseCheckpointTimer(line, isSave)) return timer(*ms, isSave);
    }

    bool placed(const char* what) {
        if (m_clock) return true;
        m_ctx.report.skip(m_in.where() + ": " + what + " before any dated line; cannot place it in time (expected a timestamp such as Megatron's \"datetime: 2021-05-23 08:23:57\")");
        return false;
    }

    void addStep(std::int64_t step, EpochNs end, Nanos duration) {
        m_ctx.events.steps.push_back({-1, step, end, duration});
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
        Nanos duration = 0;
        if (m_lastTitan && step > m_lastTitan->first) duration = (*stamp - m_lastTitan->second) / (step - m_lastTitan->first);
        m_lastTitan = {step, *stamp};
        m_lastIteration = step;
        addStep(step, *stamp, duration);
    }

    void checkpoint(const CheckpointLine& c, std::optional<EpochNs> stamp) {
        if (!placed("a checkpoint line")) return;
        const EpochNs now = *m_clock;
        const std::int64_t step = c.step >= 0 ? c.step : m_lastIteration;
        const bool save = c.event == CheckpointEvent::SaveBegin || c.event == CheckpointEvent::SaveEnd;
        std::optional<ImportedCheckpoint>& open = save ? m_save : m_load;
        if (c.event == CheckpointEvent::SaveBegin || c.event == CheckpointEvent::LoadBegin) {
            if (open) closeCheckpoint(open, now, save ? CheckpointKind::Save : CheckpointKind::Load);
            open = ImportedCheckpoint{now, now, step, save ? CheckpointKind::Save : CheckpointKind::Load};
            return;
        }
        if (!open) {
            // An end without its begin: the duration the line states (torchtitan) says when it began.
            const Nanos took = c.seconds > 0 ? static_cast<Nanos>(std::llround(c.seconds * 1e9)) : 0;
            open = ImportedCheckpoint{now - took, now, step, save ? CheckpointKind::Save : CheckpointKind::Load};
        }
        if (c.step >= 0) open->step = c.step;
        EpochNs end = now;
        if (!stamp && c.seconds > 0) end = open->begin + static_cast<Nanos>(std::llround(c.seconds * 1e9));
        closeCheckpoint(open, end, save ? CheckpointKind::Save : CheckpointKind::Load);
        if (!save && c.step >= 0) m_lastIteration = c.step;  // training resumes from the loaded step
    }

    void closeCheckpoint(std::optional<ImportedCheckpoint>& open, EpochNs end, CheckpointKind kind) {
        ImportedCheckpoint c = *open;
        open.reset();
        c.kind = kind;
        c.end = std::max(end, c.begin);
        m_ctx.events.checkpoints.push_back(c);
        m_lastClosed = m_ctx.events.checkpoints.size() - 1;
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
        if (w.rank >= 0) f.ranks.push_back(w.rank);
        f.detail = "NCCL watchdog timeout" + (w.op.empty() ? std::string() : " in " + w.op) +
                   (w.seq >= 0 ? " (SeqNum " + std::to_string(w.seq) + ")" : std::string()) +
                   (w.timeoutMs > 0 ? " after " + std::to_string(w.timeoutMs / 1000) + " s" : std::string()) +
                   (w.rank >= 0 ? ", first reported by rank " + std::to_string(w.rank) : std::string());
        m_lastWatchdog = m_ctx.events.failures.size();
        m_ctx.events.failures.push_back(std::move(f));
        m_ctx.report.count("failures");
    }

    void cancel(const SlurmCancel& c) {
        ImportedFailure f;
        f.time = c.time;
        f.hosts = {c.host};
        f.detail = "Slurm job " + c.job + " cancelled on " + c.host + (c.reason.empty() ? std::string() : " " + c.reason);
        m_ctx.events.failures.push_back(std::move(f));
        m_ctx.report.count("failures");
        m_ctx.report.seen(c.time);
    }

    LineReader m_in;
    ImportContext& m_ctx;
    std::optional<EpochNs> m_clock;
    std::int64_t m_lastIteration = 0;
    std::optional<std::pair<std::int64_t, EpochNs>> m_lastTitan;
    std::optional<ImportedCheckpoint> m_save;
    std::optional<ImportedCheckpoint> m_load;
    std::optional<std::size_t> m_lastClosed;
    std::optional<std::size_t> m_lastWatchdog;
};

}  // namespace

void importTrainingLog(const std::string& path, ImportContext& ctx) {
    TrainingLogReader reader(path, ctx);
    reader.run();
}

}  // namespace faultline
