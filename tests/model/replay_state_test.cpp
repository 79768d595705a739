// The replay state at time t, without rendering: hand-made runs with known answers, and the
// simulated tiny run checked against a plain scan of all its events at many instants.
#include "test_runs.h"

#include "model/replay_state.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace faultline {
namespace {

// 2 hosts x 8 GPUs in one rack, one hour long: a GPU failure at 10 min answered by a downtime
// until 20 min, a straggler, a checkpoint save and a planned stop.
Run handMadeRun() {
    Run run;
    FabricShape shape;
    shape.gpus = 16;
    shape.ctswPerZone = 1;
    shape.atswCount = 1;
    run.topology = buildFabric(shape);
    run.info.duration = kHour;
    for (Nanos t = 6 * kSecond; t < kHour; t += 6 * kSecond) run.steps.push_back({t, t / (6 * kSecond), 6 * kSecond});

    Failure f;
    f.time = 10 * kMinute;
    f.cause = RootCause::GpuHbm3Memory;
    f.component = {ComponentKind::Gpu, 3};
    f.gpus = {3};
    run.failures.push_back(f);
    Downtime d;
    d.begin = 10 * kMinute;
    d.detected = 11 * kMinute;
    d.restarted = 15 * kMinute;
    d.end = 20 * kMinute;
    d.cause = f.cause;
    d.failure = 0;
    run.downtimes.push_back(d);
    Downtime planned;
    planned.begin = 50 * kMinute;
    planned.detected = planned.begin;
    planned.restarted = 55 * kMinute;
    planned.end = 57 * kMinute;
    planned.planned = true;
    planned.cause = RootCause::PlannedMaintenance;
    run.downtimes.push_back(planned);

    run.checkpoints.push_back({5 * kMinute, 5 * kMinute + 30 * kSecond, 50, 1, CheckpointKind::Save});
    run.checkpoints.push_back({15 * kMinute, 20 * kMinute, 50, 1, CheckpointKind::Load});
    run.stragglers.push_back({9, 25 * kMinute, 40 * kMinute, 1.25, "thermal throttling"});
    return run;
}

TEST(ReplayState, FailedGpuIsFailedFromItsFailureUntilTheRestart) {
    const faultline::Run run = handMadeRun();
    const ReplayIndex index(run);
    EXPECT_EQ(index.statesAt(10 * kMinute - kSecond)[3].state, GpuState::Training);
    EXPECT_EQ(index.statesAt(10 * kMinute)[3].state, GpuState::Failed);
    EXPECT_EQ(index.statesAt(15 * kMinute - 1)[3].state, GpuState::Failed);
    EXPECT_NE(index.statesAt(15 * kMinute)[3].state, GpuState::Failed);
}

// A crash on a console log's last line: nothing answers it before the run ends, so its GPU is
// failed at the run's last instant (where the replay opens on it) and never "replaced".
TEST(ReplayState, AFailureOnTheLastInstantIsFailedThereAndNotReplaced) {
    const faultline::Run crash = test::oneMinuteCrash();
    const ReplayIndex index(crash);
    const Nanos at = crash.failures.front().time;
    EXPECT_EQ(index.statesAt(at - 1)[12].state, GpuState::Training);
    EXPECT_EQ(index.statesAt(at)[12].state, GpuState::Failed);
    EXPECT_EQ(index.statesAt(crash.info.duration)[12].state, GpuState::Failed);
    EXPECT_FALSE(index.statesAt(crash.info.duration)[12].replaced);

    faultline::Run atTheEnd = crash;
    atTheEnd.failures.front().time = atTheEnd.info.duration;  // the log's very last line
    const ReplayIndex last(atTheEnd);
    EXPECT_EQ(last.statesAt(atTheEnd.info.duration)[12].state, GpuState::Failed);
    EXPECT_FALSE(last.statesAt(atTheEnd.info.duration)[12].replaced);
}

TEST(ReplayState, OtherGpusWaitWithTheJobAndThenReloadTheCheckpoint) {
    const faultline::Run run = handMadeRun();
    const ReplayIndex index(run);
    EXPECT_EQ(index.statesAt(12 * kMinute)[0].state, GpuState::Down);
    EXPECT_EQ(index.statesAt(16 * kMinute)[0].state, GpuState::Checkpointing);
    EXPECT_EQ(index.statesAt(20 * kMinute)[0].state, GpuState::Training);
    EXPECT_EQ(index.statesAt(5 * kMinute + kSecond)[7].state, GpuState::Checkpointing);
}

TEST(ReplayState, ReplacedHardwareStaysMarkedAfterTheRestart) {
    const faultline::Run run = handMadeRun();
    const ReplayIndex index(run);
    EXPECT_FALSE(index.statesAt(14 * kMinute)[3].replaced);
    EXPECT_TRUE(index.statesAt(15 * kMinute)[3].replaced);
    EXPECT_TRUE(index.statesAt(59 * kMinute)[3].replaced);
    EXPECT_FALSE(index.statesAt(59 * kMinute)[4].replaced);
}

TEST(ReplayState, StragglerCarriesItsSlowdownOnlyWhileTheJobTrains) {
    const faultline::Run run = handMadeRun();
    const ReplayIndex index(run);
    const GpuVisual v = index.statesAt(30 * kMinute)[9];
    EXPECT_EQ(v.state, GpuState::Straggling);
    EXPECT_EQ(v.slowdownPercent, 25);
    EXPECT_EQ(index.statesAt(24 * kMinute)[9].state, GpuState::Training);
    EXPECT_EQ(index.statesAt(40 * kMinute)[9].state, GpuState::Training);
}

// A GPU no trace covers has no pace to show: "no data" while the job trains, but it waits
// with the whole job when the job is down, and fails like any other GPU.
TEST(ReplayState, UntracedGpuIsNoDataWhileTheJobTrains) {
    faultline::Run run = handMadeRun();
    run.untracedGpus = {3, 12};
    const ReplayIndex index(run);
    EXPECT_EQ(index.statesAt(2 * kMinute)[12].state, GpuState::NoData);
    EXPECT_EQ(index.statesAt(2 * kMinute)[11].state, GpuState::Training);
    EXPECT_EQ(index.statesAt(10 * kMinute)[3].state, GpuState::Failed);
    EXPECT_EQ(index.statesAt(12 * kMinute)[12].state, GpuState::Down);
    EXPECT_EQ(index.statesAt(5 * kMinute + kSecond)[12].state, GpuState::Checkpointing);
    EXPECT_EQ(index.statesAt(30 * kMinute)[12].state, GpuState::NoData);
    EXPECT_STREQ(gpuStateName(GpuState::NoData), "no data");
}

TEST(ReplayState, JobStatusNamesPhaseStepAndCause) {
    const faultline::Run run = handMadeRun();
    const ReplayIndex index(run);
    JobStatus s = index.jobAt(9 * kMinute + 1);
    EXPECT_EQ(s.phase, JobPhase::Training);
    EXPECT_EQ(s.step, 90);
    EXPECT_EQ(describeJob(run, s), "training, step 90");

    s = index.jobAt(14 * kMinute + 10 * kSecond);
    EXPECT_EQ(s.phase, JobPhase::Restarting);
    EXPECT_EQ(s.downtime, 0);
    EXPECT_EQ(describeJob(run, s), "down: restart after GPU HBM3 Memory on r0000-h0-gpu3, 4 min 10 s");

    // At the instant the job went down there is no duration to tell yet ("..., 0 s").
    s = index.jobAt(10 * kMinute);
    ASSERT_NE(s.phase, JobPhase::Training);
    EXPECT_EQ(describeJob(run, s).find(", 0"), std::string::npos) << describeJob(run, s);

    s = index.jobAt(52 * kMinute);
    EXPECT_EQ(s.phase, JobPhase::Restarting);
    EXPECT_EQ(describeJob(run, s).rfind("down: restart after planned maintenance", 0), 0u) << describeJob(run, s);
}

TEST(ReplayState, NavigatesStepsEventsAndIncidents) {
    const faultline::Run run = handMadeRun();
    const ReplayIndex index(run);
    EXPECT_EQ(index.nextStep(60 * kSecond), 66 * kSecond);
    EXPECT_EQ(index.previousStep(60 * kSecond), 54 * kSecond);
    EXPECT_EQ(index.nextIncident(0), 10 * kMinute);
    EXPECT_EQ(index.nextIncident(10 * kMinute), 50 * kMinute);
    EXPECT_EQ(index.previousIncident(50 * kMinute), 10 * kMinute);
    EXPECT_FALSE(index.previousIncident(10 * kMinute).has_value());
    EXPECT_EQ(index.nextEvent(10 * kMinute), 11 * kMinute);
    EXPECT_EQ(index.previousEvent(25 * kMinute), 20 * kMinute);
    EXPECT_EQ(index.stepTime(90), 9 * kMinute);
    EXPECT_EQ(index.failuresBetween(9 * kMinute, 10 * kMinute), std::vector<std::int32_t>{0});
    EXPECT_TRUE(index.failuresBetween(10 * kMinute, 11 * kMinute).empty());
}

// The same answers as a scan over every event, at many instants of a real simulated run.
std::vector<GpuVisual> scanStates(const Run& run, Nanos t) {
    std::vector<GpuVisual> out(run.topology.gpus.size());
    GpuState base = GpuState::Training;
    for (const Checkpoint& c : run.checkpoints)
        if (t >= c.begin && t < c.end) base = GpuState::Checkpointing;
    for (const Downtime& d : run.downtimes)
        if (t >= d.begin && t < d.end) base = t >= d.restarted ? GpuState::Checkpointing : GpuState::Down;
    for (GpuVisual& v : out) v.state = base;
    for (const StragglerEpisode& s : run.stragglers) {
        GpuVisual& v = out[static_cast<std::size_t>(s.gpu)];
        if (t >= s.begin && t < s.end && (v.state == GpuState::Training || v.state == GpuState::Straggling)) {
            v.state = GpuState::Straggling;
            v.slowdownPercent = std::max<std::uint8_t>(v.slowdownPercent, static_cast<std::uint8_t>(std::clamp<long>(std::lround((s.slowdown - 1) * 100), 1, 255)));
        }
    }
    for (const Downtime& d : run.downtimes) {
        if (d.failure < 0) continue;
        const Failure& f = run.failures[static_cast<std::size_t>(d.failure)];
        const bool swapped = f.component.kind == ComponentKind::Gpu || f.component.kind == ComponentKind::Host;
        for (std::int32_t g : f.gpus) {
            GpuVisual& v = out[static_cast<std::size_t>(g)];
            if (t >= f.time && t < d.restarted) v = {GpuState::Failed, 0, v.replaced, 0};
            if (swapped && t >= d.restarted) v.replaced = true;
        }
    }
    return out;
}

TEST(ReplayState, MatchesAScanOfEveryEventOnTheTinyRun) {
    const faultline::Run& run = test::tinyRun();
    ASSERT_GT(run.failures.size(), 3u);
    const ReplayIndex index(run);
    std::vector<Nanos> instants;
    for (const Failure& f : run.failures) instants.insert(instants.end(), {f.time - 1, f.time, f.time + kMinute});
    for (const Downtime& d : run.downtimes) instants.insert(instants.end(), {d.detected, d.restarted - 1, d.restarted, d.end});
    for (const StragglerEpisode& s : run.stragglers) instants.insert(instants.end(), {s.begin, s.end - 1, s.end});
    for (Nanos t = 0; t < run.info.duration; t += 17 * kMinute) instants.push_back(t);
    int failedSeen = 0, stragglingSeen = 0;
    for (Nanos t : instants) {
        const auto expected = scanStates(run, t);
        const auto actual = index.statesAt(t);
        for (std::size_t g = 0; g < expected.size(); ++g) {
            ASSERT_EQ(actual[g].state, expected[g].state) << "GPU " << g << " at " << t;
            ASSERT_EQ(actual[g].replaced, expected[g].replaced) << "GPU " << g << " at " << t;
            if (expected[g].state == GpuState::Straggling) {
                ASSERT_EQ(actual[g].slowdownPercent, expected[g].slowdownPercent) << "GPU " << g << " at " << t;
            }
            failedSeen += expected[g].state == GpuState::Failed;
            stragglingSeen += expected[g].state == GpuState::Straggling;
        }
    }
    EXPECT_GT(failedSeen, 0);  // the comparison covered the states that matter
    EXPECT_GT(stragglingSeen, 0);
}

}  // namespace
}  // namespace faultline
