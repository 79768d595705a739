// The llama3-405b preset must reproduce what Meta reported for 54 days of Llama 3 405B
// pre-training: 419 unexpected interruptions (a Poisson count: within 3 standard
// deviations), faulty GPUs the first cause and HBM3 the second, ETTR above 90%.
#include "simulator/simulator.h"
#include "analysis/summary.h"

#include <gtest/gtest.h>

#include <cmath>

namespace faultline {
namespace {

class Llama3Calibration : public ::testing::TestWithParam<std::uint64_t> {};

TEST_P(Llama3Calibration, ReproducesTheReportedFigures) {
    SimulationParams p = simulationPreset("llama3-405b");
    p.seed = GetParam();
    p.telemetry.interval = 0;  // the figures do not read it, and four 54-day runs' telemetry would cost minutes in a debug build
    const RunSummary s = summarize(simulate(p));

    EXPECT_EQ(s.gpus, 16'384u);
    EXPECT_EQ(s.duration, 54 * kDay);
    const double sigma = std::sqrt(419.0);
    EXPECT_NEAR(s.unexpected, 419, 3 * sigma);
    EXPECT_EQ(s.planned, 47);
    ASSERT_GE(s.causes.size(), 2u);
    EXPECT_EQ(s.causes[0].cause, RootCause::FaultyGpu);
    EXPECT_EQ(s.causes[1].cause, RootCause::GpuHbm3Memory);
    EXPECT_GT(s.ettr, 0.90);
    EXPECT_LT(s.ettr, 0.97);
    EXPECT_NEAR(static_cast<double>(s.mtbf) / kHour, 54.0 * 24 / 419, 0.6);
}

INSTANTIATE_TEST_SUITE_P(Seeds, Llama3Calibration, ::testing::Values(1, 2, 3, 42));

}  // namespace
}  // namespace faultline
