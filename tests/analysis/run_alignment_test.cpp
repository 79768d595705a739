// The comparison's clock mapped onto two runs: by time since start, by step, by incident.
#include "analysis/run_alignment.h"

#include <gtest/gtest.h>

namespace faultline {
namespace {

// Steps every `every` from `from`, numbered from `first`.
faultline::Run steppedRun(Nanos duration, Nanos from, Nanos every, std::int64_t first, int count) {
    faultline::Run run;
    run.info = {"r", 0, duration, "test"};
    for (int i = 0; i < count; ++i) run.steps.push_back({from + i * every, first + i, every});
    return run;
}

TEST(RunAlignment, ByTimeSinceStartIsTheSameInstantInBoth) {
    const faultline::Run a = steppedRun(10 * kHour, kSecond, kSecond, 1, 10);
    const faultline::Run b = steppedRun(4 * kHour, kSecond, kSecond, 1, 10);
    RunAlignment align(a, b);
    EXPECT_EQ(align.mode(), AlignmentMode::Time);
    EXPECT_EQ(align.timeInA(3 * kHour), 3 * kHour);
    EXPECT_EQ(align.timeInB(3 * kHour), 3 * kHour);
    EXPECT_EQ(align.timeInB(6 * kHour), 4 * kHour);  // B has ended: it stays at its end
    EXPECT_EQ(align.clockBegin(), 0);
    EXPECT_EQ(align.clockEnd(), 10 * kHour);
}

TEST(RunAlignment, ByStepFindsWhenTheOtherRunReachedTheSameStep) {
    // A steps every 2 s, B every 3 s: step 10 is at 20 s in A and 30 s in B.
    const faultline::Run a = steppedRun(kHour, 2 * kSecond, 2 * kSecond, 1, 1000);
    const faultline::Run b = steppedRun(kHour, 3 * kSecond, 3 * kSecond, 1, 100);
    RunAlignment align(a, b);
    align.alignBySteps();
    EXPECT_EQ(RunAlignment::stepAt(a, 21 * kSecond), 10);
    EXPECT_EQ(align.timeInB(21 * kSecond), 30 * kSecond);
    EXPECT_EQ(align.timeInB(kSecond), 0);                // before A's first step
    EXPECT_EQ(align.clockForB(30 * kSecond), 20 * kSecond);
    EXPECT_EQ(align.timeInB(400 * kSecond), kHour);  // step 200: B never got there, so it shows its end
}

TEST(RunAlignment, ByStepUsesTheFirstTimeAStepWasReachedAfterARestart) {
    faultline::Run b = steppedRun(kHour, kSecond, kSecond, 1, 20);  // steps 1..20 at 1..20 s
    // Restarted from step 10's checkpoint: steps 11.. again from 100 s.
    for (int i = 0; i < 20; ++i) b.steps.push_back({100 * kSecond + i * kSecond, 11 + i, kSecond});
    const faultline::Run a = steppedRun(kHour, 10 * kSecond, 10 * kSecond, 1, 30);
    RunAlignment align(a, b);
    align.alignBySteps();
    EXPECT_EQ(align.timeInB(150 * kSecond), 15 * kSecond);   // A at step 15: B first reached it at 15 s
    EXPECT_EQ(align.timeInB(250 * kSecond), 114 * kSecond);  // step 25: only after the restart
}

TEST(RunAlignment, ByIncidentKeepsBothAtTheSameDistanceFromIt) {
    const faultline::Run a = steppedRun(10 * kHour, kSecond, kSecond, 1, 1);
    const faultline::Run b = steppedRun(12 * kHour, kSecond, kSecond, 1, 1);
    RunAlignment align(a, b);
    align.alignByIncident(2 * kHour, 5 * kHour);
    EXPECT_EQ(align.mode(), AlignmentMode::Incident);
    EXPECT_EQ(align.timeInA(2 * kHour), 2 * kHour);
    EXPECT_EQ(align.timeInB(2 * kHour), 5 * kHour);
    EXPECT_EQ(align.timeInB(2 * kHour + 10 * kMinute), 5 * kHour + 10 * kMinute);
    EXPECT_EQ(align.clockForB(5 * kHour), 2 * kHour);
    // B's first 3 hours come before A's start on the clock.
    EXPECT_EQ(align.clockBegin(), -3 * kHour);
    EXPECT_EQ(align.clockEnd(), 10 * kHour);
    EXPECT_EQ(align.timeInA(-kHour), 0);
    align.alignByTime();
    EXPECT_EQ(align.timeInB(2 * kHour), 2 * kHour);
}

}  // namespace
}  // namespace faultline
