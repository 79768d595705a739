#pragma once
// The failures a console log tells of, assembled from its catalogue events (console_catalogue.h):
// one event printed by many ranks is one failure with every reporter as evidence; a crash
// reported in several lines (terminate, what(), frames; a traceback and its exception;
// torchrun's summary) is one failure with its most specific cause. At the end each failure
// is told who: the ranks that reported it, the world they belong to, and the suspects.
#include "importers/console/console_catalogue.h"
#include "importers/events/import_context.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace faultline {

// Where and when a console line was printed, as its wrappers and the log's clock say.
struct LineOrigin {
    std::int32_t rank = -1;       // global rank
    std::int32_t localRank = -1;
    std::string_view host;
    EpochNs time = 0;
    bool inferred = false;        // the line had no time of its own
    const std::string* file = nullptr;
    std::int64_t line = 0;
    bool yearAssumed = false;     // the time's year is not printed (a yearless date took one)
    // "FILE:LINE", built only for the few lines that become evidence.
    std::string where() const { return file ? *file + ":" + std::to_string(line) : std::string(); }
};

class ConsoleFailures {
public:
    explicit ConsoleFailures(ImportContext& ctx) : m_ctx(&ctx) {}
    // A copy of a reader's failures goes on with the copy's context.
    void rebind(ImportContext& ctx) { m_ctx = &ctx; }

    // A failure kind's event (isFailureKind), torchrun's summary, a traceback's lines.
    void add(const ConsoleEvent& e, std::string_view text, const LineOrigin& at);
    // A line no entry recognised: while a traceback is open, its frames and its exception.
    // True when it was part of one.
    bool other(std::string_view text, const LineOrigin& at);
    // A traceback's frame ("  File \"x.py\", line 3, in f"): where its exception was raised.
    void frame(std::string_view text, const LineOrigin& at);
    // The world the log states (launcher banner, communicator sizes, --world-size).
    void noteWorld(std::int32_t world) { m_world = std::max(m_world, world); }
    // Times given before the log's first date move with it (see ConsoleLogReader).
    void shift(EpochNs by);
    // Reporters, world and suspects into each failure's fields and detail; tracebacks still
    // open (their message cut) become failures.
    void finish();

private:
    enum class Family : std::uint8_t { Collective, Crash, Scheduler };
    struct Open {
        std::size_t failure = 0;
        EpochNs last = 0;
        int specificity = 0;  // of the event that set its cause and detail
        std::string_view group;
        std::int64_t seq = -1;
    };
    struct Counters {
        std::int64_t enqueued = -1, completed = -1;
    };
    struct RootCauseSummary {
        std::int32_t rank = -1, localRank = -1, exitCode = 0, signal = 0;
        std::string host;
        std::optional<EpochNs> time;
        bool inRoot = false;  // the fields being read are the root cause's (not "Failures:")
        std::string entryHost;  // the host of the entry being read, root cause or not
        std::int32_t entryRank = -1, entryLocalRank = -1;  // the rank of the entry being read
        std::size_t failure = SIZE_MAX;
    };
    // A process a line names (UCX's "[host:pid:tid]"), and the rank a line gives it.
    struct Process {
        std::string host;
        std::int64_t pid = -1;
        std::int32_t localRank = -1;  // where the line gives it (torchrun's "local_rank: 0 (pid: 99)")
    };
    struct ProcessRank {
        std::string host;
        std::int32_t rank = -1, localRank = -1;
    };

    // A traceback being read: where it began, and the frames that say where it was raised.
    struct Traceback {
        EpochNs time = 0;
        bool inferred = false;
        std::int32_t rank = -1, localRank = -1;
        std::string host;
        const std::string* file = nullptr;
        std::int64_t line = 0;
        int frames = 0;
        bool libraryEntered = false;
        std::string entry, entryAt;  // the first frame in a library (the job's code called into it there)
        std::string last, lastAt;    // the last frame: its function, and file (from its package on) and line
        std::string called;          // what the last code line called ("DistributedDataParallel")
        std::string calledInto;      // what the code line before the entry frame called
    };

    ImportedFailure& failureFor(Family family, const LineOrigin& at, bool& created);
    // A traceback whose exception never came (the log or the paste was cut): a failure that
    // says where, from its frames.
    void cutTraceback(const Traceback& t);
    void report(ImportedFailure& f, const ConsoleEvent& e, const LineOrigin& at);
    void crash(const ConsoleEvent& e, std::string_view text, const LineOrigin& at);
    void elastic(const ConsoleEvent& e, const LineOrigin& at);
    void elasticEntry(ImportedFailure& f, const ConsoleEvent& e);
    // A failure whose first line names its process: placed on that process's rank where a line
    // maps its pid to one, else on its host with the rank unknown (not torchrun's root cause).
    void placeOnFirstProcess(std::size_t failure, ImportedFailure& f) const;
    std::uint64_t streamKey(const LineOrigin& at) const;

    ImportContext* m_ctx;
    std::map<Family, Open> m_open;
    std::map<std::size_t, std::map<std::int32_t, Counters>> m_counters;  // failure -> rank -> counters
    std::map<std::size_t, std::int32_t> m_firstReporter;                  // failure -> the first rank to report it
    std::map<std::size_t, Process> m_firstProcess;                        // failure -> the process its first line names
    std::map<std::int64_t, ProcessRank> m_pidRanks;                       // pid -> rank, as torchrun's summary maps them
    std::map<std::uint64_t, Traceback> m_tracebacks;                    // open tracebacks by stream (rank / host)
    RootCauseSummary m_summary;
    std::int32_t m_world = 0;
};

}  // namespace faultline
