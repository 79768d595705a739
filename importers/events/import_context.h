#pragma once
// What every format importer gets: the options the user gave, where to put what it reads,
// the report to fill, and the progress / Cancel plumbing of the import it is part of.
#include "importers/events/import_report.h"
#include "importers/events/imported_events.h"

#include "model/error.h"

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace faultline {

class FlightRecorderGroupLists;

struct ImportOptions {
    std::string format;       // force this format for every file; empty: detect each file's
    std::string rankMapPath;  // "rank host [local_gpu]" lines, for traces that do not say
    std::string runName;
    // Raw /dev/kmsg counts microseconds since boot; this says when the host booted.
    std::optional<EpochNs> bootTime;
    // Syslog-style dates ("Jan 21 04:41:44") carry no year; 0 means the current year.
    int year = 0;
    // The host of kernel logs that do not name one (dmesg); else the file name's first part.
    std::string host;
    // The columns of sacct output written with --noheader, as given to sacct --format
    // ("JobID,JobName,State,Start,End,NodeList"); the delimiter is then found from them.
    std::string sacctFields;
    // The fields of an nvidia-smi --query-gpu log written with --format=csv,noheader, as given
    // to --query-gpu ("timestamp,index,power.draw").
    std::string queryGpuFields;
    // The job's world size (--world-size): every rank below it is in the job; 0: what the
    // files say (a banner, or the ranks that report a group-wide timeout).
    std::int32_t worldSize = 0;
    // The jobs that trained the run (--job, comma-separated ids) or their name (--job-name);
    // empty: the jobs the training logs name, with every job of the same name.
    std::vector<std::string> jobIds;
    std::string jobName;
    // Merge files whose time spans lie far apart into one run anyway (--allow-disjoint, or
    // the user confirmed it); otherwise such an import throws DisjointSpans.
    bool allowDisjoint = false;
    // Threads reading files at once, and reading one console log in chunks; 0: one per core.
    // The run is the same for any number.
    int workers = 0;
    // The size of the chunks a console log is read in; 0: the default. The run is the same
    // for any size (tests make it tiny, so that chunk ends fall inside every shape of line).
    std::size_t consoleChunkBytes = 0;
    // Distinct telemetry series (GPU x metric) the import holds at most (--max-series).
    std::size_t maxSeries = kDefaultMaxTelemetrySeries;
};

// Thrown when the user cancels: the import stops and writes nothing.
class ImportCancelled : public Error {
public:
    ImportCancelled() : Error("import cancelled") {}
};

using ProgressFn = std::function<void(double fraction)>;  // 0..1 of the whole import

struct ImportContext {
    const ImportOptions& options;
    ImportedEvents& events;
    FileReport& report;
    const std::atomic<bool>* cancel = nullptr;
    std::function<void(double)> fileProgress;  // 0..1 of this file
    // Shared by every file of the import, so that dumps of one job keep each group's rank
    // list once; null: each dump keeps its own.
    FlightRecorderGroupLists* flightRecorderGroupLists = nullptr;

    void checkCancel() const {
        if (cancel && cancel->load(std::memory_order_relaxed)) throw ImportCancelled();
    }
    // Called every few thousand lines / each chunk: cheap, and where Cancel takes effect.
    void tick(double fraction) const {
        checkCancel();
        if (fileProgress) fileProgress(fraction);
    }
};

}  // namespace faultline
