#pragma once
// A console log read as it is written (FolderFollower: a running job's folder). Each readOn()
// reads the lines ended since the last one, and what depends on the lines before (the clock,
// the year of yearless times, open checkpoints and tracebacks, failures) is kept between
// calls: a look at a log that grew reads what it grew by, not the whole log again.
// snapshot() finishes a copy of that state as an import finishes a file, so it gives what an
// import of the lines read so far gives; after readOn(true), what an import of the file gives.
//
// Plain text only (grows()): a compressed or UTF-16 log is read whole at each change.
#include "importers/events/import_context.h"
#include "importers/events/import_report.h"
#include "importers/events/imported_events.h"

#include <memory>
#include <string>

namespace faultline {

// What a log read so far gives: as an import of it reports and keeps (its write time aside).
struct ConsoleLogSnapshot {
    FileReport report;
    ImportedEvents events;
};

class GrowingConsoleLog {
public:
    // Opens the file and reads nothing yet. Throws Error when it cannot be opened.
    GrowingConsoleLog(std::string path, const ImportOptions& options);
    ~GrowingConsoleLog();
    GrowingConsoleLog(const GrowingConsoleLog&) = delete;
    GrowingConsoleLog& operator=(const GrowingConsoleLog&) = delete;

    // False for a file that cannot be read on as it grows: compressed, or UTF-16.
    bool grows() const;
    // Reads the lines ended since the last call; `toTheEnd`: the last one too, ended or not.
    // False, and nothing read, when the file must be read again from its start: it was cut
    // short or rewritten from its start (copytruncate), or its first new line goes on the last
    // line read (a message cut over lines, which a read of the whole file joins). Throws Error
    // as an import of the file would (a line it refuses); the log cannot be read on after that.
    bool readOn(bool toTheEnd);
    // The file as read so far, finished as an import finishes it; the report's write time is
    // the caller's to set. Throws Error as that import would (no line a training log has, yet).
    ConsoleLogSnapshot snapshot() const;
    // Bytes after the last line end, waiting for their end.
    bool lineWaits() const;
    // Bytes of the file read so far, the unended line's included.
    std::uint64_t bytesRead() const;

private:
    struct State;
    std::unique_ptr<State> m;
};

}  // namespace faultline
