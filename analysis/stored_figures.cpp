#include "stored_figures.h"

#include "analysis/run_highlights.h"
#include "analysis/straggler_analysis.h"
#include "analysis/summary.h"
#include "model/json_text.h"

#include <nlohmann/json.hpp>

namespace faultline {

SummaryFigures summaryFigures(const Run& run, const StragglerReport* stragglers) {
    const RunSummary summary = summarize(run);
    const std::vector<std::string> highlights = runHighlights(run, summary, stragglers ? *stragglers : analyzeStragglers(run));
    nlohmann::json json = summaryToJson(summary);
    json["highlights"] = highlights;
    // What the run holds leads, as in the app's summary panel.
    return {highlightsToText(highlights) + "\n" + summaryToText(summary), jsonText(json)};
}

StoredFigures storedFigures(const Run& run, const StragglerReport* stragglers) {
    SummaryFigures f = summaryFigures(run, stragglers);
    return {{"summary_format", std::string(kSummaryFiguresFormat)}, {"summary_text", std::move(f.text)}, {"summary_json", std::move(f.json)}};
}

std::optional<SummaryFigures> summaryFiguresIn(const StoredFigures& stored) {
    const auto format = stored.find("summary_format");
    const auto text = stored.find("summary_text");
    const auto json = stored.find("summary_json");
    if (format == stored.end() || format->second != kSummaryFiguresFormat || text == stored.end() || json == stored.end()) return std::nullopt;
    return SummaryFigures{text->second, json->second};
}

namespace {

// The figures the writer asks for once it has checked the run: a run it refuses is refused
// before any figure is worked out from it.
FiguresOf figuresWith(const StragglerReport* stragglers) {
    return [stragglers](const Run& checked) { return storedFigures(checked, stragglers); };
}

}  // namespace

void writeRunFileWithFigures(const Run& run, const std::string& path, const std::vector<PulledSource>& pulls, const StragglerReport* stragglers) {
    writeRunFile(run, path, figuresWith(stragglers), pulls);
}

void updateRunFileWithFigures(const Run& run, const std::string& path, std::size_t keptRankSteps, const std::vector<PulledSource>& pulls,
                              const StragglerReport* stragglers) {
    updateRunFile(run, path, keptRankSteps, figuresWith(stragglers), pulls);
}

}  // namespace faultline
