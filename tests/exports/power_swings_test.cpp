// The report's power swings: one row per kind of swing with its count, its largest and its
// fastest, so a run whose every failure drops the whole cluster to idle reads as one row of
// that many drops, not ten identical rows (issue #38: ten rows of 11.469 to 1.180 MW).
#include "test_runs.h"

#include "exports/power_swings.h"

#include <gtest/gtest.h>

#include <set>

namespace faultline {
namespace {

// The tiny run drawn by the power model (no telemetry): every level is exact.
faultline::Run modelledRun() {
    faultline::Run run = test::tinyRun();
    run.telemetry = Telemetry{};
    return run;
}

const PowerSwingKind* kind(const std::vector<PowerSwingKind>& kinds, const std::string& what) {
    for (const PowerSwingKind& k : kinds)
        if (k.what == what) return &k;
    return nullptr;
}

TEST(PowerSwings, OneRowPerKindEachFailureCounted) {
    const faultline::Run run = modelledRun();
    const ClusterPower power = clusterPower(run);
    ASSERT_FALSE(power.fromTelemetry);
    const std::vector<PowerSwingKind> kinds = powerSwingKinds(power);
    std::set<std::string> seen;
    for (const PowerSwingKind& k : kinds) EXPECT_TRUE(seen.insert(k.what).second) << k.what << " twice";
    // Every unplanned downtime starts with the cluster dropping from training to idle.
    int unplanned = 0;
    for (const Downtime& d : run.downtimes) unplanned += d.planned ? 0 : 1;
    const PowerSwingKind* drop = kind(kinds, "Drop at a failure");
    ASSERT_NE(drop, nullptr);
    EXPECT_EQ(drop->times, unplanned);
    const PowerModel model;
    const double gpus = static_cast<double>(run.topology.gpus.size());
    EXPECT_NEAR(drop->fromMegawatts, gpus * model.trainingWatts / 1e6, 1e-9);
    EXPECT_NEAR(drop->toMegawatts, gpus * model.idleWatts / 1e6, 1e-9);
    EXPECT_NEAR(drop->fastestMegawattsPerSecond, gpus * (model.idleWatts - model.trainingWatts) / 1e6 / toSeconds(model.rampTime), 1e-9);
    // Each job's restart ends with its reload: the rise back to training.
    const PowerSwingKind* rise = kind(kinds, "Rise after a checkpoint load");
    ASSERT_NE(rise, nullptr);
    EXPECT_GT(rise->times, 0);
    EXPECT_GT(rise->fastestMegawattsPerSecond, 0);
    // Fastest first.
    for (std::size_t i = 1; i < kinds.size(); ++i)
        EXPECT_GE(std::abs(kinds[i - 1].fastestMegawattsPerSecond), std::abs(kinds[i].fastestMegawattsPerSecond));
}

TEST(PowerSwings, RowsSayTheirOwnFigures) {
    const faultline::Run run = modelledRun();
    const ClusterPower power = clusterPower(run);
    const auto rows = powerSwingRows(power, run.info);
    const auto kinds = powerSwingKinds(power);
    ASSERT_EQ(rows.size(), kinds.size());
    ASSERT_GE(rows.size(), 2u);
    std::set<std::vector<std::string>> figures;
    for (const auto& row : rows) {
        ASSERT_EQ(row.size(), powerSwingHeader().size());
        EXPECT_TRUE(figures.insert({row[1], row[2], row[3], row[4]}).second) << "two rows read " << row[2] << " " << row[3];
    }
    // 256 GPUs: kilowatts, not "0.179 MW" to "0.018 MW" at "-0.001" MW/s.
    EXPECT_EQ(rows.front()[2], "179.2 kW \u2192 18.4 kW");
}

TEST(PowerSwings, NoneOnASteadyDraw) {
    ClusterPower power;
    power.curve = {{0, 1.0}, {kHour, 1.0}};
    power.peakMegawatts = 1.0;
    EXPECT_TRUE(powerSwingKinds(power).empty());
}

}  // namespace
}  // namespace faultline
