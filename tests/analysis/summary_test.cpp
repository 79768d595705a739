#include "test_runs.h"

#include "analysis/summary.h"
#include "model/time_notes.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace faultline {
namespace {

// A 10-hour run on 16 GPUs (one job from start to end) with two failures, one planned stop and
// two checkpoint saves, every figure worked out by hand.
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
    Job job;
    job.id = "7";
    job.start = 0;
    job.end = run.info.duration;
    job.inRun = true;
    run.jobs = {job};
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
    EXPECT_NE(summaryToText(s).find("Mean time between failures   not enough of the run to say"), std::string::npos) << summaryToText(s);
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
    // Two failures in 10 hours are no MTBF: null, with the reason beside it.
    EXPECT_TRUE(j["mtbf_s"].is_null());
    EXPECT_FALSE(j["figures"]["mtbf"]["known"].get<bool>());
    EXPECT_EQ(j["figures"]["mtbf"]["reason"],
              "not enough of the run to say: needs at least two unexpected failures over at least a day of run (the files hold 2 "
              "unexpected failures in 10 h)");
    EXPECT_TRUE(j["figures"]["ettr"]["known"].get<bool>());
    EXPECT_TRUE(j["figures"]["ettr"]["reason"].is_null());
    EXPECT_EQ(j["checkpoints"], 2);
    EXPECT_DOUBLE_EQ(j["duration_s"].get<double>(), 36000.0);
}

TEST(Summary, TextNamesTheFigures) {
    const std::string text = summaryToText(summarize(handMadeRun()));
    EXPECT_NE(text.find("Interruptions                3 (1 planned, 2 unexpected)"), std::string::npos) << text;
    EXPECT_NE(text.find("Mean time between failures   not enough of the run to say: needs at least two unexpected failures over at "
                        "least a day of run (the files hold 2 unexpected failures in 10 h)"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("GPU HBM3 Memory"), std::string::npos);
    EXPECT_NE(text.find("Cluster                      16 GPUs, 2 hosts, 1 rack, "), std::string::npos) << text;
    EXPECT_EQ(text.find("(inferred"), std::string::npos) << "a run whose evidence is dated starts when it says";
}

// A log with no date anywhere is placed at its file's last write: the summary says the start
// is inferred, in its text and its JSON, where a dated line would have given it.
TEST(Summary, AStartNoLineDatesIsSaidInferred) {
    faultline::Run run;
    run.info = {"undated", 1'700'000'000 * kSecond, 0, "import"};
    run.topology = buildFabric(FabricShape{.gpus = 8});
    run.failures = {{0, RootCause::SoftwareBug, {}, 0, {}, "Segmentation fault" + std::string(kTimeInferredNote)}};
    const RunSummary undated = summarize(run);
    EXPECT_TRUE(undated.startInferred);
    EXPECT_NE(summaryToText(undated).find("Started                      2023-11-14 22:13:20 UTC (inferred: no line of the files gives a date"),
              std::string::npos)
        << summaryToText(undated);
    EXPECT_TRUE(summaryToJson(undated)["start_inferred"].get<bool>());

    run.failures[0].detail = "Segmentation fault";  // its own line dated it
    EXPECT_FALSE(summarize(run).startInferred);
    run.failures[0].detail += kTimeInferredNote;
    run.steps = {{0, 1, kSecond}};  // a dated step beside the undated failure
    EXPECT_FALSE(summarize(run).startInferred);
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
    EXPECT_NE(summaryToText(s).find("Effective training time      not enough of the run to say: needs training steps or job spans "
                                    "covering at least half of a run of an hour or more (the files hold no training steps or job "
                                    "spans in 10 h of run)"),
              std::string::npos)
        << summaryToText(s);
}

}  // namespace
}  // namespace faultline

namespace faultline {
namespace {

// A job's log with its steps and its end (a cancel) but no restart: ETTR is 100% of what the
// files show, and every place that shows it says what it leaves out.
TEST(Summary, AnInterruptionWithoutDowntimeIsSaidBesideEttr) {
    faultline::Run run;
    run.info = {"one job", 0, 2 * kHour, "import"};
    run.topology = buildFabric(FabricShape{.gpus = 8});
    for (int i = 1; i <= 120; ++i) run.steps.push_back({i * kMinute, i, kMinute});
    run.failures = {{2 * kHour, RootCause::Unknown, {ComponentKind::Host, 0}, 0, {}, "Slurm job 7 cancelled on n1"}};
    run.jobShape = {8, 8, 2, 4, 1};
    const RunSummary s = summarize(run);
    EXPECT_TRUE(s.ettrKnown);
    EXPECT_DOUBLE_EQ(s.ettr, 1.0);
    EXPECT_EQ(s.unexpected, 1);
    EXPECT_EQ(s.withoutDowntime, 1);
    EXPECT_EQ(ettrCaveat(s), "not counting 1 interruption whose downtime the files do not show");
    const std::string text = summaryToText(s);
    EXPECT_NE(text.find("Effective training time      100.0% (goodput 100.0% after straggler slowdown; not counting 1 interruption whose "
                        "downtime the files do not show)"),
              std::string::npos)
        << text;
    EXPECT_EQ(summaryToJson(s)["interruptions"]["without_downtime"], 1);
    // The job's shape is part of the summary.
    EXPECT_NE(text.find("Job shape                    8 ranks: tensor 2 x pipeline 4 x data 1, 8 GPUs a node"), std::string::npos) << text;
    EXPECT_EQ(summaryToJson(s)["job_shape"]["pipeline_parallel"], 4);

    // With its downtime known, nothing is left out.
    run.downtimes = {{5 * kMinute, 5 * kMinute, 6 * kMinute, 7 * kMinute, 0, false, RootCause::Unknown, 0}};
    EXPECT_EQ(ettrCaveat(summarize(run)), "");
}

TEST(JobShape, ARankIsPlacedInMegatronsOrder) {
    const JobShape shape{32, 4, 4, 8, 1};
    EXPECT_EQ(rankRoleText(shape, 13), "tensor rank 1 of 4, pipeline stage 3 of 8, data replica 0 of 1");
    EXPECT_EQ(rankRoleText(JobShape{16, 8, 2, 2, 4}, 7), "tensor rank 1 of 2, pipeline stage 0 of 2, data replica 3 of 4");
    EXPECT_EQ(rankRoleText(shape, 32), "");                    // no such rank
    EXPECT_EQ(rankRoleText(JobShape{32, 4, 0, 0, 0}, 3), "");  // the split is unknown
    EXPECT_EQ(jobShapeText(JobShape{}), "");
}

TEST(Summary, YoungDalyIntervalNextToTheOneUsed) {
    const RunSummary s = summarize(test::tinyRun());
    EXPECT_GT(s.checkpointInterval, 9 * kMinute);  // the tiny preset saves every 10 min of training
    EXPECT_LT(s.checkpointInterval, 11 * kMinute);
    EXPECT_EQ(s.optimalCheckpointInterval, youngDalyInterval(s.meanCheckpointSave, s.mtbf));
    EXPECT_EQ(youngDalyInterval(2 * kSecond, kHour), 120 * kSecond);  // sqrt(2 x 2 x 3600) = 120
    EXPECT_EQ(youngDalyInterval(0, kHour), 0);
    const std::string text = summaryToText(s);
    EXPECT_NE(text.find("Young/Daly optimal interval"), std::string::npos) << text;
}

TEST(RunFile, TheLongestAllowedRunSummarisesWithoutOverflow) {
    // Ten years, the most a run file may hold: the figures must still come out finite.
    faultline::Run run = test::tinyRun();
    run.info.duration = 10LL * 365 * 24 * 3600 * kSecond;
    const RunSummary s = summarize(run);
    EXPECT_EQ(s.duration, run.info.duration);
    EXPECT_GT(s.ettr, 0.0);
    EXPECT_LE(s.ettr, 1.0);
    EXPECT_GE(s.mtbf, 0);
    EXPECT_NE(summaryToText(s).find("3650 d"), std::string::npos) << summaryToText(s);
}

}  // namespace
}  // namespace faultline
