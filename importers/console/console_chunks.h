#pragma once
// A console log read in chunks cut at line ends, each chunk's lines peeled of their wrappers
// and matched against the catalogue on a thread of its own: that is nearly all the work of
// reading a log, and it depends on nothing but the line. The chunks come back in the file's
// order to the reader's one sequential pass (console_log_importer.cpp), which keeps what does
// depend on the lines before: the clock, the year of yearless times, open checkpoints,
// failures. Whatever the number of threads or the chunk size, that pass sees the same lines.
#include "importers/console/console_catalogue.h"
#include "importers/console/console_line.h"
#include "importers/text/input_file.h"

#include <deque>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace faultline {

// One logical line (a physical line holds several when a progress bar was redrawn with '\r').
struct PreparedLine {
    ConsoleLine line;                      // its yearless time still to resolve (resolveYear)
    std::optional<EpochNs> timeInText;     // a date later in the text, when no wrapper gave a time
    std::int32_t event = -1;               // into PreparedChunk::events; -1: no entry parses
    std::int32_t error = -1;               // into PreparedChunk::errors: reading the line failed
    std::uint32_t physical = 0;            // the physical line, counted from the chunk's first
    std::uint32_t rawSize = 0;             // the physical line's length, wrappers and colours included (joined: its last one's)
    bool blank = false;                    // nothing but spaces
};

struct PreparedChunk {
    std::string text;                      // the chunk's bytes: the lines' views point here
    std::deque<std::string> plain;         // lines that had colour codes, without them
    std::vector<PreparedLine> lines;       // in the file's order
    std::vector<ConsoleEvent> events;
    std::vector<std::string> errors;
    std::uint32_t physicalLines = 0;
    double progress = 0;                   // of the file on disk, once this chunk was read
};

class ConsoleChunks {
public:
    // `threads` <= 1: each chunk is prepared when asked for, on the caller's thread.
    // `chunkBytes` 0: the default.
    ConsoleChunks(const std::string& path, int threads, std::size_t chunkBytes);
    ~ConsoleChunks();  // waits for the chunks in flight
    ConsoleChunks(const ConsoleChunks&) = delete;
    ConsoleChunks& operator=(const ConsoleChunks&) = delete;

    // The next chunk in the file's order, valid until the next call that gives one; nullptr at
    // the end (the last chunk given stays valid: a growing file's next line may go on its last).
    PreparedChunk* next();
    // The chunk after the one next() gave, without moving on (a line of that one may go on
    // in the next one's first); valid until the call to next() after the one that returns it.
    PreparedChunk* peek();
    const std::string& path() const { return m_in.path(); }
    const InputFile& input() const { return m_in; }

    // The file grew since next() found its end: read on (growing_console_log.h). `toTheEnd`:
    // a last line without its end is handed out too; otherwise it waits for its end, and from
    // now on such a line always waits until readOn(true).
    // `expectedBytes`: about what it grew by, so that a small growth is read into a small chunk.
    // The file is closed again once read to its end.
    void readOn(bool toTheEnd, std::uint64_t expectedBytes);
    // A last line without its end waits (readOn(false)).
    bool lineWaits() const { return m_unendedWaits && !m_carry.empty(); }

private:
    std::unique_ptr<PreparedChunk> read();
    std::unique_ptr<PreparedChunk> produce();  // the next chunk read and prepared; nullptr at the end
    void recycle();  // the chunk last handed out, back to m_spare

    InputFile m_in;
    std::size_t m_threads = 1;
    std::size_t m_chunkBytes = 0;
    std::size_t m_roundBytes = 0;  // a chunk's size this round: smaller for a growing file's growth
    std::string m_carry;  // the start of a line the last chunk cut
    bool m_eof = false;
    bool m_unendedWaits = false;  // a last line without its end is not handed out (a growing file)
    std::deque<std::future<std::unique_ptr<PreparedChunk>>> m_inFlight;
    std::unique_ptr<PreparedChunk> m_current;
    std::unique_ptr<PreparedChunk> m_peeked;
    // Chunks handed back, kept with their buffers: fresh ones for every 4 MB of a 2 GB log
    // cost more in page faults than their lines cost to read.
    std::vector<std::unique_ptr<PreparedChunk>> m_spare;
};

}  // namespace faultline
