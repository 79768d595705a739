// Where a run opens: short evidence (a crash log, a hang's dumps) at its first symptom, saying
// what failed; a run with a history (the tiny preset's 2 days of steps) at its start.
#include "test_runs.h"

#include "analysis/hang_analysis.h"
#include "analysis/incidents.h"
#include "analysis/opening_instant.h"
#include "analysis/run_highlights.h"
#include "analysis/straggler_analysis.h"
#include "analysis/summary.h"

#include <gtest/gtest.h>

namespace faultline {
namespace {

TEST(OpeningInstant, ACrashLogOpensAtItsFailure) {
    const faultline::Run crash = test::oneMinuteCrash();
    const std::vector<Incident> incidents = buildIncidents(crash);
    EXPECT_TRUE(isShortEvidence(crash, incidents));
    EXPECT_EQ(openingInstant(crash, incidents), crash.failures.front().time);
}

TEST(OpeningInstant, AHangOpensAtItsFirstSymptom) {
    const faultline::Run hang = test::eighteenMillisecondHang();
    EXPECT_EQ(openingInstant(hang, buildIncidents(hang)), kMillisecond / 4);
}

TEST(OpeningInstant, ARunWithAHistoryOpensAtItsStart) {
    const faultline::Run& tiny = test::tinyRun();
    const std::vector<Incident> incidents = buildIncidents(tiny);
    ASSERT_GT(incidents.size(), kFewIncidents);
    EXPECT_FALSE(isShortEvidence(tiny, incidents));
    EXPECT_FALSE(openingInstant(tiny, incidents).has_value());
    // Nothing happened: nothing to open on.
    faultline::Run quiet = test::oneMinuteCrash();
    quiet.failures.clear();
    EXPECT_FALSE(openingInstant(quiet, buildIncidents(quiet)).has_value());
}

TEST(OpeningInstant, TheStatusLineSaysWhatFailedWhereNoStepsAreKnown) {
    const faultline::Run hang = test::eighteenMillisecondHang();
    faultline::Run noDowntime = hang;
    noDowntime.downtimes.clear();  // the dumps say the job hung, not when it was torn down
    const ReplayIndex replay(noDowntime);
    const std::string at = jobStatusText(noDowntime, replay, kMillisecond);
    EXPECT_EQ(at.rfind("failed: NCCL Watchdog Timeouts on ", 0), 0u) << at;
    EXPECT_NE(at.find("rank 10 never joined all_to_all"), std::string::npos) << at;
    EXPECT_EQ(at.find("step 0"), std::string::npos) << at;
    EXPECT_EQ(jobStatusText(noDowntime, replay, 0), "running (the files hold no training steps)");
    // With steps, the job's phase and step until the crash; at it, the crash.
    const faultline::Run crash = test::oneMinuteCrash();
    const ReplayIndex steps(crash);
    EXPECT_EQ(jobStatusText(crash, steps, 10 * kSecond + 1), "training, step 10");
    const std::string crashed = jobStatusText(crash, steps, crash.info.duration);
    EXPECT_EQ(crashed.rfind("failed: GPU HBM3 Memory on ", 0), 0u) << crashed;
    EXPECT_NE(crashed.find("CUDA error: uncorrectable ECC error encountered (after step 50)"), std::string::npos) << crashed;
}

// A hung job's status line says what the summary's headline says ("Hung: rank 10 never joined
// ..."), from the hang on: not "down: stopped by NCCL Watchdog Timeouts on ...".
TEST(OpeningInstant, AHungJobsStatusLineSaysTheHeadline) {
    faultline::Run hang = test::eighteenMillisecondHang();
    // The dumps' analysis as the import keeps it, and the failure addHangIncident words from it.
    HangFinding finding;
    finding.processGroup = "74";
    finding.groupRanks = {8, 9, 10, 11};
    finding.seq = 20947;
    finding.op = "nccl:all_to_all";
    finding.missing = {10};
    finding.stuck = {8, 9, 11};
    hang.hang = HangReport{16, {}, {finding}, {{0, {10}, {8, 9, 11}}}, {10}};
    hang.failures.front().detail = "NCCL hang (Flight Recorder): " + hangOriginText(*hang.hang, hang.hang->origins.front());
    ASSERT_FALSE(hang.downtimes.empty());
    const ReplayIndex replay(hang);
    const std::vector<std::string> highlights = runHighlights(hang, summarize(hang), analyzeStragglers(hang));
    ASSERT_FALSE(highlights.empty());
    ASSERT_EQ(highlights.front().rfind("Hung: ", 0), 0u) << highlights.front();
    const Nanos at = hang.downtimes.front().begin;
    EXPECT_EQ(jobStatusText(hang, replay, at), highlights.front());
    EXPECT_EQ(jobStatusText(hang, replay, at + kMillisecond), highlights.front());
    EXPECT_EQ(jobStatusText(hang, replay, at).find("down: "), std::string::npos);
}

// The replay's time label: a run of no length says its one instant and how its time is known,
// never "0 s of 0 s"; under a second, it counts in the units the run spans.
TEST(OpeningInstant, TheReplayTimeOfEvidenceWithNoSpanIsItsInstant) {
    EXPECT_EQ(replayTimeText(test::oneInstantCrash(), 0), "one instant: 2024-06-01 12:00:03 UTC (time inferred)");
    faultline::Run undated = test::oneInstantCrash();
    undated.failures.front().detail = "CUDA error: unknown error";
    EXPECT_EQ(replayTimeText(undated, 0), "one instant: 2024-06-01 12:00:03 UTC");
    EXPECT_EQ(replayTimeText(test::eighteenMillisecondHang(), 3250 * kMicrosecond), "3.25 ms of 18.0 ms");
    EXPECT_EQ(replayTimeText(test::oneMinuteCrash(), 30 * kSecond), "30.0 s of 1 min");
}

}  // namespace
}  // namespace faultline
