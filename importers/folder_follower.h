#pragma once
// Following a running job's folder (`faultline-cli import --follow`, File > Follow Job Folder).
// Each look lists the folder as an import does, reads only the files that changed since the
// last look (added, grown, truncated or replaced by a rotation: told by size, modification
// time and inode), keeps what the other files gave, builds the run again and writes the run
// file (brought up to date on a copy that then replaces it, keeping the rank steps it already
// holds, or whole): a reader of it never sees a half-written one, and after the last look,
// written whole, it is the file a one-shot import of the finished folder writes. A console log that grew is read from
// where the last look left it (GrowingConsoleLog), from the first look that reads it: a look
// costs what the logs grew by.
//
// What is not whole yet waits: a text file whose last line has no end yet keeps what it gave
// at the last look until the line ends (or the file stops changing for a look: a writer that
// died mid-line, or one written faster than it is looked at), and a file that cannot be read yet (a dump being written) keeps what it
// gave until its next change. The last look reads everything as it is.
#include "analysis/incidents.h"
#include "importers/console/growing_console_log.h"
#include "importers/importer.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace faultline {

// Evidence that is no file, kept current while a folder is followed (remote/prometheus_follow.h:
// the metrics pulled from a Prometheus server). Asked at every look with the files as read so
// far; the run is built of both and keeps where the pulled evidence came from.
class FollowedSource {
public:
    virtual ~FollowedSource() = default;
    // True when sources() or pulls() changed since the last call. Throws Error when the source
    // cannot be reached: what it gave before is kept and the look goes on without news from it.
    virtual bool refresh(const std::vector<const ShardedFile*>& files, bool last) = 0;
    // Lent: valid until the next refresh.
    virtual std::vector<const ShardedFile*> sources() const = 0;
    virtual std::vector<PulledSource> pulls() const = 0;
};

class FolderFollower {
public:
    FolderFollower(std::vector<std::string> inputs, std::string output, ImportOptions options);

    struct Look {
        bool written = false;                // the run file was written anew
        std::vector<Incident> newIncidents;  // not told by an earlier look, in time order
        std::vector<std::string> waiting;    // "FILE: ...": what is not read whole yet, and why
        ImportSummary summary;               // of the run written (empty when none was)
        RunInfo info;                        // of the run written: its name, start and span
        std::size_t filesRead = 0;           // read at this look (the others were kept)
        std::uint64_t bytesRead = 0;         // of the files read: what grew of a console log, all of any other
        // Where the look's time went: listing and reading the files, building the run, writing it.
        double readSeconds = 0, buildSeconds = 0, writeSeconds = 0;
        // What this look's listing walked and found: a watcher of changes watches these, so
        // that the folder is walked once a look, not once more by the watcher.
        std::vector<std::string> folders;
        std::vector<std::string> files;
        // Why the followed source (setSource) could not be refreshed at this look; empty when it was.
        std::string sourceProblem;
    };
    // One look. `last`: the job has ended or following stops, so every file is read as it is.
    // Throws Error when the folder cannot be listed or the run cannot be built (the run
    // file is then left as the last look wrote it).
    Look look(bool last = false);

    const std::string& output() const { return m_output; }
    // Evidence from no file to build every run with (not owned; nullptr for none).
    void setSource(FollowedSource* source) { m_source = source; }

private:
    // What tells that a file changed between two looks.
    struct Mark {
        std::uint64_t device = 0, inode = 0, size = 0;
        std::int64_t modifiedNs = 0;
        bool operator==(const Mark&) const = default;
    };
    struct Kept {
        Mark mark;                               // of the bytes `file` was read from
        std::optional<ShardedFile> file;         // unset until it was read once
        Mark seen;                               // the file as the last look saw it
        int looksWaited = 0;                     // in a row, for its last line to end
        std::optional<std::string> unreadable;   // why the bytes `seen` could not be read
        // A console log read on as it grows (from the first look that reads it), and whether `file`
        // holds its unended last line too (read whole after it waited).
        std::unique_ptr<GrowingConsoleLog> growing;
        std::uint64_t growingDevice = 0, growingInode = 0;  // the file `growing` reads
        bool tailRead = false;
    };
    // Whether a changed file is a console log to read on: one read as such before, or one read
    // for the first time that an import reads as one.
    bool readsOn(const Kept& kept, const ListedFile& file) const;
    // The files that changed, read whole: together (on every core), or each alone when one of
    // them cannot be read yet, so that the others are not held back by it.
    void readWhole(const std::vector<ListedFile>& toRead, const std::vector<std::size_t>& orders, std::map<std::string, Kept>& now, bool last, Look& look);
    // The console logs that changed: each read on from where it was (or from its start when it
    // cannot be); those that cannot be read so go to `whole`.
    void readGrowing(const std::vector<std::pair<std::string, std::size_t>>& grown, std::map<std::string, Kept>& now, bool last, Look& look,
                     std::vector<ListedFile>& whole, std::vector<std::size_t>& wholeOrders, const std::vector<ListedFile>& listed);

    std::vector<std::string> m_inputs;
    std::string m_output;
    ImportOptions m_options;
    std::map<std::string, Kept> m_kept;
    // Incidents told: the first symptom's wall-clock time (a file reaching further back moves
    // the run's start, and with it every time in the run) and the hardware.
    std::set<std::pair<std::int64_t, std::string>> m_told;
    bool m_everWritten = false;
    // The rank steps the run file holds: those the next run still begins with are kept in it
    // (updateRunFile), the rest written anew.
    std::vector<RankStep> m_writtenRankSteps;
    Mark m_written;  // the run file as the last look left it: another writer's is written whole
    // What tells that a file changed: its size, modification time and inode (zeros when gone).
    static Mark markOf(const std::string& path);
    // The run file written, brought up to the run: kept rows where it can, whole otherwise.
    // `last`: whole, so the file the follow ends with is the one a one-shot import writes.
    void write(const ImportResult& result, bool last);
    FollowedSource* m_source = nullptr;
    bool m_sourceUnwritten = false;  // the source brought what no run written holds yet
};

}  // namespace faultline
