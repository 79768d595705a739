#pragma once
// The figures `faultline-cli summary` prints, worked out once when a run file is written and
// stored in it (model/run_file.h's StoredFigures), so that reading them costs a lookup, not a
// pass over every step, downtime and telemetry sample.
#include "analysis/straggler_analysis.h"
#include "model/run.h"
#include "model/run_file.h"

#include <optional>
#include <string>

namespace faultline {

// Stored figures of another format (an older or newer Faultline wrote them) are worked out
// again from the run. Bump when summary's text or JSON changes.
inline constexpr std::string_view kSummaryFiguresFormat = "summary-2";

struct SummaryFigures {
    std::string text;  // as `summary` prints it: highlights, then the figures
    std::string json;  // as `summary --json` prints it
};

// `stragglers`: analyzeStragglers(run), where it was worked out already (an import works it
// out as it builds the run: over tens of millions of collectives, a second pass would cost
// seconds); nullptr to work it out here.
SummaryFigures summaryFigures(const Run& run, const StragglerReport* stragglers = nullptr);
StoredFigures storedFigures(const Run& run, const StragglerReport* stragglers = nullptr);
// The figures stored in `stored` where they are of this build's format; unset otherwise.
std::optional<SummaryFigures> summaryFiguresIn(const StoredFigures& stored);
// writeRunFile with the run's figures stored beside it: what every writer of a run uses.
void writeRunFileWithFigures(const Run& run, const std::string& path, const std::vector<PulledSource>& pulls = {},
                             const StragglerReport* stragglers = nullptr);
// updateRunFile with the run's figures: a followed folder's run file brought up to date.
void updateRunFileWithFigures(const Run& run, const std::string& path, std::size_t keptRankSteps, const std::vector<PulledSource>& pulls = {},
                              const StragglerReport* stragglers = nullptr);

}  // namespace faultline
