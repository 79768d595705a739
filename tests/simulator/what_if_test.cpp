// What if: the same failures under another recovery policy.
#include "test_runs.h"

#include "analysis/run_comparison.h"
#include "analysis/summary.h"
#include "model/error.h"
#include "model/run_file.h"
#include "simulator/what_if.h"

#include <gtest/gtest.h>

#include <set>

namespace faultline {
namespace {

using test::oneFailureRun;

RecoveryPolicy every(Nanos interval) {
    RecoveryPolicy p;
    p.checkpointInterval = interval;
    return p;
}

TEST(WhatIf, LostWorkFollowsTheIntervalByHand) {
    const RecoveryPolicy every30m = every(30 * kMinute);
    const faultline::Run r30 = replayWithPolicy(oneFailureRun(), every30m);
    ASSERT_EQ(r30.downtimes.size(), 1u);
    // Saves end at 30m10s, 60m20s, 90m30s; the failure at 120 min loses 29m30s.
    EXPECT_EQ(r30.downtimes[0].lostWork, 29 * kMinute + 30 * kSecond);
    EXPECT_EQ(r30.downtimes[0].begin, 2 * kHour);
    EXPECT_EQ(r30.downtimes[0].detected, 2 * kHour + kMinute);       // as measured
    EXPECT_EQ(r30.downtimes[0].end, 2 * kHour + 7 * kMinute);

    RecoveryPolicy every5m = every(5 * kMinute);
    every5m.restart = 2 * kMinute;
    const faultline::Run r5 = replayWithPolicy(oneFailureRun(), every5m);
    // A save ends every 5m10s: the 23rd at 7,130 s, so 70 s are lost.
    EXPECT_EQ(r5.downtimes[0].lostWork, 70 * kSecond);
    EXPECT_EQ(r5.downtimes[0].restarted - r5.downtimes[0].detected, 2 * kMinute);  // the policy's restart
    EXPECT_EQ(r5.failures.size(), 1u);
    EXPECT_EQ(r5.failures[0].time, 2 * kHour);
    EXPECT_NE(r5.info.name.find("what if: checkpoint every 5 min"), std::string::npos) << r5.info.name;
}

TEST(WhatIf, ALongerIntervalLosesMoreWorkOnTheSameFailures) {
    const faultline::Run& source = test::tinyRun();
    const faultline::Run often = replayWithPolicy(source, every(5 * kMinute));
    const faultline::Run rarely = replayWithPolicy(source, every(60 * kMinute));
    // The same failures at the same moments on the same hardware.
    ASSERT_EQ(often.downtimes.size(), source.downtimes.size());
    ASSERT_EQ(rarely.downtimes.size(), source.downtimes.size());
    for (std::size_t i = 0; i < source.downtimes.size(); ++i) {
        EXPECT_EQ(often.downtimes[i].failure, source.downtimes[i].failure);
        EXPECT_EQ(often.downtimes[i].cause, source.downtimes[i].cause);
    }
    ASSERT_EQ(often.failures.size(), source.failures.size());
    for (std::size_t i = 0; i < source.failures.size(); ++i) {
        EXPECT_EQ(rarely.failures[i].time, source.failures[i].time);
        EXPECT_EQ(rarely.failures[i].gpus, source.failures[i].gpus);
    }
    const RunSummary s5 = summarize(often), s60 = summarize(rarely);
    EXPECT_EQ(s5.unexpected, s60.unexpected);
    EXPECT_GT(s60.downtime.lostWork, 3 * s5.downtime.lostWork);
    EXPECT_GT(s5.checkpoints, 5 * s60.checkpoints);
    EXPECT_GT(s5.ledger.whole.badput.checkpointSave, s60.ledger.whole.badput.checkpointSave);
    // The run's own policy replayed gives the run back, near enough.
    const RunSummary same = summarize(replayWithPolicy(source, every(10 * kMinute))), original = summarize(source);
    EXPECT_NEAR(toSeconds(same.downtime.lostWork), toSeconds(original.downtime.lostWork), 0.02 * toSeconds(original.downtime.lostWork));
    EXPECT_NEAR(same.ettr, original.ettr, 0.001);
    // The replayed runs are valid run files.
    test::ScratchDir dir;
    writeRunFile(rarely, dir.file("b.faultline"));
    EXPECT_EQ(readRunFile(dir.file("b.faultline")).downtimes.size(), source.downtimes.size());
}

TEST(WhatIf, OnlyWhatThePolicyChangesMoves) {
    // A reviewer reads the comparison of a run with its what-if: a checkpoint interval changes
    // the saves, the work lost to each failure and so ETTR and goodput. The straggler share
    // moves with them, as it should: a slow step later redone is lost work, not slowdown
    // (the ledger counts each nanosecond once). Steps replayed at other moments take what the
    // run's steps took there, so step times differ only within the noise the comparison shows
    // neutral. Every other figure (failures, planned work, restarts) is the run's own.
    const faultline::Run& source = test::tracedTinyRun();
    const RunComparison c = compareRuns(source, replayWithPolicy(source, every(60 * kMinute)));
    const std::set<std::string> policy{"ETTR", "Goodput", "Downtime: lost work", "Checkpoints saved", "Checkpoint interval (mean)",
                                       "Checkpoint save overhead", "Straggler slowdown (of run time)"};
    int moved = 0;
    for (const KpiRow& row : c.rows()) {
        const auto d = row.delta();
        if (policy.count(row.label)) {
            moved += d && *d != 0;
        } else if (row.label.rfind("Step time", 0) == 0) {
            EXPECT_EQ(row.verdict(), 0) << row.label << " moved by " << *d << ", beyond the noise";
        } else {
            EXPECT_TRUE(!d || *d == 0) << row.label << " moved by " << *d;
        }
    }
    EXPECT_GE(moved, 4);
    ASSERT_FALSE(c.causes.empty());
    for (const CauseComparison& x : c.causes) EXPECT_EQ(x.a, x.b) << rootCauseLabel(x.cause);

    // The same run against itself: nothing moves, and the verdict calls them even.
    const RunComparison self = compareRuns(source, source);
    ASSERT_FALSE(self.rows().empty());
    for (const KpiRow& row : self.rows()) EXPECT_TRUE(!row.delta() || *row.delta() == 0) << row.label;
    EXPECT_TRUE(self.verdict.even);
}

TEST(WhatIf, RefusesARunWithoutDowntimes) {
    faultline::Run run = oneFailureRun();
    run.downtimes.clear();
    try {
        replayWithPolicy(run, {});
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("no downtimes to replay"), std::string::npos) << e.what();
    }
    faultline::Run noSaves = oneFailureRun();
    noSaves.checkpoints.clear();
    EXPECT_THROW(replayWithPolicy(noSaves, {}), Error);
    RecoveryPolicy withSave;
    withSave.saveTime = 2 * kSecond;
    EXPECT_NO_THROW(replayWithPolicy(noSaves, withSave));
}

}  // namespace
}  // namespace faultline
