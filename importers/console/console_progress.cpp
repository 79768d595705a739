#include "importers/console/console_progress.h"

#include "importers/text/hostlist.h"
#include "importers/text/text_parse.h"

#include <cmath>

namespace faultline {

namespace {

// Lines before the log's first date are timed from here, and moved when a date comes.
constexpr EpochNs kProvisionalOrigin = 1'000'000'000'000'000'000;
// Other ranks, or an async save's writer after its caller, report a checkpoint done within
// minutes of the first report; a stepless end later than this is a checkpoint of its own.
constexpr EpochNs kLateReport = 30LL * 60 * 1'000'000'000;

}  // namespace

EpochNs ConsoleClock::now() {
    if (!m_clock) {
        m_clock = kProvisionalOrigin;
        m_provisional = true;
    }
    return *m_clock;
}

void ConsoleClock::shift(EpochNs by) {
    m_provisional = false;
    if (m_clock) *m_clock += by;
}

void ConsoleProgress::checkpointTimer(std::string_view text) {
    bool isSave = false;
    if (auto ms = parseCheckpointTimer(text, isSave)) timer(*ms, isSave);
}

void ConsoleProgress::shift(EpochNs by) {
    for (std::optional<ImportedCheckpoint>* open : {&m_save, &m_load})
        if (*open) (*open)->begin += by, (*open)->end += by;
    for (auto& [rank, last] : m_lastTitan)
        if (last) last->second += by;
}

void ConsoleProgress::finish() {
    if (m_save) closeCheckpoint(m_save, m_clock->stated().value_or(m_save->end), CheckpointKind::Save);
    placeRanks();
    closeJob();
}

void ConsoleProgress::jobShape(const ConsoleEvent& e, std::string_view text) {
    if (auto v = parseSlurmVariable(text)) return slurmVariable(*v);
    if (auto p = parseParallelSizes(text)) return parallelSizes(*p);
    if (auto s = parseTorchrunShape(text)) {
        if (s->procsPerNode > 0 && m_ctx->events.gpusPerNode == 0) m_ctx->events.gpusPerNode = s->procsPerNode;
        m_ctx->events.worldSize = std::max(m_ctx->events.worldSize, s->worldSize);
        m_ctx->report.count("torchrun shape lines");
        return;
    }
    if (e.world > 0) m_ctx->events.worldSize = std::max(m_ctx->events.worldSize, e.world);
}

void ConsoleProgress::step(const ConsoleEvent& e, std::string_view text, std::optional<EpochNs> stamp, std::int32_t rank) {
    m_rank = rank;
    if (e.malformed) return m_ctx->report.skip(m_at->where() + ": expected \"iteration N/ M | ... | elapsed time per iteration (ms): T\"");
    if (text.find("elapsed time per iteration (") != std::string_view::npos)
        return iteration(MegatronIteration{e.stepNumber, e.stepSeconds * 1000}, stamp.has_value());
    if (auto titan = parseTitanStep(text); titan && stamp) return titanStep(*titan, stamp);
    if (e.stepNumber < 0) {
        m_ctx->report.count("progress lines");  // a loss dict: progress without a step number
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
    addStep(e.stepNumber, m_clock->now(), e.stepSeconds > 0 ? static_cast<Nanos>(std::llround(e.stepSeconds * 1e9)) : 0);
}

// NCCL's communicator inits say where each rank ran; only the world's communicator (the
// largest) numbers ranks globally, so the placement is taken from it at the end.
void ConsoleProgress::commInit(std::string_view text) {
    auto parsed = parseNcclCommInit(text);
    if (!parsed) return;
    NcclCommInit& n = *parsed;
    m_ctx->report.count("NCCL communicator inits");
    auto& ranks = m_commRanks[n.ranks];
    ranks[n.rank] = std::move(n);
}

void ConsoleProgress::placeRanks() {
    if (m_commRanks.empty()) return;
    const auto& [size, ranks] = *m_commRanks.rbegin();
    m_ctx->events.worldSize = std::max(m_ctx->events.worldSize, size);
    for (const auto& [rank, n] : ranks) {
        m_ctx->events.placements.push_back({rank, n.host, n.device});
        if (!n.pciBusId.empty()) m_ctx->events.gpuBusIds.emplace_back(n.host, n.pciBusId);
        m_ctx->report.ranks.insert(rank);
    }
    m_ctx->report.count("rank placements", static_cast<std::int64_t>(ranks.size()));
}

// The launch script's SLURM_* lines name the job this part of the log belongs to.
void ConsoleProgress::slurmVariable(const SlurmVariable& v) {
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
        m_ctx->events.worldSize = std::max(m_ctx->events.worldSize, static_cast<std::int32_t>(parseInt(v.value).value_or(0)));
        return;
    }
    if (v.name == "SLURM_GPUS_ON_NODE") {
        m_ctx->events.gpusPerNode = static_cast<std::int32_t>(parseInt(v.value).value_or(0));
        return;
    }
    if (!m_job) m_job = ImportedJob{};
    if (v.name == "SLURM_JOB_NAME") m_job->name = value;
    if (v.name == "SLURM_JOB_NODELIST" || v.name == "SLURM_NODELIST") {
        try {
            m_job->nodes = expandHostList(v.value);
        } catch (const Error& e) {
            m_ctx->report.skip(m_at->where() + ": " + std::string(v.name) + ": " + e.what());
        }
    }
}

void ConsoleProgress::parallelSizes(const ParallelSizes& p) {
    ImportedEvents& e = m_ctx->events;
    e.worldSize = std::max(e.worldSize, p.world);
    if (p.tensor) e.tensorParallel = p.tensor;
    if (p.pipeline) e.pipelineParallel = p.pipeline;
    if (p.data) e.dataParallel = p.data;
}

void ConsoleProgress::closeJob() {
    if (!m_job) return;
    if (!m_job->id.empty()) {
        if (m_job->nodes.size() > m_ctx->events.rankHosts.size()) m_ctx->events.rankHosts = m_job->nodes;
        m_ctx->events.jobs.push_back(std::move(*m_job));
        m_ctx->report.count("jobs");
    }
    m_job.reset();
    m_sawRestartCount = false;
    m_lastOfKind[0].reset();  // the next job's checkpoints are its own
    m_lastOfKind[1].reset();
}

void ConsoleProgress::addStep(std::int64_t step, EpochNs end, Nanos duration) {
    m_lastOfKind[1].reset();  // training went on: a load of the same step again is a new one
    m_ctx->events.steps.push_back({m_rank, step, end, duration});
    m_ctx->report.count("steps");
    m_ctx->report.seen(end - duration);
    m_ctx->report.seen(end);
}

// Megatron prints one line per log interval with the mean time per iteration: the clock
// advances by the iterations since the last line times that mean.
void ConsoleProgress::iteration(const MegatronIteration& it, bool dated) {
    const Nanos perIteration = static_cast<Nanos>(std::llround(it.elapsedMs * 1e6));
    if (!dated) m_clock->advance((it.iteration > m_lastIteration ? it.iteration - m_lastIteration : 1) * perIteration);
    m_lastIteration = it.iteration;
    addStep(it.iteration, m_clock->now(), perIteration);
}

void ConsoleProgress::titanStep(std::int64_t step, std::optional<EpochNs> stamp) {
    if (!stamp) return;
    // Each rank's step lines time its own steps.
    Nanos duration = 0;
    auto& last = m_lastTitan[m_rank];
    if (last && step > last->first) duration = (*stamp - last->second) / (step - last->first);
    last = {step, *stamp};
    m_lastIteration = step;
    addStep(step, *stamp, duration);
}

void ConsoleProgress::checkpoint(std::string_view text, std::optional<EpochNs> stamp) {
    const auto parsed = parseCheckpointLine(text);
    if (!parsed) return;
    const CheckpointLine& c = *parsed;
    const EpochNs now = c.at > 0 ? c.at : m_clock->now();
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
                            (c.step < 0 && end ? now - m_ctx->events.checkpoints[*last].end <= kLateReport
                                               : m_ctx->events.checkpoints[*last].step == step);
    if (c.event == CheckpointEvent::SaveFailed || c.event == CheckpointEvent::LoadFailed) {
        // A checkpoint that was not written is none: lost work counts from the last good one.
        open.reset();
        if (sameAsLast && *last + 1 == m_ctx->events.checkpoints.size()) {
            m_ctx->events.checkpoints.pop_back();
            m_ctx->report.count(save ? "checkpoint saves" : "checkpoint loads", -1);
            last.reset();
            m_lastClosed.reset();
        }
        m_ctx->report.count(save ? "failed checkpoint saves" : "failed checkpoint loads");
        m_ctx->report.seen(now);
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
            ImportedCheckpoint& done = m_ctx->events.checkpoints[*last];
            done.end = std::max(done.end, now);
            if (c.bytes > 0) done.bytes = c.bytes;
            m_ctx->report.seen(done.end);
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

void ConsoleProgress::closeCheckpoint(std::optional<ImportedCheckpoint>& open, EpochNs end, CheckpointKind kind) {
    ImportedCheckpoint c = *open;
    open.reset();
    c.kind = kind;
    c.end = std::max(end, c.begin);
    m_ctx->events.checkpoints.push_back(c);
    m_lastClosed = m_ctx->events.checkpoints.size() - 1;
    m_lastOfKind[kind == CheckpointKind::Save ? 0 : 1] = m_lastClosed;
    m_ctx->report.count(kind == CheckpointKind::Save ? "checkpoint saves" : "checkpoint loads");
    m_ctx->report.seen(c.begin);
    m_ctx->report.seen(c.end);
}

// Megatron's timers come after the "successfully saved/loaded" line: they give the
// checkpoint its duration when the log has no timestamps of its own.
void ConsoleProgress::timer(double ms, bool isSave) {
    if (!m_lastClosed) return;
    ImportedCheckpoint& c = m_ctx->events.checkpoints[*m_lastClosed];
    if ((c.kind == CheckpointKind::Save) != isSave || c.end != c.begin) return;
    c.end = c.begin + static_cast<Nanos>(std::llround(ms * 1e6));
    m_ctx->report.seen(c.end);
    m_clock->atLeast(c.end);
    m_lastClosed.reset();
}

void ConsoleProgress::inJobRestart(std::string_view what, EpochNs t) {
    m_ctx->events.inJobRestarts.push_back({t, std::string(what), m_at->where()});
    m_ctx->report.count("in-job restarts");
    m_ctx->report.seen(t);
}

// A log without a SLURM_* banner still names its job when slurmstepd cancels it.
void ConsoleProgress::cancelledJob(const ConsoleEvent& e, EpochNs firstDated) {
    if (e.step) return;
    if (m_job && m_job->id == e.job && m_job->batchHost.empty()) m_job->batchHost = std::string(e.host);
    if (m_job && !m_job->id.empty()) return;
    if (!m_job) m_job = ImportedJob{};
    m_job->batchHost = std::string(e.host);
    m_job->id = std::string(e.job);
    m_job->fromLog = true;
    if (m_job->firstLogLine == 0) m_job->firstLogLine = firstDated;
}

}  // namespace faultline
