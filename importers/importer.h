#pragma once
// The one entry point the CLI and the app share: read files and folders in whatever formats
// they are, build a run, and (optionally) write it. Nothing is written unless every file
// was read; Cancel stops at the next chunk and writes nothing.
#include "importers/events/import_context.h"
#include "importers/events/import_report.h"
#include "importers/shard_file.h"

#include "analysis/straggler_analysis.h"
#include "model/pulled_sources.h"
#include "model/run.h"

#include <atomic>
#include <string>
#include <vector>

namespace faultline {

struct ImportResult {
    Run run;
    ImportSummary summary;
    std::vector<PulledSource> pulls;  // sources that were no file (remote/), for writeRunFile
    StragglerReport stragglers;       // analyzeStragglers(run), worked out as the run was built: for writeRunFileWithFigures
};

// Files named directly must be in a known format (else Error naming the file); files found
// inside a folder in no known format are listed as "unknown" and skipped, since folders hold
// READMEs and licences beside the data.
ImportResult importFiles(const std::vector<std::string>& inputs, const ImportOptions& options,
                         const ProgressFn& progress = {}, const std::atomic<bool>* cancel = nullptr);

// One shard of a sharded import: every `count`-th of the input files (folders expanded, in
// natural order) from the `index`-th (0-based). Write it with writeShardFile.
ImportShard importShard(const std::vector<std::string>& inputs, const ImportOptions& options, int index, int count,
                        const ProgressFn& progress = {}, const std::atomic<bool>* cancel = nullptr);

// Reads the shard files of one sharded import (all of them, any order) and builds the run a
// single import of all their inputs gives.
ImportResult mergeShards(const std::vector<std::string>& shardPaths, const ImportOptions& options);

// The files read but not yet built into a run, so that a source that is no file (a pull from
// a Prometheus server, remote/) can look at them first (the hosts of the run, of a job) and be
// joined before the run is built. No inputs is allowed here: a pull may be all there is.
struct ReadImport {
    std::vector<ShardedFile> files;
    std::string runName;
    std::string label;                  // the inputs, as error messages name them
    std::vector<std::string> warnings;  // what listing the folders skipped
};
ReadImport readImportFiles(const std::vector<std::string>& inputs, const ImportOptions& options, const ProgressFn& progress = {},
                           const std::atomic<bool>* cancel = nullptr);
// readImportFiles in two steps, for following a folder (importers/folder_follower.h), which
// lists the files at every look and reads only those that changed: the files as a folder
// import lists them (folders expanded, hidden files skipped, natural order), then some of
// them read as it reads them, each standing at `orders[i]` among all.
struct ListedFile {
    std::string path;
    bool fromFolder = false;  // in a folder named: a file in no known format is skipped, not refused
    std::uint64_t size = 0;
};
struct ListedImport {
    std::vector<ListedFile> files;
    std::vector<std::string> folders;  // walked to find them: what a watcher of changes watches
    std::string runName;
    std::string label;
    std::vector<std::string> warnings;
};
ListedImport listImportFiles(const std::vector<std::string>& inputs, const ImportOptions& options);
std::vector<ShardedFile> readListedFiles(const std::vector<ListedFile>& files, const std::vector<std::size_t>& orders, const ImportOptions& options,
                                         const ProgressFn& progress = {}, const std::atomic<bool>* cancel = nullptr);
// The name of the format readListedFiles reads `file` as ("training-log", ...); empty for none.
std::string formatOfListedFile(const ListedFile& file, const ImportOptions& options);
// The run from what was read and what was pulled: each pulled source is reported as a file
// of its own (its report's path names it), after the files.
ImportResult buildReadImport(ReadImport read, std::vector<ShardedFile> pulled, const ImportOptions& options);
// The same of files the caller keeps (a followed folder's, read again only when they change):
// each file's events are copied into the run once, never the whole file first. `warnings`:
// what listing the folders skipped.
ImportResult buildLentImport(const std::vector<const ShardedFile*>& files, const std::vector<const ShardedFile*>& pulled, const ImportOptions& options,
                             const std::string& runName, const std::string& inputsLabel, const std::vector<std::string>& warnings);

// importFiles, then writes the run file in one transaction.
ImportSummary importToRunFile(const std::vector<std::string>& inputs, const std::string& output,
                              const ImportOptions& options, const ProgressFn& progress = {},
                              const std::atomic<bool>* cancel = nullptr);

}  // namespace faultline
