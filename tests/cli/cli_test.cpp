// faultline-cli as a user runs it: the real binary, its output and its exit status.
#include "cli_command.h"
#include "test_runs.h"

#include "model/run_file.h"
#include "analysis/summary.h"

#include "analysis/run_highlights.h"
#include "analysis/straggler_analysis.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <array>
#include <cstdio>
#include <sys/wait.h>

namespace faultline {
namespace {

using test::runCli;
using test::ScratchDir;

using Result = test::CommandResult;

TEST(Cli, SimulateThenSummaryJson) {
    ScratchDir dir;
    const std::string path = dir.file("tiny.faultline");
    const Result sim = runCli("simulate --preset tiny --seed 7 -o " + path);
    ASSERT_EQ(sim.status, 0) << sim.output;
    EXPECT_NE(sim.output.find("256 GPUs"), std::string::npos) << sim.output;

    const Result summary = runCli("summary --json " + path);
    ASSERT_EQ(summary.status, 0) << summary.output;
    const nlohmann::json j = nlohmann::json::parse(summary.output);
    const RunSummary expected = summarize(test::tinyRun());
    EXPECT_EQ(j["gpus"], 256);
    EXPECT_EQ(j["interruptions"]["unexpected"], expected.unexpected);
    EXPECT_DOUBLE_EQ(j["ettr"].get<double>(), expected.ettr);
    EXPECT_EQ(j["checkpoints"], expected.checkpoints);
}

TEST(Cli, SummaryTextIsWhatTheModelFormats) {
    ScratchDir dir;
    const std::string path = dir.file("tiny.faultline");
    writeRunFile(test::tinyRun(), path);
    const Result r = runCli("summary " + path);
    ASSERT_EQ(r.status, 0);
    const RunSummary summary = summarize(test::tinyRun());
    // What the run holds leads, then the figures.
    EXPECT_EQ(r.output, highlightsToText(runHighlights(test::tinyRun(), summary, analyzeStragglers(test::tinyRun()))) + "\n" + summaryToText(summary));
    EXPECT_NE(r.output.find("interruptions ("), std::string::npos) << r.output;
}

// A minute of crash log: `summary` gives no ETTR or MTBF, null in JSON with the reason, the
// same words the app's tiles show; `incidents --id 1` says what to check next for the ECC error.
TEST(Cli, ShortEvidenceGivesReasonsNotFiguresAndWhatToCheckNext) {
    ScratchDir dir;
    const std::string path = dir.file("crash.faultline");
    writeRunFile(test::oneMinuteCrash(), path);
    const Result text = runCli("summary " + path);
    ASSERT_EQ(text.status, 0) << text.output;
    EXPECT_NE(text.output.find("Effective training time      not enough of the run to say: needs training steps or job spans covering at "
                               "least half of a run of an hour or more (the files hold a run of 1 min)"),
              std::string::npos)
        << text.output;
    EXPECT_NE(text.output.find("Mean time between failures   not enough of the run to say"), std::string::npos) << text.output;
    EXPECT_EQ(text.output.find("one every"), std::string::npos) << text.output;

    const Result json = runCli("summary --json " + path);
    ASSERT_EQ(json.status, 0) << json.output;
    const nlohmann::json j = nlohmann::json::parse(json.output);
    EXPECT_TRUE(j["ettr"].is_null());
    EXPECT_TRUE(j["mtbf_s"].is_null());
    EXPECT_EQ(j["figures"]["mtbf"]["reason"],
              "not enough of the run to say: needs at least two unexpected failures over at least a day of run (the files hold 1 "
              "unexpected failure in 1 min)");

    const Result chain = runCli("incidents --id 1 " + path);
    ASSERT_EQ(chain.status, 0) << chain.output;
    EXPECT_NE(chain.output.find("What to check next\n  Xid 48: Double-bit ECC error"), std::string::npos) << chain.output;
    EXPECT_NE(chain.output.find("\n  Uncorrectable ECC error (CUDA): "), std::string::npos) << chain.output;
    EXPECT_NE(chain.output.find("    source: NVIDIA, GPU Memory Error Management"), std::string::npos) << chain.output;
    const Result chainJson = runCli("incidents --id 1 --json " + path);
    ASSERT_EQ(chainJson.status, 0) << chainJson.output;
    EXPECT_EQ(nlohmann::json::parse(chainJson.output)[0]["next_checks"][1]["evidence"], "Uncorrectable ECC error (CUDA)");
}

// `simulate` stores the summary's figures in the run file; `summary` prints them, and the same
// file without them (as a build before they were stored wrote it) prints the same, worked out.
TEST(Cli, SummaryOfStoredFiguresEqualsTheOneWorkedOutFromAnOlderFile) {
    ScratchDir dir;
    const std::string path = dir.file("tiny.faultline");
    ASSERT_EQ(runCli("simulate --preset tiny --seed 7 -o " + path).status, 0);
    ASSERT_TRUE(readStoredFigures(path).has_value());
    const Result text = runCli("summary " + path);
    const Result json = runCli("summary --json " + path);
    ASSERT_EQ(text.status, 0) << text.output;
    ASSERT_EQ(json.status, 0) << json.output;
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, "DROP TABLE run_figures", nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
    ASSERT_FALSE(readStoredFigures(path).has_value());
    EXPECT_EQ(runCli("summary " + path).output, text.output);
    EXPECT_EQ(runCli("summary --json " + path).output, json.output);
    EXPECT_EQ(nlohmann::json::parse(json.output)["gpus"], 256);
}

TEST(Cli, OverridesReachTheSimulator) {
    ScratchDir dir;
    const std::string path = dir.file("custom.faultline");
    ASSERT_EQ(runCli("simulate --preset tiny --gpus 64 --days 0.25 --checkpoint-interval 30m --failures-per-day 0 --planned-per-day 0 -o " + path).status, 0);
    const faultline::Run run = readRunFile(path);
    EXPECT_EQ(run.topology.gpus.size(), 64u);
    EXPECT_EQ(run.info.duration, 6 * kHour);
    ASSERT_GE(run.checkpoints.size(), 2u);
    EXPECT_GE(run.checkpoints[1].begin - run.checkpoints[0].end, 30 * kMinute);
}

TEST(Cli, ErrorsNameTheProblem) {
    ScratchDir dir;
    Result r = runCli("summary " + dir.file("missing.faultline"));
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.output, "faultline-cli summary: " + dir.file("missing.faultline") + ": no such file\n");

    // A usage error: exit status 2, the message, the usage line and where to read more.
    r = runCli("simulate --preset tiny --seed x -o " + dir.file("a.faultline"));
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.output.rfind("faultline-cli simulate: option --seed expects a whole number, not \"x\"\nusage: faultline-cli simulate", 0), 0u)
        << r.output;

    r = runCli("simulate --preset tiny --checkpoint-interval soon -o " + dir.file("a.faultline"));
    EXPECT_NE(r.output.find("expects a duration such as 10m"), std::string::npos) << r.output;

    r = runCli("simulate --frobnicate -o " + dir.file("a.faultline"));
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.output.rfind("faultline-cli simulate: unknown option --frobnicate\n", 0), 0u) << r.output;

    r = runCli("teleport");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.output.find("unknown command \"teleport\""), std::string::npos);
}

}  // namespace
}  // namespace faultline
