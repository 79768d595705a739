#include "analysis/summary.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace faultline {
namespace {

// A 10-hour run on 16 GPUs with two failures, one planned stop and two checkpoint saves,
// every figure worked out by hand.
Run handMadeRun() {
    faultline::Run run;
    run.info = {"hand-made", 0, 10 * kHour, "test"};
    run.topology = buildFabric(FabricShape{.gpus = 16});
    run.failures = {{1 * kHour, RootCause::GpuHbm3Memory, {ComponentKind::Gpu, 3}, 48, {3}, "Xid 48"},
                    {5 * kHour, RootCause::FaultyGpu, {ComponentKind::Gpu, 9}, 79, {9}, "Xid 79"}};
    // begin, detected, restarted, end, lost work, planned, cause, failure
    run.downtimes = {
        {1 * kHour, 1 * kHour + 1 * kMinute, 1 * kHour + 5 * kMinute, 1 * kHour + 7 * kMinute, 8 * kMinute, false,
         RootCause::GpuHbm3Memory, 0},
        {3 * kHour, 3 * kHour, 3 * kHour + 20 * kMinute, 3 * kHour + 22 * kMinute, 0, true, RootCause::PlannedMaintenance, -1},
        {5 * kHour, 5 * kHour + 2 * kMinute, 5 * kHour + 6 * kMinute, 5 * kHour + 8 * kMinute, 4 * kMinute, false,
         RootCause::FaultyGpu, 1},
    };
    run.checkpoints = {{30 * kMinute, 30 * kMinute + 10 * kSecond, 300, 1000, CheckpointKind::Save},
                       {2 * kHour, 2 * kHour + 20 * kSecond, 900, 1000, CheckpointKind::Save},
                       {1 * kHour + 5 * kMinute, 1 * kHour + 7 * kMinute, 300, 1000, CheckpointKind::Load}};
    return run;
}

TEST(Summary, FiguresOfAHandMadeRun) {
    const RunSummary s = summarize(handMadeRun());
    EXPECT_EQ(s.gpus, 16u);
    EXPECT_EQ(s.hosts, 2u);
    EXPECT_EQ(s.racks, 1u);
    EXPECT_EQ(s.planned, 1);
    EXPECT_EQ(s.unexpected, 2);
    EXPECT_EQ(s.downtime.detection, 3 * kMinute);
    EXPECT_EQ(s.downtime.restart, (4 + 4) * kMinute);
    EXPECT_EQ(s.downtime.reload, (2 + 2) * kMinute);
    EXPECT_EQ(s.downtime.lostWork, 12 * kMinute);
    EXPECT_EQ(s.downtime.planned, 22 * kMinute);
    EXPECT_EQ(s.mtbf, 5 * kHour);
    EXPECT_EQ(s.checkpoints, 2);
    EXPECT_EQ(s.meanCheckpointSave, 15 * kSecond);
    // Down 7 + 22 + 8 = 37 min, lost 12 min, saving 30 s: of 600 min.
    EXPECT_DOUBLE_EQ(s.ettr, (600.0 * 60 - 37 * 60 - 12 * 60 - 30) / (600.0 * 60));
}

TEST(Summary, CausesSortedByCountThenTableOrder) {
    faultline::Run run = handMadeRun();
    run.downtimes.push_back({9 * kHour, 9 * kHour, 9 * kHour, 9 * kHour, 0, false, RootCause::GpuHbm3Memory, 0, -1});
    const RunSummary s = summarize(run);
    ASSERT_EQ(s.causes.size(), 2u);
    EXPECT_EQ(s.causes[0].cause, RootCause::GpuHbm3Memory);
    EXPECT_EQ(s.causes[0].count, 2);
    EXPECT_NEAR(s.causes[0].percent, 66.67, 0.01);
    EXPECT_EQ(s.causes[1].cause, RootCause::FaultyGpu);

    run.downtimes.pop_back();
    const RunSummary tie = summarize(run);
    EXPECT_EQ(tie.causes[0].cause, RootCause::FaultyGpu);  // 1 each: the table puts faulty GPU first
}

TEST(Summary, DowntimePastTheEndIsClipped) {
    faultline::Run run = handMadeRun();
    run.downtimes.push_back({10 * kHour - kMinute, 10 * kHour + kMinute, 10 * kHour + 2 * kMinute, 10 * kHour + 3 * kMinute, 0,
                             false, RootCause::SoftwareBug, -1});
    const RunSummary s = summarize(run);
    EXPECT_EQ(s.downtime.detection, 4 * kMinute);
    EXPECT_EQ(s.downtime.restart, 8 * kMinute);
}

TEST(Summary, EmptyRun) {
    faultline::Run run;
    const RunSummary s = summarize(run);
    EXPECT_EQ(s.unexpected, 0);
    EXPECT_EQ(s.mtbf, 0);
    EXPECT_EQ(s.ettr, 0);
    EXPECT_NE(summaryToText(s).find("no failures"), std::string::npos);
}

TEST(Summary, JsonHasTheDocumentedKeys) {
    const nlohmann::json j = summaryToJson(summarize(handMadeRun()));
    for (const char* key : {"gpus", "hosts", "racks", "switches", "duration_s", "interruptions", "causes", "ettr", "downtime_s",
                            "mtbf_s", "checkpoints"})
        EXPECT_TRUE(j.contains(key)) << key;
    EXPECT_EQ(j["interruptions"]["planned"], 1);
    EXPECT_EQ(j["interruptions"]["unexpected"], 2);
    EXPECT_EQ(j["causes"][0]["cause"], "faulty_gpu");
    EXPECT_EQ(j["causes"][0]["count"], 1);
    EXPECT_DOUBLE_EQ(j["causes"][0]["percent"].get<double>(), 50.0);
    EXPECT_DOUBLE_EQ(j["downtime_s"]["lost_work"].get<double>(), 720.0);
    EXPECT_DOUBLE_EQ(j["downtime_s"]["planned"].get<double>(), 1320.0);
    EXPECT_DOUBLE_EQ(j["mtbf_s"].get<double>(), 18000.0);
    EXPECT_EQ(j["checkpoints"], 2);
    EXPECT_DOUBLE_EQ(j["duration_s"].get<double>(), 36000.0);
}

TEST(Summary, TextNamesTheFigures) {
    const std::string text = summaryToText(summarize(handMadeRun()));
    EXPECT_NE(text.find("Interruptions                3 (1 planned, 2 unexpected)"), std::string::npos) << text;
    EXPECT_NE(text.find("Mean time between failures   5 h"), std::string::npos) << text;
    EXPECT_NE(text.find("GPU HBM3 Memory"), std::string::npos);
}

}  // namespace
}  // namespace faultline

namespace faultline {
namespace {

// A run read from failure logs alone: its failures are interruptions, its ETTR is unknown.
TEST(Summary, FailuresWithoutDowntimesCountAndEttrIsUnknown) {
    faultline::Run run;
    run.info = {"kernel logs", 0, 10 * kHour, "import"};
    run.topology = buildFabric(FabricShape{.gpus = 16});
    run.failures = {{kHour, RootCause::FaultyGpu, {ComponentKind::Gpu, 1}, 79, {1}, "Xid 79"},
                    {2 * kHour, RootCause::PlannedMaintenance, {ComponentKind::Host, 0}, 0, {}, "Slurm job 7 CANCELLED"}};
    const RunSummary s = summarize(run);
    EXPECT_EQ(s.unexpected, 1);
    EXPECT_EQ(s.planned, 1);
    ASSERT_EQ(s.causes.size(), 1u);
    EXPECT_EQ(s.causes[0].cause, RootCause::FaultyGpu);
    EXPECT_FALSE(s.ettrKnown);
    EXPECT_TRUE(summaryToJson(s)["ettr"].is_null());
    EXPECT_NE(summaryToText(s).find("Effective training time      unknown"), std::string::npos) << summaryToText(s);
}

}  // namespace
}  // namespace faultline
