// The cluster's power from the power model: levels, ramps, energy and the swings named by
// what caused them.
#include "test_runs.h"

#include "analysis/cluster_power.h"

#include <gtest/gtest.h>

namespace faultline {
namespace {

// 256 GPUs, 10 h: one failure at 2 h (down to 2 h 30, restarted, checkpoint loaded at
// 2 h 40) and one checkpoint save from 5 h to 5 h 06.
faultline::Run oneHbmFailureRun() {
    faultline::Run run;
    run.topology = test::tinyRun().topology;
    run.info = {"one failure", 1'700'000'000'000'000'000, 10 * kHour, "test"};
    Failure f;
    f.time = 2 * kHour;
    f.cause = RootCause::GpuHbm3Memory;
    run.failures.push_back(f);
    run.downtimes.push_back({2 * kHour, 2 * kHour + 10 * kMinute, 2 * kHour + 30 * kMinute, 2 * kHour + 40 * kMinute, 0, false, RootCause::GpuHbm3Memory, 0, -1});
    run.checkpoints.push_back({5 * kHour, 5 * kHour + 6 * kMinute, 1000, 0, CheckpointKind::Save});
    return run;
}

TEST(ClusterPower, ModelDrawsTrainingIdleAndCheckpointLevels) {
    const faultline::Run run = oneHbmFailureRun();
    const auto gpus = static_cast<double>(run.topology.gpus.size());
    const ClusterPower p = clusterPower(run);
    EXPECT_FALSE(p.fromTelemetry);
    EXPECT_EQ(p.gpus, static_cast<std::int32_t>(run.topology.gpus.size()));
    EXPECT_DOUBLE_EQ(p.peakMegawatts, gpus * 700 / 1e6);
    auto at = [&](Nanos t) {
        double mw = 0;
        for (const PowerPoint& pt : p.curve)
            if (pt.time <= t) mw = pt.megawatts;
        return mw;
    };
    EXPECT_DOUBLE_EQ(at(1 * kHour), gpus * 700 / 1e6);
    EXPECT_DOUBLE_EQ(at(2 * kHour + 5 * kMinute), gpus * 72 / 1e6);    // the job is down
    EXPECT_DOUBLE_EQ(at(2 * kHour + 35 * kMinute), gpus * 120 / 1e6);  // loading the checkpoint
    EXPECT_DOUBLE_EQ(at(5 * kHour + 3 * kMinute), gpus * 120 / 1e6);   // saving one
    EXPECT_DOUBLE_EQ(at(9 * kHour), gpus * 700 / 1e6);
    // The largest swing is the failure: every GPU from 700 W to 72 W within the 1 s ramp.
    ASSERT_FALSE(p.largestSwings.empty());
    const PowerSwing& s = p.largestSwings.front();
    EXPECT_EQ(s.time, 2 * kHour);
    EXPECT_DOUBLE_EQ(s.megawattsPerSecond, -gpus * (700 - 72) / 1e6);
    EXPECT_EQ(s.cause, "GPU HBM3 Memory");
    // Energy: 10 h at 700 W less the stretches below it (ramps of 1 s aside).
    const double expected = gpus / 1e6 * (700 * 10 - (700 - 72) * 0.5 - (700 - 120) * (10.0 / 60 + 6.0 / 60));
    EXPECT_NEAR(p.energyMegawattHours, expected, gpus / 1e6 * 700 * 4.0 / 3600);
    ASSERT_EQ(p.marks.size(), 3u);
    EXPECT_EQ(p.marks[0].kind, "failure");
    EXPECT_EQ(p.marks[1].kind, "restart");
    EXPECT_EQ(p.marks[2].kind, "checkpoint");
}

TEST(ClusterPower, RunWithoutInterruptionsIsFlatWithNoSwings) {
    faultline::Run run;
    run.topology = test::tinyRun().topology;
    run.info = {"flat", 1'700'000'000'000'000'000, kHour, "test"};
    const ClusterPower p = clusterPower(run);
    EXPECT_TRUE(p.largestSwings.empty());
    EXPECT_NEAR(p.energyMegawattHours, static_cast<double>(run.topology.gpus.size()) * 700 / 1e6, 1e-9);
    EXPECT_NE(clusterPowerToText(p, run).find("no swings"), std::string::npos);
}

// Telemetry kept only at 6 h buckets (a long simulated run's) cannot show a restart of
// minutes: where the run says when its job was down, the model draws the curve, and says why.
TEST(ClusterPower, TelemetryTooCoarseForTheRestartsGivesWayToTheModel) {
    faultline::Run run = oneHbmFailureRun();
    run.telemetry.metrics = {std::string(kPowerMetric)};
    TelemetryLevel level{6 * kHour, {}};
    for (std::int32_t g = 0; g < 4; ++g) level.series.push_back({0, g, {0, 1}, {600, 600}, {690, 690}, {700, 700}});
    run.telemetry.levels.push_back(level);
    const ClusterPower p = clusterPower(run);
    EXPECT_FALSE(p.fromTelemetry);
    EXPECT_NE(p.source.find("kept at 6 h buckets, too coarse to show its restarts"), std::string::npos) << p.source;
    // Without downtimes or checkpoints the telemetry is all there is to draw.
    run.downtimes.clear();
    run.checkpoints.clear();
    EXPECT_TRUE(clusterPower(run).fromTelemetry);
}

}  // namespace
}  // namespace faultline
