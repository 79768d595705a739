#pragma once
// What a run holds, in a few lines, leading the summary: a hung job says first where the
// hang began; a trace-only run of 21 ms says which ranks were late and how far step times
// spread, not "ETTR 100%"; a crash log's minute says what failed ("Failed: GPU HBM3 Memory on
// ...: CUDA error: ..."), as the window that opens on it does; a month of logs says how often it failed. The app's summary panel and `faultline-cli summary` print these.
#include "analysis/straggler_analysis.h"
#include "analysis/summary.h"

#include <string>
#include <vector>

namespace faultline {

std::vector<std::string> runHighlights(const Run& run, const RunSummary& summary, const StragglerReport& stragglers);
// "Highlights:" and the lines, indented, for the CLI's text summary.
std::string highlightsToText(const std::vector<std::string>& lines);

}  // namespace faultline
