// `faultline-cli compare` and `whatif` as a user runs them, on the hand-made runs whose
// comparison tests/analysis/run_comparison_test.cpp works out by hand.
#include "realdata.h"
#include "test_runs.h"

#include "model/run_file.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace faultline {
namespace {

using test::comparisonRunA;
using test::comparisonRunB;
using test::oneFailureRun;

TEST(RunComparison, CliJsonHasTheDocumentedKeys) {
    test::ScratchDir dir;
    writeRunFile(comparisonRunA(), dir.file("a.faultline"));
    writeRunFile(comparisonRunB(), dir.file("b.faultline"));
    const test::CommandResult r =
        test::runCommand(std::string(FAULTLINE_CLI) + " compare --json " + dir.file("a.faultline") + " " + dir.file("b.faultline"), false);
    ASSERT_EQ(r.status, 0) << r.output;
    const nlohmann::json j = nlohmann::json::parse(r.output);
    std::vector<std::string> keys;
    for (const auto& [k, v] : j.items()) keys.push_back(k);
    EXPECT_EQ(keys, (std::vector<std::string>{"a", "b", "causes", "delta", "step_time_s", "verdict"}));
    EXPECT_EQ(j["a"]["gpus"], 16);
    EXPECT_EQ(j["b"]["gpus"], 32);
    const nlohmann::json& d = j["delta"];
    EXPECT_NEAR(d["ettr"].get<double>(), (-720.0 - 1200 + 420 + 360 + 30) / 36000, 1e-12);
    EXPECT_TRUE(d["goodput"].is_number());
    EXPECT_TRUE(d["mtbf_s"].is_null()) << "ten-hour runs: MTBF needs a day of evidence";
    EXPECT_EQ(d["interruptions"]["planned"], 0);
    EXPECT_EQ(d["interruptions"]["unexpected"], 1);
    EXPECT_DOUBLE_EQ(d["downtime_s"]["detection"].get<double>(), 180);
    EXPECT_DOUBLE_EQ(d["downtime_s"]["restart"].get<double>(), 120);
    EXPECT_DOUBLE_EQ(d["downtime_s"]["reload"].get<double>(), 0);
    EXPECT_DOUBLE_EQ(d["downtime_s"]["lost_work"].get<double>(), 840);
    EXPECT_DOUBLE_EQ(d["downtime_s"]["planned"].get<double>(), 0);
    const nlohmann::json& s = j["step_time_s"];
    EXPECT_DOUBLE_EQ(s["mean_a"].get<double>(), 2.5);
    EXPECT_DOUBLE_EQ(s["mean_b"].get<double>(), 4);
    EXPECT_DOUBLE_EQ(s["median_a"].get<double>(), 2.5);
    EXPECT_DOUBLE_EQ(s["median_b"].get<double>(), 2);
    EXPECT_DOUBLE_EQ(s["ratio_mean"].get<double>(), 1.6);
    EXPECT_DOUBLE_EQ(s["ratio_median"].get<double>(), 0.8);
    ASSERT_EQ(j["causes"].size(), 2u);
    EXPECT_EQ(j["causes"][1], (nlohmann::json{{"cause", "software_bug"}, {"a", 0}, {"b", 1}}));
}

TEST(RunComparison, CliNamesAMissingRunFile) {
    test::ScratchDir dir;
    writeRunFile(comparisonRunA(), dir.file("a.faultline"));
    const test::CommandResult r =
        test::runCommand(std::string(FAULTLINE_CLI) + " compare " + dir.file("a.faultline") + " " + dir.file("nope.faultline"));
    EXPECT_EQ(r.status, 1) << r.output;
    EXPECT_NE(r.output.find("nope.faultline"), std::string::npos) << r.output;
    EXPECT_EQ(test::runCommand(std::string(FAULTLINE_CLI) + " compare " + dir.file("a.faultline")).status, 2);
}

// A real crash log (a Megatron-DeepSpeed ECC traceback, 25 s of lines) imported beside a
// simulated two-day run, compared as a user compares them: the verdict says what each is and
// that their losses cannot be compared, in the text and in --json; the crash log's GPU-hours
// lost read "not enough of the run to say" and are null, with no difference given.
TEST(RunComparison, CliComparesACrashLogWithALongRunWithoutAVerdictOnLosses) {
    FAULTLINE_REQUIRE_REALDATA();
    test::ScratchDir dir;
    const std::string cli = FAULTLINE_CLI;
    const std::string log = test::realData("console_logs/34-bigscience-tr1-13B-ecc-iteration-traceback.log");
    const test::CommandResult imported = test::runCommand(cli + " import " + log + " -o " + dir.file("crash.faultline"));
    ASSERT_EQ(imported.status, 0) << imported.output;
    const test::CommandResult simulated = test::runCommand(cli + " simulate --preset tiny -o " + dir.file("long.faultline"));
    ASSERT_EQ(simulated.status, 0) << simulated.output;

    const std::string runs = dir.file("crash.faultline") + " " + dir.file("long.faultline");
    const test::CommandResult text = test::runCommand(cli + " compare " + runs);
    ASSERT_EQ(text.status, 0) << text.output;
    EXPECT_NE(text.output.find("\nA is a short record of 1 incident ("), std::string::npos) << text.output;
    EXPECT_NE(text.output.find("; B is a run of 2 d on 256 GPUs: their goodput and losses cannot be compared"), std::string::npos) << text.output;
    EXPECT_EQ(text.output.find("fewer GPU-hours"), std::string::npos) << text.output;
    const std::size_t gpu = text.output.find("\n  GPU ");
    ASSERT_NE(gpu, std::string::npos) << text.output;
    EXPECT_NE(text.output.substr(gpu, text.output.find('\n', gpu + 1) - gpu).find("not enough of the run to say"), std::string::npos) << text.output;

    const test::CommandResult json = test::runCommand(cli + " compare --json " + runs, false);
    ASSERT_EQ(json.status, 0) << json.output;
    const nlohmann::json v = nlohmann::json::parse(json.output)["verdict"];
    EXPECT_NE(text.output.find(v["headline"].get<std::string>()), std::string::npos) << "the same words in both";
    EXPECT_FALSE(v["comparable"].get<bool>());
    EXPECT_TRUE(v["lost_gpu_hours_a"].is_null());
    EXPECT_TRUE(v["lost_gpu_hours_b"].is_number());
    EXPECT_TRUE(v["groups"][0]["a"].is_null());
    EXPECT_TRUE(v["groups"][0]["delta"].is_null());
}

TEST(WhatIf, CliWritesARunTheComparisonOpens) {
    test::ScratchDir dir;
    writeRunFile(oneFailureRun(), dir.file("a.faultline"));
    const std::string cli = FAULTLINE_CLI;
    const test::CommandResult r =
        test::runCommand(cli + " whatif " + dir.file("a.faultline") + " --checkpoint-interval 5m --save-time 10s -o " + dir.file("b.faultline"));
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("Downtime: lost work"), std::string::npos) << r.output;
    EXPECT_EQ(readRunFile(dir.file("b.faultline")).downtimes[0].lostWork, 70 * kSecond);
    EXPECT_EQ(test::runCommand(cli + " compare " + dir.file("a.faultline") + " " + dir.file("b.faultline")).status, 0);
    const test::CommandResult bad = test::runCommand(cli + " whatif " + dir.file("a.faultline") + " --checkpoint-interval soon -o x.faultline");
    EXPECT_EQ(bad.status, 2);
    EXPECT_NE(bad.output.find("--checkpoint-interval expects a duration"), std::string::npos) << bad.output;
    EXPECT_EQ(test::runCommand(cli + " whatif " + dir.file("a.faultline") + " -o x.faultline").status, 2);
}

}  // namespace
}  // namespace faultline
