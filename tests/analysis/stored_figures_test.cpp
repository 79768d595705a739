// The figures stored in a run file at import are the ones worked out from the run read back,
// and a run file written before they were stored still opens and gives the same summary.
#include "run_file_sql.h"
#include "stored_figure_checks.h"
#include "test_runs.h"

#include "analysis/stored_figures.h"
#include "model/run_file.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

namespace faultline {
namespace {

using test::runSql;

TEST(StoredFigures, EqualTheFiguresWorkedOutFromTheRunReadBack) {
    test::ScratchDir dir;
    const std::string path = dir.file("run.faultline");
    writeRunFileWithFigures(test::tinyRun(), path);
    const std::string text = test::storedFiguresChecked(path);
    EXPECT_NE(text.find("Effective training time"), std::string::npos) << text;
}

// Written by a build that stored no figures: the run reads whole, as before, and the
// summary is worked out from it.
TEST(StoredFigures, ARunFileWithoutThemStillOpens) {
    test::ScratchDir dir;
    const std::string path = dir.file("old.faultline");
    writeRunFileWithFigures(test::tinyRun(), path);
    runSql(path, "DROP TABLE run_figures");
    EXPECT_FALSE(readStoredFigures(path).has_value());
    const faultline::Run back = readRunFile(path);
    EXPECT_EQ(back.failures.size(), test::tinyRun().failures.size());
    EXPECT_EQ(summaryFigures(back).text, summaryFigures(test::tinyRun()).text);
}

// Figures of another format (another Faultline wrote them) are not used.
TEST(StoredFigures, AnotherFormatIsWorkedOutAgain) {
    test::ScratchDir dir;
    const std::string path = dir.file("other.faultline");
    writeRunFileWithFigures(test::tinyRun(), path);
    runSql(path, "UPDATE run_figures SET value = 'summary-0' WHERE name = 'summary_format'");
    const auto stored = readStoredFigures(path);
    ASSERT_TRUE(stored.has_value());
    EXPECT_FALSE(summaryFiguresIn(*stored).has_value());
}

}  // namespace
}  // namespace faultline
