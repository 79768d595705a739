// faultline-cli as a user runs it: the real binary, its output and its exit status.
#include "test_runs.h"

#include "model/run_file.h"
#include "analysis/summary.h"

#include "analysis/run_highlights.h"
#include "analysis/straggler_analysis.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <array>
#include <cstdio>
#include <sys/wait.h>

namespace faultline {
namespace {

using test::ScratchDir;

using Result = test::CommandResult;

Result runCli(const std::string& args) { return test::runCommand(std::string(FAULTLINE_CLI) + " " + args); }

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
