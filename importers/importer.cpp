#include "importers/importer.h"
#include "analysis/stored_figures.h"

#include "importers/pytorch/flight_recorder_group_lists.h"
#include "importers/formats.h"
#include "importers/hang_incident.h"
#include "importers/import_invariants.h"
#include "importers/text/hostlist.h"
#include "importers/text/input_file.h"
#include "importers/telemetry/link_counters.h"
#include "importers/text/parallel_files.h"
#include "importers/text/read_whole_file.h"
#include "importers/rank_map.h"
#include "importers/run_builder.h"
#include "importers/shard_file.h"
#include "importers/time_span_check.h"

#include "analysis/hang_analysis.h"
#include "model/run_file.h"
#include "model/run_validity.h"

#include <algorithm>
#include <exception>
#include <functional>
#include <mutex>
#include <filesystem>
#include <system_error>
#include <cerrno>
#include <sys/stat.h>

namespace faultline {

namespace {

namespace fs = std::filesystem;

mode_t modeOf(const std::string& path) {
    struct stat st{};
    return ::stat(path.c_str(), &st) == 0 ? st.st_mode : 0;
}

// The files named and those in the folders named. Anything that is not a regular file (a
// FIFO would block the import forever, a device never ends) is refused, named; a link that
// loops, or leads nowhere, inside a folder is skipped with a warning. `folders`, when given,
// gets the folders walked (those named, and every one below them that was not skipped).
std::vector<ListedFile> expandInputs(const std::vector<std::string>& inputs, std::vector<std::string>& warnings,
                                     std::vector<std::string>* folders = nullptr) {
    std::vector<ListedFile> out;
    for (const std::string& p : inputs) {
        std::error_code ec;
        const auto status = fs::status(p, ec);
        if (ec.value() == ELOOP) throw Error(p + ": a symbolic link that loops (too many levels of symbolic links)");
        if (ec || !fs::exists(status)) throw Error(p + ": no such file or folder");
        if (!fs::is_directory(status)) {
            if (!fs::is_regular_file(status)) throw Error(p + ": " + notRegularFileText(static_cast<unsigned>(modeOf(p))));
            out.push_back({p, false, fs::file_size(p, ec)});
            continue;
        }
        if (folders) folders->push_back(p);
        std::vector<ListedFile> found;
        for (auto it = fs::recursive_directory_iterator(p, fs::directory_options::skip_permission_denied, ec);
             !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
            const std::string path = it->path().string();
            const std::string name = it->path().filename().string();
            // One stat an entry gives its kind (through links) and its size.
            struct stat st {};
            std::error_code entryError;
            if (::stat(path.c_str(), &st) != 0) entryError = std::error_code(errno, std::generic_category());
            if (entryError) {
                const int err = entryError.value();
                warnings.push_back(path + ": skipped: " +
                                   (err == ELOOP ? std::string("a symbolic link that loops") : err == ENOENT ? std::string("a symbolic link to nothing")
                                                                                                             : std::string("cannot be examined")) +
                                   " (" + entryError.message() + ")");
                continue;
            }
            if (!name.empty() && name.front() == '.') {
                if (S_ISDIR(st.st_mode)) it.disable_recursion_pending();
                continue;
            }
            if (S_ISDIR(st.st_mode)) {
                // A link to a folder is not walked (the iterator does not follow it): nor watched.
                if (folders && !it->is_symlink(entryError)) folders->push_back(path);
                continue;
            }
            if (!S_ISREG(st.st_mode)) throw Error(path + ": " + notRegularFileText(static_cast<unsigned>(st.st_mode)));
            found.push_back({path, true, static_cast<std::uint64_t>(st.st_size)});
        }
        if (ec) throw Error(p + ": cannot list the folder: " + ec.message());
        std::sort(found.begin(), found.end(), [](const ListedFile& a, const ListedFile& b) { return naturalLess(a.path, b.path); });
        out.insert(out.end(), found.begin(), found.end());
    }
    return out;
}

// The run's name before the files are read: the one given, else the folder's (the folder
// imported, or the one all files share); the job's name replaces a folder's once known.
std::string runNameFor(const ImportOptions& options, const std::vector<std::string>& inputs) {
    if (!options.runName.empty()) return options.runName;
    if (inputs.empty()) return "import";
    auto folderOf = [](const std::string& p) {
        std::error_code ec;
        const fs::path absolute = fs::weakly_canonical(fs::absolute(p, ec), ec);
        return fs::is_directory(absolute, ec) ? absolute : absolute.parent_path();
    };
    fs::path common = folderOf(inputs.front());
    for (const std::string& p : inputs)
        while (!common.empty() && common != common.root_path() && folderOf(p).string().rfind(common.string(), 0) != 0) common = common.parent_path();
    const std::string name = common.filename().string();
    return name.empty() ? fs::path(inputs.front()).stem().string() : name;
}

// "llama-70b (job 4411)": the jobs that trained the run name it, when the files say which.
std::string jobRunName(const Run& run) {
    for (const Job& j : run.jobs)
        if (j.inRun && j.parent < 0 && !j.name.empty()) return j.name + " (job " + j.id + ")";
    return "";
}

// Files up to this size are read whole once, for detection and for a reader that takes bytes
// (a Flight Recorder dump is a few hundred KB): one open, fstat and read a dump.
constexpr std::size_t kReadWhole = std::size_t{4} << 20;

// A worker's buffer for the files it reads whole, kept for the next: a fresh one's pages
// cleared by the kernel for each of thousands of dumps cost more than reading them.
std::string& wholeFileBuffer() {
    thread_local std::string buffer;
    return buffer;
}

// Reads a small file whole into `whole` (true when it did) and tells its format.
const FormatInfo* formatOf(const ListedFile& f, const FormatInfo* forced, std::string& whole, bool& haveBytes) {
    haveBytes = (!forced || forced->importBytes) && f.size >= 2 && f.size <= kReadWhole && readPlainFile(f.path, kReadWhole, whole);
    return forced ? forced : haveBytes ? detectFormatOfPlainFile(f.path, whole) : detectFormat(f.path);
}

void readOne(const ListedFile& f, const FormatInfo* forced, const ImportOptions& options, const std::atomic<bool>* cancel,
             const std::function<void(double)>& fileProgress, FlightRecorderGroupLists& groupLists, ShardedFile& out) {
    out.report.path = f.path;
    out.report.written = fileWriteTime(f.path);
    std::string& whole = wholeFileBuffer();
    bool haveBytes = false;
    const FormatInfo* format = formatOf(f, forced, whole, haveBytes);
    if (!format) {
        if (!f.fromFolder)
            throw Error(f.path + ": unknown format: not a file Faultline reads (known: " + formatNames() + "; use --format to name one)");
        out.report.format = "unknown";
        return;
    }
    out.report.format = std::string(format->name);
    ImportContext ctx{options, out.events, out.report, cancel, fileProgress, &groupLists};
    out.events.telemetry.setMaxSeries(options.maxSeries);
    try {
        if (haveBytes && format->importBytes) format->importBytes(f.path, whole, ctx);
        else format->import(f.path, ctx);
        out.events.telemetry.shrink();
    } catch (const TooManyTelemetrySeries& e) {
        throw Error(f.path + ": " + e.what());
    } catch (const Error&) {
        throw;
    } catch (const std::bad_alloc&) {
        throw Error(f.path + ": not enough memory to read it as " + std::string(format->name));
    } catch (const std::exception& e) {
        // A reader's slip (a library's type error, an index out of range) still names the
        // file; the library's words follow for whoever fixes the reader.
        throw Error(f.path + ": cannot be read as " + std::string(format->name) + " (unexpected content: " + e.what() + ")");
    }
}

// Reads the files on every core, each worker taking the next file in turn; memory stays at a
// chunk per worker plus what the files keep. The first error in input order is the one
// reported, as a sequential import would; files after it are not started.
void readInParallel(const std::vector<ListedFile>& files, const FormatInfo* forced, const ImportOptions& options,
                    const ProgressFn& progress, const std::atomic<bool>* cancel, std::vector<ShardedFile>& out) {
    std::uint64_t total = 0;
    for (const ListedFile& f : files) total += std::max<std::uint64_t>(f.size, 1);
    std::mutex progressMutex;
    std::vector<double> fractions(files.size(), 0.0);
    double doneWeight = 0;
    auto report = [&](std::size_t i, double fraction) {
        if (!progress || total == 0) return;
        std::lock_guard lock(progressMutex);
        const double weight = static_cast<double>(std::max<std::uint64_t>(files[i].size, 1));
        doneWeight += (fraction - fractions[i]) * weight;
        fractions[i] = fraction;
        progress(std::min(1.0, doneWeight / static_cast<double>(total)));
    };

    FlightRecorderGroupLists groupLists;
    forEachFileInParallel(
        files.size(), options.workers,
        [&](std::size_t i) {
            readOne(files[i], forced, options, cancel, [&, i](double fraction) { report(i, fraction); }, groupLists, out[i]);
            report(i, 1.0);
        },
        cancel);
}

// One file's events into the import's: moved from a file the import owns, copied from one
// lent to it (`Events` const). The first file's lists are taken whole where they can be.
template <typename Events>
void mergeEvents(ImportedEvents& into, Events&& from, const std::string& path) {
    constexpr bool lent = std::is_const_v<std::remove_reference_t<Events>>;
    auto append = [](auto& a, auto& b) {
        if constexpr (lent)
            a.insert(a.end(), b.begin(), b.end());
        else if (a.empty())
            a = std::move(b);
        else
            a.insert(a.end(), std::make_move_iterator(b.begin()), std::make_move_iterator(b.end()));
    };
    auto moved = [](auto& x) {
        if constexpr (lent)
            return std::remove_cvref_t<decltype(x)>(x);
        else
            return std::move(x);
    };
    append(into.failures, from.failures);
    append(into.collectives, from.collectives);
    append(into.flightRecorderDumps, from.flightRecorderDumps);
    append(into.steps, from.steps);
    append(into.inJobRestarts, from.inJobRestarts);
    append(into.checkpoints, from.checkpoints);
    append(into.jobs, from.jobs);
    append(into.placements, from.placements);
    into.worldSize = std::max(into.worldSize, from.worldSize);
    if (from.tensorParallel) into.tensorParallel = from.tensorParallel;
    if (from.pipelineParallel) into.pipelineParallel = from.pipelineParallel;
    if (from.dataParallel) into.dataParallel = from.dataParallel;
    if (from.gpusPerNode) into.gpusPerNode = from.gpusPerNode;
    if (from.rankHosts.size() > into.rankHosts.size()) into.rankHosts = moved(from.rankHosts);
    append(into.gpuBusIds, from.gpuBusIds);
    try {
        into.telemetry.append(moved(from.telemetry));
    } catch (const TooManyTelemetrySeries& e) {
        throw Error(path + ": " + e.what());
    }
    into.linkCounters.append(moved(from.linkCounters));
    if (from.topology) {
        if (into.topology)
            throw Error(path + ": a second topology file (the first was " + into.topologySource + "); import one topology per run");
        into.topology = moved(from.topology);
        into.topologySource = moved(from.topologySource);
    }
}

// A file's events into the import's, its times held to the rules (import_invariants.h); its
// report, as the rules left it. An owned file's events move; a lent one's are copied, and
// copied whole first only when a rule changes them.
FileReport mergeFile(ImportedEvents& into, ShardedFile& f, EpochNs newestWrite) {
    enforceTimeBounds(f.events, f.report, newestWrite);
    mergeEvents(into, std::move(f.events), f.report.path);
    return std::move(f.report);
}
// A file lent to the import, at `order` among its files.
struct LentFile {
    std::size_t order = 0;
    const ShardedFile* file = nullptr;
};
FileReport mergeFile(ImportedEvents& into, const LentFile& lent, EpochNs newestWrite) {
    const ShardedFile& f = *lent.file;
    FileReport report = f.report;
    if (withinTimeBounds(f.events, newestWrite)) {
        mergeEvents(into, f.events, report.path);
    } else {
        ImportedEvents events = f.events;
        enforceTimeBounds(events, report, newestWrite);
        mergeEvents(into, std::move(events), report.path);
    }
    return report;
}
std::size_t orderOf(const ShardedFile& f) { return f.order; }
std::size_t orderOf(const LentFile& f) { return f.order; }
const FileReport& reportOf(const ShardedFile& f) { return f.report; }
const FileReport& reportOf(const LentFile& f) { return f.file->report; }

}  // namespace

namespace {

const FormatInfo* forcedFormat(const ImportOptions& options) {
    if (options.format.empty()) return nullptr;
    const FormatInfo* forced = findFormat(options.format);
    if (!forced) throw Error("unknown format \"" + options.format + "\" (known: " + formatNames() + ")");
    return forced;
}

// Reads `files`, each standing at `orders[i]` among all inputs.
std::vector<ShardedFile> readFiles(const std::vector<ListedFile>& files, const std::vector<std::size_t>& orders, const ImportOptions& options,
                                   const ProgressFn& progress, const std::atomic<bool>* cancel) {
    // What each file gave, on its own: merged in input order once all are read, so the run is
    // the same whichever worker read which file. One array, filled in place: a copy of it
    // cost a kilobyte per file of a folder of a million.
    std::vector<ShardedFile> out(files.size());
    readInParallel(files, forcedFormat(options), options, progress, cancel, out);
    for (std::size_t i = 0; i < out.size(); ++i) out[i].order = orders[i];
    return out;
}

// The inputs a broken rule came from: for the run's span, the files that reach furthest
// back and forward (with their spans); for a table, the files that gave rows of its kind.
std::string blamedInputs(const RunViolation& violation, const std::vector<FileReport>& files) {
    std::vector<const FileReport*> blamed;
    if (violation.table == "meta") {
        const FileReport* earliest = nullptr;
        const FileReport* latest = nullptr;
        for (const FileReport& f : files) {
            if (f.first == 0 && f.last == 0) continue;
            if (!earliest || f.first < earliest->first) earliest = &f;
            if (!latest || f.last > latest->last) latest = &f;
        }
        if (earliest) blamed.push_back(earliest);
        if (latest && latest != earliest) blamed.push_back(latest);
    } else {
        const std::string table = violation.table;
        const std::string kind = table == "steps" || table == "rank_steps" ? "steps"
                                 : table == "checkpoints"                   ? "checkpoint"
                                 : table == "failures"                      ? "failures"
                                 : table == "jobs" || table == "downtimes"  ? "jobs"
                                                                            : "collectives";
        for (const FileReport& f : files)
            for (const auto& [name, n] : f.counts)
                if (n > 0 && name.find(kind) != std::string::npos) {
                    blamed.push_back(&f);
                    break;
                }
    }
    if (blamed.empty())
        for (const FileReport& f : files)
            if (f.format != "unknown") blamed.push_back(&f);
    std::string out;
    for (const FileReport* f : blamed) {
        out += (out.empty() ? "" : ", ") + f->path;
        if (violation.table == "meta" && (f->first != 0 || f->last != 0)) out += " (events from " + formatEpochNs(f->first) + " to " + formatEpochNs(f->last) + ")";
    }
    return out;
}

// The run from every input file as read, in input order.
// `File`: a ShardedFile the import owns, or a LentFile.
template <typename File>
ImportResult buildImport(std::vector<File> files, const ImportOptions& options, const std::string& runName, const std::string& inputsLabel) {
    std::sort(files.begin(), files.end(), [](const File& a, const File& b) { return orderOf(a) < orderOf(b); });
    ImportedEvents events;
    ImportResult result;
    result.summary.files.reserve(files.size());
    // The invariants every run holds (import_invariants.h): times first, file by file, so that
    // each file's report says what of it was re-resolved.
    EpochNs newestWrite = 0;
    for (const File& f : files) newestWrite = std::max(newestWrite, reportOf(f).written);
    for (File& f : files) result.summary.files.push_back(mergeFile(events, f, newestWrite));
    files = {};  // the emptied events of every owned file, released before the run is built
    const bool anyKnown = std::any_of(result.summary.files.begin(), result.summary.files.end(),
                                      [](const FileReport& f) { return f.format != "unknown"; });
    if (!anyKnown) throw Error("nothing to import: no file in " + inputsLabel + " is in a format Faultline reads (known: " + formatNames() + ")");
    if (!options.rankMapPath.empty())
        for (RankPlacement& p : readRankMap(options.rankMapPath)) events.placements.push_back(std::move(p));
    if (const std::vector<SpanGroup> spans = timeSpanGroups(result.summary.files); spans.size() > 1) {
        if (!options.allowDisjoint) throw DisjointSpans(disjointSpansText(spans, result.summary.files));
        result.summary.files.back().warnings.push_back("merged into one run as asked, although " + disjointSpansText(spans, result.summary.files, false));
    }

    events.worldSize = std::max(events.worldSize, options.worldSize);
    const std::vector<std::string> silentNotes = nameSilentRanks(events, options.worldSize);
    if (!result.summary.files.empty())
        for (const std::string& n : silentNotes) result.summary.files.back().notes.push_back(n);

    // The hang is read from the dumps first: building the run releases them.
    std::optional<HangReport> hang;
    if (!events.flightRecorderDumps.empty()) hang = analyzeHang(events.flightRecorderDumps);
    // Port counters that rose are cable failures like any other read from a log.
    addLinkDownFailures(events);
    BuildResult built = buildRun(events, events.topology, runName, {options.jobIds, options.jobName});
    result.run = std::move(built.run);
    result.stragglers = std::move(built.stragglers);
    if (hang) {
        result.run.hang = std::move(hang);
        addHangIncident(result.run);
    }
    if (options.runName.empty())
        if (const std::string job = jobRunName(result.run); !job.empty()) result.run.info.name = job;
    if (const auto violation = findRunViolation(result.run))
        throw Error(blamedInputs(*violation, result.summary.files) + ": cannot import: the run made of it would break a rule every reader of run files checks (" +
                    violation->text() + ")");
    result.summary.derivedTopology = built.derivedTopology;
    result.summary.hosts = result.run.topology.hosts.size();
    result.summary.gpus = result.run.topology.gpus.size();
    result.summary.runJobs = static_cast<std::size_t>(std::count_if(result.run.jobs.begin(), result.run.jobs.end(), [](const Job& j) { return j.inRun; }));
    result.summary.downtimes = result.run.downtimes.size();
    result.summary.plannedDowntimes = static_cast<std::size_t>(
        std::count_if(result.run.downtimes.begin(), result.run.downtimes.end(), [](const Downtime& d) { return d.planned; }));
    if (!built.warnings.empty() && !result.summary.files.empty())
        for (const std::string& w : built.warnings) result.summary.files.back().warnings.push_back(w);
    if (!built.notes.empty() && !result.summary.files.empty())
        for (const std::string& n : built.notes) result.summary.files.back().notes.push_back(n);
    return result;
}

std::string inputsLabel(const std::vector<std::string>& inputs) {
    return inputs.front() + (inputs.size() > 1 ? " (and the rest)" : "");
}

}  // namespace

ListedImport listImportFiles(const std::vector<std::string>& inputs, const ImportOptions& options) {
    forcedFormat(options);
    ListedImport listed;
    listed.runName = runNameFor(options, inputs);
    listed.label = inputs.empty() ? std::string("the sources pulled") : inputsLabel(inputs);
    listed.files = expandInputs(inputs, listed.warnings, &listed.folders);
    return listed;
}

std::vector<ShardedFile> readListedFiles(const std::vector<ListedFile>& files, const std::vector<std::size_t>& orders, const ImportOptions& options,
                                         const ProgressFn& progress, const std::atomic<bool>* cancel) {
    return readFiles(files, orders, options, progress, cancel);
}

std::string formatOfListedFile(const ListedFile& file, const ImportOptions& options) {
    bool haveBytes = false;
    const FormatInfo* format = formatOf(file, forcedFormat(options), wholeFileBuffer(), haveBytes);
    return format ? std::string(format->name) : std::string();
}

ReadImport readImportFiles(const std::vector<std::string>& inputs, const ImportOptions& options, const ProgressFn& progress,
                           const std::atomic<bool>* cancel) {
    ListedImport listed = listImportFiles(inputs, options);
    ReadImport read;
    read.runName = std::move(listed.runName);
    read.label = std::move(listed.label);
    read.warnings = std::move(listed.warnings);
    std::vector<std::size_t> orders(listed.files.size());
    for (std::size_t i = 0; i < orders.size(); ++i) orders[i] = i;
    read.files = readFiles(listed.files, orders, options, progress, cancel);
    return read;
}

namespace {

// buildImport of the files a listing found; what the listing skipped is said by the first file's report.
template <typename File>
ImportResult buildListedImport(std::vector<File> files, const ImportOptions& options, const std::string& runName, const std::string& inputsLabel,
                               const std::vector<std::string>& warnings) {
    if (files.empty()) throw Error("nothing to import: name files or folders");
    ImportResult result = buildImport(std::move(files), options, runName, inputsLabel);
    if (!result.summary.files.empty())
        result.summary.files.front().warnings.insert(result.summary.files.front().warnings.begin(), warnings.begin(), warnings.end());
    return result;
}

}  // namespace

ImportResult buildLentImport(const std::vector<const ShardedFile*>& files, const std::vector<const ShardedFile*>& pulled, const ImportOptions& options,
                             const std::string& runName, const std::string& inputsLabel, const std::vector<std::string>& warnings) {
    std::vector<LentFile> lent;
    std::size_t after = 0;
    for (const ShardedFile* f : files) {
        lent.push_back({f->order, f});
        after = std::max(after, f->order + 1);
    }
    // Pulled sources come after the files, as buildReadImport places them.
    for (const ShardedFile* p : pulled) lent.push_back({after++, p});
    return buildListedImport(std::move(lent), options, runName, inputsLabel, warnings);
}

ImportResult buildReadImport(ReadImport read, std::vector<ShardedFile> pulled, const ImportOptions& options) {
    const std::size_t order = read.files.size();
    for (std::size_t i = 0; i < pulled.size(); ++i) {
        pulled[i].order = order + i;
        read.files.push_back(std::move(pulled[i]));
    }
    return buildListedImport(std::move(read.files), options, read.runName, read.label, read.warnings);
}

ImportResult importFiles(const std::vector<std::string>& inputs, const ImportOptions& options, const ProgressFn& progress,
                         const std::atomic<bool>* cancel) {
    if (inputs.empty()) throw Error("nothing to import: name files or folders");
    return buildReadImport(readImportFiles(inputs, options, progress, cancel), {}, options);
}

ImportShard importShard(const std::vector<std::string>& inputs, const ImportOptions& options, int index, int count,
                        const ProgressFn& progress, const std::atomic<bool>* cancel) {
    if (inputs.empty()) throw Error("nothing to import: name files or folders");
    if (count < 1 || index < 0 || index >= count) throw Error("shard " + std::to_string(index + 1) + " of " + std::to_string(count) + " does not exist");
    forcedFormat(options);
    std::vector<std::string> warnings;
    const std::vector<ListedFile> all = expandInputs(inputs, warnings);
    // Every count-th file from the index-th: rank files in natural order spread evenly.
    std::vector<ListedFile> mine;
    std::vector<std::size_t> orders;
    for (std::size_t i = static_cast<std::size_t>(index); i < all.size(); i += static_cast<std::size_t>(count)) {
        mine.push_back(all[i]);
        orders.push_back(i);
    }
    ImportShard shard;
    shard.index = index;
    shard.count = count;
    shard.inputs = all.size();
    shard.runName = runNameFor(options, inputs);
    shard.files = readFiles(mine, orders, options, progress, cancel);
    // Shard files do not carry telemetry summaries yet: refuse rather than lose them.
    for (const ShardedFile& f : shard.files)
        if (!f.events.telemetry.empty())
            throw Error(f.report.path + ": GPU telemetry (" + f.report.format + ") cannot be imported in shards yet; import it without --shard");
    // What was skipped while listing the folders is said once, by the shard with the first file.
    if (index == 0 && !shard.files.empty())
        shard.files.front().report.warnings.insert(shard.files.front().report.warnings.begin(), warnings.begin(), warnings.end());
    return shard;
}

ImportResult mergeShards(const std::vector<std::string>& shardPaths, const ImportOptions& options) {
    if (shardPaths.empty()) throw Error("nothing to merge: name the shard files");
    std::vector<ShardedFile> files;
    std::vector<std::string> seen;
    std::string runName;
    int count = 0;
    std::size_t inputs = 0;
    for (const std::string& path : shardPaths) {
        ImportShard shard = readShardFile(path);
        if (seen.empty()) {
            count = shard.count;
            inputs = shard.inputs;
            runName = shard.runName;
            seen.assign(static_cast<std::size_t>(count), "");
        }
        if (shard.count != count || shard.inputs != inputs)
            throw Error(path + " is shard " + std::to_string(shard.index + 1) + " of " + std::to_string(shard.count) + " of another import (" +
                        shardPaths.front() + " is one of " + std::to_string(count) + ")");
        std::string& where = seen[static_cast<std::size_t>(shard.index)];
        if (!where.empty()) throw Error(path + " and " + where + " are both shard " + std::to_string(shard.index + 1) + " of " + std::to_string(count));
        where = path;
        for (ShardedFile& f : shard.files) files.push_back(std::move(f));
    }
    for (std::size_t i = 0; i < seen.size(); ++i)
        if (seen[i].empty()) throw Error("shard " + std::to_string(i + 1) + " of " + std::to_string(count) + " is missing: merge needs every shard");
    return buildImport(std::move(files), options, options.runName.empty() ? runName : options.runName, inputsLabel(shardPaths));
}

ImportSummary importToRunFile(const std::vector<std::string>& inputs, const std::string& output, const ImportOptions& options,
                              const ProgressFn& progress, const std::atomic<bool>* cancel) {
    ImportResult result = importFiles(inputs, options, progress, cancel);
    if (cancel && cancel->load()) throw ImportCancelled();
    writeRunFileWithFigures(result.run, output, result.pulls, &result.stragglers);
    result.summary.output = output;
    return result.summary;
}

}  // namespace faultline
