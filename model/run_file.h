#pragma once
// The run file (*.faultline): one SQLite database holding a whole run.
//
// Written in one transaction into a temporary file beside the target, which is renamed over
// the target only once complete: an interrupted write leaves no run behind. Opened
// read-only; a file that is not a run file, has a newer schema, or is corrupt gives one
// Error that says which.
#include "pulled_sources.h"
#include "run.h"

#include <functional>
#include <map>
#include <optional>
#include <string>

namespace faultline {

inline constexpr int kRunFileSchemaVersion = 8;
inline constexpr std::int32_t kRunFileApplicationId = 0x46544C4E;  // "FTLN"

// Figures worked out at import and stored beside the run (table run_figures, name -> text),
// written in the same transaction: `summary` reads them instead of every row. What they are
// is analysis/stored_figures.h's business; the run file keeps them as text.
using StoredFigures = std::map<std::string, std::string>;

// Works out the figures to store with a run: called once the writer has found the run one
// every reader accepts (findRunViolation), so that neither checks it twice.
using FiguresOf = std::function<StoredFigures(const Run&)>;

// `figures`: none when empty. `pulls`: the sources that were no file (model/pulled_sources.h),
// kept in the same transaction.
void writeRunFile(const Run& run, const std::string& path, const FiguresOf& figures = {}, const std::vector<PulledSource>& pulls = {});
// A run file written before for a run that has grown since (a followed job's folder,
// importers/folder_follower.h), brought up to `run` without writing it whole: a copy of it has
// its first `keptRankSteps` rows of rank_steps kept (the caller knows they are the run's
// first rows still), every other table made anew, in one transaction; the copy then replaces
// the file, so a reader sees the old run or the new one. The same run as writeRunFile's.
// Throws Error when `path` is no run file of this version or holds fewer rank steps.
void updateRunFile(const Run& run, const std::string& path, std::size_t keptRankSteps, const FiguresOf& figures = {},
                   const std::vector<PulledSource>& pulls = {});
Run readRunFile(const std::string& path);
// The stored figures, reading nothing else of the run but its header (checked as
// readRunFile checks it) and the figures' table; unset for a file written before they were
// stored (run file schema 7 without run_figures), which readRunFile still reads.
std::optional<StoredFigures> readStoredFigures(const std::string& path);

}  // namespace faultline
