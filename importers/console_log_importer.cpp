// Console logs of jobs: whatever a training job printed, behind whatever wrapped its lines.
// Each line is peeled of its wrappers (console_line.h) and matched against the one catalogue
// of events (console_catalogue.h); steps, checkpoints and the job's shape are read here,
// failures are assembled by ConsoleFailures. Lines no entry knows are counted, and the first
// few are shown in the import report.
#include "console_catalogue.h"
#include "console_chunks.h"
#include "console_failures.h"
#include "console_line.h"
#include "formats.h"
#include "hostlist.h"
#include "job_banner.h"
#include "text_parse.h"
#include "training_log_line.h"
#include "year_resolver.h"

#include <cmath>
#include <ctime>
#include <map>

namespace faultline {

namespace {

// Other ranks, or an async save's writer after its caller, report a checkpoint done within
// minutes of the first report; a stepless end later than this is a checkpoint of its own.
constexpr EpochNs kLateReport = 30LL * 60 * 1'000'000'000;
// Lines before the log's first date are timed from here, and moved when a date comes.
constexpr EpochNs kProvisionalOrigin = 1'000'000'000'000'000'000;
constexpr std::size_t kShownUnrecognised = 5;

class ConsoleLogReader {
public:
    ConsoleLogReader(const std::string& path, ImportContext& ctx)
        : m_path(path), m_ctx(ctx), m_years(ctx.options.year, fileModificationTime(path)), m_failures(ctx) {}

    void run() {
        // Peeling and matching run on every core, chunk by chunk (console_chunks.h); what
        // depends on the lines before is kept here, in one pass over the lines in order.
        ConsoleChunks chunks(m_path, m_ctx.options.workers, m_ctx.options.consoleChunkBytes);
        std::int64_t firstOfChunk = 1;
        while (PreparedChunk* chunk = chunks.next()) {
            m_ctx.tick(chunk->progress);
            std::vector<PreparedLine>& lines = chunk->lines;
            for (std::size_t i = 0; i < lines.size();) {
                std::size_t end = i + 1;
                while (end < lines.size() && lines[end].physical == lines[i].physical) ++end;
                m_lineNumber = firstOfChunk + lines[i].physical;
                try {
                    // The lines a physical line holds are all peeled, their years resolved,
                    // before the first of them is handled.
                    for (std::size_t k = i; k < end; ++k) {
                        if (lines[k].error >= 0) fail(chunk->errors[static_cast<std::size_t>(lines[k].error)]);
                        resolveYear(lines[k].line, m_years);
                    }
                    for (std::size_t k = i; k < end; ++k) handle(lines[k], *chunk);
                } catch (const TimeOutOfRange& e) {
                    fail(e.what());
                }
                i = end;
            }
            firstOfChunk += chunk->physicalLines;
        }
        if (m_ctx.report.linesUnderstood == 0)
            throw Error(m_path +
                        ": this file does not look like a training log: no line is one the console log catalogue knows (NCCL, CUDA, "
                        "out-of-memory, launcher, Slurm, Python traceback, training progress or checkpoint lines)" +
                        (m_ctx.report.unrecognised.empty() ? std::string() : "; first line: " + m_ctx.report.unrecognised.front()));
        if (m_provisional) {
            // No line has a date: what was read is placed at the file's last write.
            const auto written = fileModificationTime(m_path);
            const EpochNs anchor = written ? *written : static_cast<EpochNs>(std::time(nullptr)) * 1'000'000'000;
            shiftProvisional(anchor - *m_clock);
            m_ctx.report.notes.push_back("no line has a date: events are placed at the file's modification time, " + formatEpochNs(anchor) +
                                         ", and their times are marked inferred");
        }
        if (m_save) closeCheckpoint(m_save, m_clock.value_or(m_save->end), CheckpointKind::Save);
        placeRanks();
        closeJob();
        m_failures.noteWorld(m_ctx.events.worldSize);
        m_failures.finish();
        if (const std::string years = m_years.describe(); !years.empty()) m_ctx.report.notes.push_back(years);
        for (std::size_t k = 0; k < kConsoleKindCount; ++k)
            if (m_understood[k] > 0) m_ctx.report.understoodByKind[std::string(consoleKindName(static_cast<ConsoleKind>(k)))] += m_understood[k];
    }

private:
    // The log's clock: the last time a line stated. Before the first, a provisional origin
    // that the first date (or the file's modification time) moves into place.
    EpochNs now() {
        if (!m_clock) {
            m_clock = kProvisionalOrigin;
            m_provisional = true;
        }
        return *m_clock;
    }

    void shiftProvisional(EpochNs by) {
        m_provisional = false;
        ImportedEvents& e = m_ctx.events;
        for (ImportedStep& s : e.steps) s.end += by;
        for (ImportedCheckpoint& c : e.checkpoints) c.begin += by, c.end += by;
        for (ImportedFailure& f : e.failures)
            if (!f.sinceBoot) f.time += by;
        for (InJobRestart& r : e.inJobRestarts) r.time += by;
        for (std::optional<ImportedCheckpoint>* open : {&m_save, &m_load})
            if (*open) (*open)->begin += by, (*open)->end += by;
        for (auto& [rank, last] : m_lastTitan)
            if (last) last->second += by;
        if (m_ctx.report.first != 0) m_ctx.report.first += by, m_ctx.report.last += by;
        m_failures.shift(by);
        *m_clock += by;
    }

    void understood(ConsoleKind kind) {
        ++m_ctx.report.linesUnderstood;
        ++m_understood[static_cast<std::size_t>(kind)];
    }

    [[noreturn]] void fail(const std::string& what) const { throw Error(where() + ": " + what); }
    // "FILE:LINE" of the line being handled.
    std::string where() const { return m_path + ":" + std::to_string(m_lineNumber); }

    void handle(const PreparedLine& prepared, const PreparedChunk& chunk) {
        if (prepared.blank) return;
        const ConsoleLine& line = prepared.line;
        const std::string_view text = line.text;
        ++m_ctx.report.linesRead;
        std::optional<EpochNs> stamp = line.time;
        if (!stamp) stamp = prepared.timeInText;
        if (stamp) {
            if (m_provisional) shiftProvisional(*stamp - *m_clock);
            m_clock = *stamp;
            m_years.noteDated(*stamp);
            if (m_firstDated == 0) m_firstDated = *stamp;
            if (m_job && m_job->firstLogLine == 0) m_job->firstLogLine = *stamp;
        }
        // Only a global rank numbers a rank's own steps: srun merges every node's "[default0]:"
        // into one stdout, so a local rank does not say which rank a line is from.
        m_rank = line.rank;
        if (m_rank >= 0 && m_rank != m_lastRankNoted) {
            // Ranks interleave line by line: a set insert per line is a tree walk per line.
            if (static_cast<std::size_t>(m_rank) >= m_rankNoted.size()) m_rankNoted.resize(static_cast<std::size_t>(m_rank) + 1);
            if (!m_rankNoted[static_cast<std::size_t>(m_rank)]) {
                m_rankNoted[static_cast<std::size_t>(m_rank)] = true;
                m_ctx.report.ranks.insert(m_rank);
            }
            m_lastRankNoted = m_rank;
        }

        const ConsoleEvent* event = prepared.event >= 0 ? &chunk.events[static_cast<std::size_t>(prepared.event)] : nullptr;
        const LineOrigin origin{line.rank, line.localRank, line.host, now(), !stamp.has_value(), &m_path, m_lineNumber};
        if (!event) {
            if (m_failures.other(text, origin)) return understood(ConsoleKind::Traceback);
            // A launch script's command, or a comment (`set -v` echoes them; annotated logs carry
            // them): neither understood nor a surprise.
            if (line.shellTrace || text.front() == '#') return;
            if (m_ctx.report.unrecognised.size() < kShownUnrecognised)
                m_ctx.report.unrecognised.push_back(where() + ": " + std::string(trim(text).substr(0, 160)));
            return;
        }
        understood(event->kind);
        dispatch(*event, text, stamp, origin);
    }

    void dispatch(const ConsoleEvent& e, std::string_view text, std::optional<EpochNs> stamp, const LineOrigin& origin) {
        switch (e.kind) {
            case ConsoleKind::Step: return step(e, text, stamp);
            case ConsoleKind::CheckpointTimer: {
                bool isSave = false;
                if (auto ms = parseCheckpointTimer(text, isSave)) timer(*ms, isSave);
                return;
            }
            case ConsoleKind::Checkpoint:
                if (auto cp = parseCheckpointLine(text)) checkpoint(*cp, stamp);
                return;
            case ConsoleKind::CommInit:
                if (auto n = parseNcclCommInit(text)) commInit(std::move(*n));
                return;
            case ConsoleKind::JobShape: return jobShape(e, text);
            case ConsoleKind::NcclInfo:
            case ConsoleKind::StackFrame: return;
            case ConsoleKind::WorkerGroupRestart: return inJobRestart(e.what, origin.time);
            case ConsoleKind::SlurmCancel:
                cancelledJob(e);
                break;
            default: break;
        }
        if (e.kind == ConsoleKind::CollectiveTimeout) m_ctx.report.count("watchdog timeouts");
        m_failures.add(e, text, origin);
    }

    void jobShape(const ConsoleEvent& e, std::string_view text) {
        if (auto v = parseSlurmVariable(text)) return slurmVariable(*v);
        if (auto p = parseParallelSizes(text)) return parallelSizes(*p);
        if (auto s = parseTorchrunShape(text)) {
            if (s->procsPerNode > 0 && m_ctx.events.gpusPerNode == 0) m_ctx.events.gpusPerNode = s->procsPerNode;
            m_ctx.events.worldSize = std::max(m_ctx.events.worldSize, s->worldSize);
            m_ctx.report.count("torchrun shape lines");
            return;
        }
        if (e.world > 0) m_ctx.events.worldSize = std::max(m_ctx.events.worldSize, e.world);
    }

    void step(const ConsoleEvent& e, std::string_view text, std::optional<EpochNs> stamp) {
        if (e.malformed) return m_ctx.report.skip(where() + ": expected \"iteration N/ M | ... | elapsed time per iteration (ms): T\"");
        if (text.find("elapsed time per iteration (") != std::string_view::npos)
            return iteration(MegatronIteration{e.stepNumber, e.stepSeconds * 1000}, stamp.has_value());
        if (auto titan = parseTitanStep(text); titan && stamp) return titanStep(*titan, stamp);
        if (e.stepNumber < 0) {
            m_ctx.report.count("progress lines");  // a loss dict: progress without a step number
            return;
        }
        // A tqdm bar is redrawn many times per step, and every rank draws its own: a step is
        // taken when the bar passes it.
        const bool bar = text.find('|') != std::string_view::npos && (text.find("it/s") != std::string_view::npos || text.find("s/it") != std::string_view::npos);
        auto [last, first] = m_lastProgress.try_emplace(m_rank, -1);
        if (bar ? e.stepNumber <= last->second : e.stepNumber == last->second) return;
        last->second = e.stepNumber;
        if (e.stepNumber == 0) return;  // "0/16", DeepSpeed's "step=0": no step is done yet
        m_lastIteration = e.stepNumber;
        addStep(e.stepNumber, now(), e.stepSeconds > 0 ? static_cast<Nanos>(std::llround(e.stepSeconds * 1e9)) : 0);
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
                m_ctx.report.skip(where() + ": " + std::string(v.name) + ": " + e.what());
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
        now();
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
        const EpochNs now = c.at > 0 ? c.at : this->now();
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

    void inJobRestart(std::string_view what, EpochNs t) {
        m_ctx.events.inJobRestarts.push_back({t, std::string(what), where()});
        m_ctx.report.count("in-job restarts");
        m_ctx.report.seen(t);
    }

    // A log without a SLURM_* banner still names its job when slurmstepd cancels it.
    void cancelledJob(const ConsoleEvent& e) {
        if (e.step || (m_job && !m_job->id.empty())) return;
        if (!m_job) m_job = ImportedJob{};
        m_job->id = std::string(e.job);
        m_job->fromLog = true;
        if (m_job->firstLogLine == 0) m_job->firstLogLine = m_firstDated;
    }

    std::string m_path;
    std::int64_t m_lineNumber = 0;  // of the line being handled
    ImportContext& m_ctx;
    YearResolver m_years;
    ConsoleFailures m_failures;
    bool m_provisional = false;
    std::map<std::int32_t, std::int64_t> m_lastProgress;  // by rank: the last step a progress line showed
    std::int64_t m_understood[kConsoleKindCount] = {};
    std::vector<bool> m_rankNoted;
    std::int32_t m_lastRankNoted = -1;
    std::optional<EpochNs> m_clock;
    std::int64_t m_lastIteration = 0;
    std::map<std::int32_t, std::optional<std::pair<std::int64_t, EpochNs>>> m_lastTitan;  // by rank
    std::int32_t m_rank = -1;
    std::map<std::int32_t, std::map<std::int32_t, NcclCommInit>> m_commRanks;  // by communicator size, then rank  // the rank the current line's prefix names; -1: none
    std::optional<ImportedCheckpoint> m_save;
    std::optional<ImportedCheckpoint> m_load;
    std::optional<std::size_t> m_lastClosed;
    std::optional<std::size_t> m_lastOfKind[2];  // the last save and load closed
    std::optional<ImportedJob> m_job;  // the job whose output this part of the log is
    bool m_sawRestartCount = false;
    EpochNs m_firstDated = 0;
};

}  // namespace

void importTrainingLog(const std::string& path, ImportContext& ctx) {
    ConsoleLogReader reader(path, ctx);
    reader.run();
}

}  // namespace faultline
