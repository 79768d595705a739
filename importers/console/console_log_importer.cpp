// Console logs of jobs: whatever a training job printed, behind whatever wrapped its lines.
// Each line is peeled of its wrappers (console_line.h) and matched against the one catalogue
// of events (console_catalogue.h), in chunks on every core (console_chunks.h); here the lines
// are taken in order: their times make the log's clock, steps, checkpoints and the job's shape
// go to ConsoleProgress, failures to ConsoleFailures. Lines no entry knows are counted, and the first
// few are shown in the import report.
#include "importers/console/console_catalogue.h"
#include "importers/console/console_chunks.h"
#include "importers/console/console_continuation.h"
#include "importers/console/console_failures.h"
#include "importers/console/console_line.h"
#include "importers/console/console_progress.h"
#include "importers/console/growing_console_log.h"
#include "importers/console/readers.h"
#include "importers/text/text_parse.h"
#include "importers/text/year_resolver.h"
#include "importers/text/text_encoding.h"

#include <ctime>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace faultline {

// Named, not anonymous: GrowingConsoleLog::State holds a reader, and a class with external
// linkage may not hold one of a type only this file can name (gcc -Wsubobject-linkage, which
// a unity build of this file beside others would raise).
namespace console_reader {

constexpr std::size_t kShownUnrecognised = 5;

class ConsoleLogReader {
public:
    ConsoleLogReader(const std::string& path, ImportContext& ctx)
        : m_path(path), m_ctx(&ctx), m_years(ctx.options.year, fileModificationTime(path)), m_failures(ctx), m_progress(ctx, m_clock, m_at) {}

    // A copy of the reader as it stands, going on with its own context (which holds a copy of
    // this one's events and report): finished, it gives what the file read so far gives.
    ConsoleLogReader(const ConsoleLogReader& other, ImportContext& ctx) : ConsoleLogReader(other) {
        m_ctx = &ctx;
        m_at.file = &m_path;
        m_failures.rebind(ctx);
        m_progress.rebind(ctx, m_clock, m_at);
        m_lastChunk = nullptr;
    }

    void run() {
        // Peeling and matching run on every core, chunk by chunk (console_chunks.h); what
        // depends on the lines before is kept here, in one pass over the lines in order.
        ConsoleChunks chunks(m_path, m_ctx->options.workers, m_ctx->options.consoleChunkBytes);
        readLines(chunks);
        finish();
    }

    // Every line `chunks` gives, in order. For a growing file, called again once it grew
    // (chunks.readOn): false when its first new line goes on the last line read (a message
    // cut over lines), which a read of the whole file would have joined: the file must then be
    // read again from its start.
    bool readLines(ConsoleChunks& chunks) {
        if (m_lastChunk) {
            PreparedChunk* after = chunks.peek();
            std::vector<PreparedLine>& lines = m_lastChunk->lines;
            if (after && !after->lines.empty() && endOfPhysical(after->lines, 0) == 1 && !lines.empty() &&
                joinContinuation(lines.back(), eventOf(*m_lastChunk, lines.back()), after->lines[0], eventOf(*after, after->lines[0]), m_longest, width(),
                                 *m_lastChunk))
                return false;
        }
        while (PreparedChunk* chunk = chunks.next()) {
            m_lastChunk = chunk;
            m_ctx->tick(chunk->progress);
            std::vector<PreparedLine>& lines = chunk->lines;
            std::size_t i = m_continued ? endOfPhysical(lines, 0) : 0;
            m_continued = false;
            while (i < lines.size()) {
                std::size_t end = endOfPhysical(lines, i);
                m_at.line = m_firstOfChunk + lines[i].physical;
                // A message cut over physical lines: the lines that go on with it join its last.
                noteLength(lines[end - 1].rawSize);
                std::size_t next = end;
                while (next < lines.size() && endOfPhysical(lines, next) == next + 1) {
                    auto joined = joinContinuation(lines[end - 1], eventOf(*chunk, lines[end - 1]), lines[next], eventOf(*chunk, lines[next]), m_longest,
                                                   width(), *chunk);
                    if (!joined) break;
                    lines[end - 1] = *joined;
                    noteLength(lines[next].rawSize);
                    ++next;
                }
                if (next == lines.size()) {
                    PreparedChunk* after = chunks.peek();
                    if (after && !after->lines.empty() && endOfPhysical(after->lines, 0) == 1)
                        if (auto joined = joinContinuation(lines[end - 1], eventOf(*chunk, lines[end - 1]), after->lines[0], eventOf(*after, after->lines[0]),
                                                           m_longest, width(), *chunk)) {
                            lines[end - 1] = *joined;
                            m_continued = true;
                        }
                }
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
                i = next;
            }
            m_firstOfChunk += chunk->physicalLines;
        }
        return true;
    }

    // The file was written to since the reader began: what is read from now on takes the
    // year of its new modification time.
    void noteFileWritten() { m_years.setFileTime(fileModificationTime(m_path)); }

    // What every file's end settles: times placed when no line had a date, open checkpoints,
    // failures' suspects, the assumed years said.
    void finish() {
        if (m_ctx->report.linesUnderstood == 0)
            throw Error(m_path +
                        ": this file does not look like a training log: no line is one the console log catalogue knows (NCCL, CUDA, "
                        "out-of-memory, launcher, Slurm, Python traceback, training progress or checkpoint lines)" +
                        (m_ctx->report.unrecognised.empty() ? std::string() : "; first line: " + m_ctx->report.unrecognised.front()));
        if (m_clock.provisional()) {
            // No line has a date: what was read is placed at the file's last write.
            const auto written = fileModificationTime(m_path);
            const EpochNs anchor = written ? *written : static_cast<EpochNs>(std::time(nullptr)) * 1'000'000'000;
            shiftProvisional(anchor - m_clock.now());
            m_ctx->report.notes.push_back("no line has a date: events are placed at the file's modification time, " + formatEpochNs(anchor) +
                                         ", and their times are marked inferred");
        }
        m_progress.finish();
        m_failures.noteWorld(m_ctx->events.worldSize);
        m_failures.finish();
        if (const std::string years = m_years.describe(); !years.empty()) m_ctx->report.notes.push_back(years);
        for (std::size_t k = 0; k < kConsoleKindCount; ++k)
            if (m_understood[k] > 0) m_ctx->report.understoodByKind[std::string(consoleKindName(static_cast<ConsoleKind>(k)))] += m_understood[k];
    }

private:
    // The end of the physical line whose first logical line is lines[i].
    static std::size_t endOfPhysical(const std::vector<PreparedLine>& lines, std::size_t i) {
        std::size_t end = i + 1;
        while (end < lines.size() && lines[end].physical == lines[i].physical) ++end;
        return end;
    }
    // The longest physical line so far, and how many were that long: two or more are a terminal's width.
    void noteLength(std::size_t n) {
        if (n > m_longest) m_longest = n, m_atLongest = 1;
        else if (n == m_longest) ++m_atLongest;
    }
    std::size_t width() const { return m_atLongest >= 2 ? m_longest : 0; }
    static const ConsoleEvent* eventOf(const PreparedChunk& chunk, const PreparedLine& line) {
        return line.event >= 0 ? &chunk.events[static_cast<std::size_t>(line.event)] : nullptr;
    }

    // The first date came: what was timed before it moves with it.
    void shiftProvisional(EpochNs by) {
        ImportedEvents& e = m_ctx->events;
        for (ImportedStep& s : e.steps) s.end += by;
        for (ImportedCheckpoint& c : e.checkpoints) c.begin += by, c.end += by;
        for (ImportedFailure& f : e.failures)
            if (!f.sinceBoot) f.time += by;
        for (InJobRestart& r : e.inJobRestarts) r.time += by;
        m_progress.shift(by);
        if (m_ctx->report.first != 0) m_ctx->report.first += by, m_ctx->report.last += by;
        m_failures.shift(by);
        m_clock.shift(by);
    }

    // The log's first full date came after yearless times that took the year of the file's last
    // write (or of now): they are the same log's, minutes or hours before it, so they move to the
    // year that puts them nearest it (glog's "W0501 22:03:53" before NeMo's "2024-05-01 22:04:11"
    // is 2024's, not 2026's). One shift for all, as the clock's latest time moves.
    void takeTheLogsYear(EpochNs dated) {
        const EpochNs now = m_clock.now();
        shiftProvisional(sameDayNearest(now, dated) - now);
        for (ImportedFailure& f : m_ctx->events.failures) f.yearAssumed = false;
        m_years.forgetAssumed();
    }

    // A line that names both its host and its global rank ("[gpu187:1]:", pdsh's "node07:
    // [rank3]:") places the rank; the first such line wins.
    void placeOnHost(std::int32_t rank, std::string_view host) {
        if (static_cast<std::size_t>(rank) >= m_rankPlaced.size()) m_rankPlaced.resize(static_cast<std::size_t>(rank) + 1);
        if (m_rankPlaced[static_cast<std::size_t>(rank)]) return;
        m_rankPlaced[static_cast<std::size_t>(rank)] = true;
        m_ctx->events.placements.push_back({rank, std::string(host), -1});
        m_ctx->report.count("rank placements");
    }

    void understood(ConsoleKind kind) {
        ++m_ctx->report.linesUnderstood;
        ++m_understood[static_cast<std::size_t>(kind)];
    }

    [[noreturn]] void fail(const std::string& what) const { throw Error(where() + ": " + what); }
    // "FILE:LINE" of the line being handled.
    std::string where() const { return m_at.where(); }

    void handle(const PreparedLine& prepared, const PreparedChunk& chunk) {
        if (prepared.blank) return;
        const ConsoleLine& line = prepared.line;
        const std::string_view text = line.text;
        ++m_ctx->report.linesRead;
        std::optional<EpochNs> stamp = line.time;
        if (!stamp) stamp = prepared.timeInText;
        const ConsoleEvent* event = prepared.event >= 0 ? &chunk.events[static_cast<std::size_t>(prepared.event)] : nullptr;
        // torchrun's summary dates its entries ("time : 2024-03-08_10:12:05"): a date like
        // any line's, which places what came before it too.
        if (!stamp && event && event->kind == ConsoleKind::ElasticSummary && event->time) stamp = event->time;
        if (stamp) {
            // A full date, not a yearless time given a year.
            const bool printed = !(line.time && line.yearOmitted);
            if (m_clock.provisional()) shiftProvisional(*stamp - m_clock.now());
            else if (printed && m_years.forcedYear() <= 0 && !m_years.yearFromLog() && !m_years.assumedYears().empty()) takeTheLogsYear(*stamp);
            m_clock.set(*stamp);
            m_clockYearAssumed = line.time.has_value() && line.yearAssumed;
            if (printed) m_years.noteDated(*stamp);
            else m_years.noteResolved(*stamp);
            if (m_firstDated == 0) m_firstDated = *stamp;
            m_progress.dated(*stamp);
        }
        // Only a global rank numbers a rank's own steps: srun merges every node's "[default0]:"
        // into one stdout, so a local rank does not say which rank a line is from.
        const std::int32_t rank = line.rank;
        if (rank >= 0 && rank != m_lastRankNoted) {
            // Ranks interleave line by line: a set insert per line is a tree walk per line.
            if (static_cast<std::size_t>(rank) >= m_rankNoted.size()) m_rankNoted.resize(static_cast<std::size_t>(rank) + 1);
            if (!m_rankNoted[static_cast<std::size_t>(rank)]) {
                m_rankNoted[static_cast<std::size_t>(rank)] = true;
                m_ctx->report.ranks.insert(rank);
            }
            m_lastRankNoted = rank;
        }
        if (rank >= 0 && !line.host.empty()) placeOnHost(rank, line.host);

        const LineOrigin origin{line.rank, line.localRank, line.host, m_clock.now(), !stamp.has_value(), &m_path, m_at.line, m_clockYearAssumed};
        if (!event) {
            if (m_failures.other(text, origin)) return understood(ConsoleKind::Traceback);
            // A launch script's command, or a comment (`set -v` echoes them; annotated logs carry
            // them): neither understood nor a surprise.
            if (line.shellTrace || text.front() == '#') return;
            if (m_ctx->report.unrecognised.size() < kShownUnrecognised)
                m_ctx->report.unrecognised.push_back(where() + ": " + std::string(utf8Prefix(trim(text), 160)));
            return;
        }
        understood(event->kind);
        dispatch(*event, text, stamp, origin);
    }

    void dispatch(const ConsoleEvent& e, std::string_view text, std::optional<EpochNs> stamp, const LineOrigin& origin) {
        switch (e.kind) {
            case ConsoleKind::Step: return m_progress.step(e, text, stamp, origin.rank);
            case ConsoleKind::CheckpointTimer: return m_progress.checkpointTimer(text);
            case ConsoleKind::Checkpoint: return m_progress.checkpoint(text, stamp);
            case ConsoleKind::CommInit: return m_progress.commInit(text);
            case ConsoleKind::JobShape: return m_progress.jobShape(e, text);
            case ConsoleKind::NcclInfo: return;
            case ConsoleKind::StackFrame: return m_failures.frame(text, origin);
            case ConsoleKind::WorkerGroupRestart: return m_progress.inJobRestart(e.what, origin.time);
            case ConsoleKind::SlurmCancel:
                m_progress.cancelledJob(e, m_firstDated);
                break;
            default: break;
        }
        if (e.kind == ConsoleKind::CollectiveTimeout) m_ctx->report.count("watchdog timeouts");
        m_failures.add(e, text, origin);
    }

    ConsoleLogReader(const ConsoleLogReader&) = default;  // the copy above rebinds what points into it

    std::string m_path;
    ConsolePosition m_at{&m_path, 0};  // the line being handled
    ImportContext* m_ctx;
    YearResolver m_years;
    bool m_clockYearAssumed = false;  // the clock's time came from a yearless date
    ConsoleClock m_clock;
    ConsoleFailures m_failures;
    ConsoleProgress m_progress;
    std::int64_t m_understood[kConsoleKindCount] = {};
    std::vector<bool> m_rankNoted;
    std::vector<bool> m_rankPlaced;
    std::int32_t m_lastRankNoted = -1;
    EpochNs m_firstDated = 0;
    std::size_t m_longest = 0;    // the longest physical line so far
    std::size_t m_atLongest = 0;  // how many lines were that long
    std::int64_t m_firstOfChunk = 1;  // the next chunk's first line number
    bool m_continued = false;         // the next chunk's first physical line went on the last chunk's last
    PreparedChunk* m_lastChunk = nullptr;  // the last chunk read (ConsoleChunks keeps it): its last line may go on
};

}  // namespace console_reader
using console_reader::ConsoleLogReader;

void importTrainingLog(const std::string& path, ImportContext& ctx) {
    ConsoleLogReader reader(path, ctx);
    reader.run();
}

namespace {

// Bytes [0, n) of the file as it is now; shorter when it is.
std::string headOf(const std::string& path, std::size_t n) {
    std::string head(n, '\0');
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return {};
    const ssize_t got = ::pread(fd, head.data(), n, 0);
    ::close(fd);
    head.resize(got > 0 ? static_cast<std::size_t>(got) : 0);
    return head;
}

// A log rewritten from its start (copytruncate, then written again) is told by its first bytes.
constexpr std::size_t kHeadBytes = 256;

}  // namespace

struct GrowingConsoleLog::State {
    State(std::string p, const ImportOptions& o)
        : path(std::move(p)), options(o), ctx{options, events, report, nullptr, {}, nullptr},
          chunks(path, options.workers, options.consoleChunkBytes), reader(path, ctx) {}

    std::string path;
    ImportOptions options;
    ImportedEvents events;
    FileReport report;
    ImportContext ctx;
    ConsoleChunks chunks;
    ConsoleLogReader reader;
    std::string head;  // the file's first bytes as read
};

GrowingConsoleLog::GrowingConsoleLog(std::string path, const ImportOptions& options) : m(std::make_unique<State>(std::move(path), options)) {
    m->report.path = m->path;
    m->report.format = "training-log";
    m->events.telemetry.setMaxSeries(options.maxSeries);
}

GrowingConsoleLog::~GrowingConsoleLog() = default;

bool GrowingConsoleLog::grows() const { return !m->chunks.input().compressed() && *m->chunks.input().encodingName() == '\0'; }

bool GrowingConsoleLog::readOn(bool toTheEnd) {
    const InputFile& in = m->chunks.input();
    if (headOf(m->path, m->head.size()) != m->head) return false;
    struct stat st {};
    if (::stat(m->path.c_str(), &st) != 0 || static_cast<std::uint64_t>(st.st_size) < in.decompressedOffset()) return false;
    m->reader.noteFileWritten();
    m->chunks.readOn(toTheEnd, static_cast<std::uint64_t>(st.st_size) - in.decompressedOffset());
    if (!m->reader.readLines(m->chunks)) return false;
    if (m->head.size() < kHeadBytes) m->head = headOf(m->path, static_cast<std::size_t>(std::min<std::uint64_t>(kHeadBytes, in.decompressedOffset())));
    return true;
}

ConsoleLogSnapshot GrowingConsoleLog::snapshot() const {
    ConsoleLogSnapshot out;
    out.report = m->report;
    out.events = m->events;
    ImportContext ctx{m->options, out.events, out.report, nullptr, {}, nullptr};
    ConsoleLogReader finishing(m->reader, ctx);
    finishing.finish();
    out.events.telemetry.shrink();
    return out;
}

bool GrowingConsoleLog::lineWaits() const { return m->chunks.lineWaits(); }

std::uint64_t GrowingConsoleLog::bytesRead() const { return m->chunks.input().decompressedOffset(); }

}  // namespace faultline
