#pragma once
// The figures a run file stores (analysis/stored_figures.h) are those `summary` works out from
// the run read back: what every writer of run files must keep true.
#include "analysis/stored_figures.h"
#include "model/run_file.h"

#include <gtest/gtest.h>

#include <string>

namespace faultline::test {

// The stored summary text of `path`, after checking it and its JSON against the figures worked
// out from the run read back; empty where a check failed.
inline std::string storedFiguresChecked(const std::string& path) {
    const auto stored = readStoredFigures(path);
    EXPECT_TRUE(stored.has_value()) << path << " stores no figures";
    if (!stored) return {};
    const auto figures = summaryFiguresIn(*stored);
    EXPECT_TRUE(figures.has_value()) << path << " stores figures of another format";
    if (!figures) return {};
    const SummaryFigures recomputed = summaryFigures(readRunFile(path));
    EXPECT_EQ(figures->text, recomputed.text);
    EXPECT_EQ(figures->json, recomputed.json);
    return figures->text;
}

}  // namespace faultline::test
