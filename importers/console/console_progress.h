#pragma once
// What a console log says of the training's progress and of its job, read in the log's order
// (console_log_importer.cpp hands each catalogue event here): steps of every framework,
// checkpoint saves and loads (one checkpoint however many ranks report it), the launcher's
// restarts, the Slurm job and its shape, and where each rank ran.
#include "importers/console/console_catalogue.h"
#include "importers/events/import_context.h"
#include "importers/console/job_banner.h"
#include "importers/console/training_log_line.h"

#include <map>
#include <optional>
#include <string>

namespace faultline {

// The log's clock: the last time a line stated. Before the first, a provisional origin that
// the first date (or the file's modification time) moves into place.
class ConsoleClock {
public:
    EpochNs now();
    bool provisional() const { return m_provisional; }
    std::optional<EpochNs> stated() const { return m_clock; }
    void set(EpochNs t) { m_clock = t; }
    void advance(Nanos by) { m_clock = now() + by; }
    void atLeast(EpochNs t) {
        if (m_clock && *m_clock < t) m_clock = t;
    }
    // The provisional origin moved into place.
    void shift(EpochNs by);

private:
    std::optional<EpochNs> m_clock;
    bool m_provisional = false;
};

// "FILE:LINE" of the line being read, for messages about it.
struct ConsolePosition {
    const std::string* file = nullptr;
    std::int64_t line = 0;
    std::string where() const { return *file + ":" + std::to_string(line); }
};

class ConsoleProgress {
public:
    ConsoleProgress(ImportContext& ctx, ConsoleClock& clock, const ConsolePosition& at) : m_ctx(&ctx), m_clock(&clock), m_at(&at) {}
    // A copy of a reader's progress goes on with the copy's context, clock and position.
    void rebind(ImportContext& ctx, ConsoleClock& clock, const ConsolePosition& at) {
        m_ctx = &ctx;
        m_clock = &clock;
        m_at = &at;
    }

    // A line with a time of its own: the job's log begins no later.
    void dated(EpochNs t) {
        if (m_job && m_job->firstLogLine == 0) m_job->firstLogLine = t;
    }
    // `rank`: the global rank the line's wrapper named (-1: none).
    void step(const ConsoleEvent& e, std::string_view text, std::optional<EpochNs> stamp, std::int32_t rank);
    void checkpointTimer(std::string_view text);
    void checkpoint(std::string_view text, std::optional<EpochNs> stamp);
    void commInit(std::string_view text);
    void jobShape(const ConsoleEvent& e, std::string_view text);
    void inJobRestart(std::string_view what, EpochNs t);
    // slurmstepd cancelled a job: `firstDated` is the log's first dated line.
    void cancelledJob(const ConsoleEvent& e, EpochNs firstDated);
    // Times given before the log's first date move with it.
    void shift(EpochNs by);
    // The log ended: an open save ends at the last time it stated; ranks placed, the job closed.
    void finish();

private:
    void addStep(std::int64_t step, EpochNs end, Nanos duration);
    void iteration(const MegatronIteration& it, bool dated);
    void titanStep(std::int64_t step, std::optional<EpochNs> stamp);
    void closeCheckpoint(std::optional<ImportedCheckpoint>& open, EpochNs end, CheckpointKind kind);
    void timer(double ms, bool isSave);
    void slurmVariable(const SlurmVariable& v);
    void parallelSizes(const ParallelSizes& p);
    void placeRanks();
    void closeJob();

    ImportContext* m_ctx;
    ConsoleClock* m_clock;
    const ConsolePosition* m_at;
    std::int32_t m_rank = -1;  // the rank the current line's wrapper names; -1: none
    std::map<std::int32_t, std::int64_t> m_lastProgress;  // by rank: the last step a progress line showed
    std::int64_t m_lastIteration = 0;
    std::map<std::int32_t, std::optional<std::pair<std::int64_t, EpochNs>>> m_lastTitan;  // by rank
    std::map<std::int32_t, std::map<std::int32_t, NcclCommInit>> m_commRanks;  // by communicator size, then rank
    std::optional<ImportedCheckpoint> m_save;
    std::optional<ImportedCheckpoint> m_load;
    std::optional<std::size_t> m_lastClosed;
    std::optional<std::size_t> m_lastOfKind[2];  // the last save and load closed
    std::optional<ImportedJob> m_job;            // the job whose output this part of the log is
    bool m_sawRestartCount = false;
};

}  // namespace faultline
