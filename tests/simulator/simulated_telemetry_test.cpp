// The simulator's GPU telemetry: what each GPU reports follows the job's state, the day's
// heat and the run's straggler episodes and HBM failures, the same for the same seed, and
// the run file keeps only the levels its budget allows.
#include "test_runs.h"

#include "model/run_file.h"
#include "simulator/simulator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace faultline {
namespace {

SimulationParams tinyDay(std::uint64_t seed = 1) {
    SimulationParams p = simulationPreset("tiny");
    p.seed = seed;
    p.days = 1;
    return p;
}

// Mean of one metric over a level's series at the buckets whose start is in [from, to).
double levelMean(const Run& run, std::string_view metric, Nanos from, Nanos to) {
    const TelemetryLevel& level = run.telemetry.levels.front();
    const std::int32_t m = *run.telemetry.metricIndex(metric);
    double sum = 0;
    int n = 0;
    for (const TelemetrySummarySeries& s : level.series) {
        if (s.metric != m) continue;
        for (std::size_t k = 0; k < s.buckets.size(); ++k) {
            const Nanos t = s.buckets[k] * level.bucket - run.info.startEpochNs;
            if (t < from || t >= to) continue;
            sum += s.mean[k];
            ++n;
        }
    }
    return n > 0 ? sum / n : std::nan("");
}

TEST(SimulatedTelemetry, EveryGpuEveryFiveMinutesWithRawSamplesUnderTheCap) {
    const faultline::Run run = simulate(tinyDay());
    ASSERT_EQ(run.telemetry.metrics.size(), std::size(kSimulatedMetrics));
    EXPECT_FALSE(run.telemetry.rawDropped);
    // Power, temperature and SM clock for every GPU; a sample every 5 minutes over the day.
    for (std::string_view m : {kPowerMetric, kTemperatureMetric, kSmClockMetric}) {
        const std::int32_t id = *run.telemetry.metricIndex(m);
        const auto n = std::count_if(run.telemetry.raw.begin(), run.telemetry.raw.end(), [&](const TelemetryRawSeries& s) { return s.metric == id; });
        EXPECT_EQ(n, 256) << m;
    }
    EXPECT_EQ(run.telemetry.raw.front().times.size(), 289u);
    EXPECT_EQ(run.telemetry.raw.front().times[1], 5 * kMinute);
    EXPECT_EQ(run.telemetry.levels.front().bucket, 10 * kSecond);
    EXPECT_EQ(run.telemetry.levels.back().bucket, kDay);
}

TEST(SimulatedTelemetry, SameSeedSameReadingsOtherSeedOther) {
    const faultline::Run a = simulate(tinyDay(3)), b = simulate(tinyDay(3)), c = simulate(tinyDay(4));
    ASSERT_EQ(a.telemetry.raw.size(), b.telemetry.raw.size());
    for (std::size_t i = 0; i < a.telemetry.raw.size(); ++i) EXPECT_EQ(a.telemetry.raw[i].values, b.telemetry.raw[i].values);
    EXPECT_NE(a.telemetry.raw.front().values, c.telemetry.raw.front().values);
}

TEST(SimulatedTelemetry, TelemetryLeavesTheRestOfTheRunAlone) {
    SimulationParams p = tinyDay(5);
    const faultline::Run with = simulate(p);
    p.telemetry.interval = 0;
    const faultline::Run without = simulate(p);
    EXPECT_TRUE(without.telemetry.empty());
    ASSERT_EQ(with.steps.size(), without.steps.size());
    EXPECT_EQ(with.steps.back().time, without.steps.back().time);
    EXPECT_EQ(with.failures.size(), without.failures.size());
}

// Power follows the job's state at the model's levels (700 W training, 120 W stalled, 72 W
// down), never above the 700 W cap.
TEST(SimulatedTelemetry, PowerFollowsTheJobsState) {
    const faultline::Run run = simulate(tinyDay());
    const TelemetryModel model = telemetryModel(run, tinyDay());
    ASSERT_FALSE(run.downtimes.empty());
    const Downtime& d = run.downtimes.front();
    for (std::int64_t k = 0; k < model.samples(); ++k) {
        const Nanos t = model.time(k);
        const GpuReading r = model.reading(7, k);
        EXPECT_LE(r.power, 700.0f);
        if (t >= d.begin && t < d.restarted) {
            EXPECT_NEAR(r.power, 72, 1.5);
            EXPECT_EQ(r.smClock, TelemetryModel::kIdleSmClock);
            EXPECT_LT(r.temperature, 40);
        }
    }
    // Training, a GPU that does not throttle draws 686-700 W at 1,920-1,980 MHz.
    int training = 0;
    for (std::int64_t k = 0; k < model.samples(); ++k) {
        const GpuReading r = model.reading(7, k);
        if (r.power < 300 || r.throttleReasons != 0) continue;
        EXPECT_GE(r.power, 686.0f);
        EXPECT_GE(r.smClock, 1920.0f);
        EXPECT_LE(r.smClock, 1980.0f);
        EXPECT_GT(r.temperature, 55);
        EXPECT_LT(r.temperature, 80);
        ++training;
    }
    EXPECT_GT(training, model.samples() / 2);
}

// Llama 3 saw 1-2% less throughput at mid-day: the clocks at 15:00 UTC are that much under
// 03:00's, as the step times are that much longer, and the GPUs run warmer.
TEST(SimulatedTelemetry, DiurnalCycleInClocksStepsAndTemperature) {
    SimulationParams p = tinyDay();
    p.failuresPerGpuDay = 0;
    p.plannedPerDay = 0;
    p.stragglersPerDay = 0;
    const faultline::Run run = simulate(p);
    const double clockNight = levelMean(run, kSmClockMetric, 2 * kHour + 30 * kMinute, 3 * kHour + 30 * kMinute);
    const double clockAfternoon = levelMean(run, kSmClockMetric, 14 * kHour + 30 * kMinute, 15 * kHour + 30 * kMinute);
    EXPECT_NEAR(clockAfternoon / clockNight, 0.985 / 1.015, 0.005);
    auto meanStep = [&](Nanos from, Nanos to) {
        double sum = 0;
        int n = 0;
        for (const Step& s : run.steps)
            if (s.time >= from && s.time < to) sum += toSeconds(s.duration), ++n;
        return sum / n;
    };
    const double slower = meanStep(14 * kHour + 30 * kMinute, 15 * kHour + 30 * kMinute) / meanStep(2 * kHour + 30 * kMinute, 3 * kHour + 30 * kMinute);
    EXPECT_NEAR(slower, 1.015 / 0.985, 0.005);
    EXPECT_NEAR(1.0 / slower, clockAfternoon / clockNight, 0.005) << "the clocks and the step times tell the same cost";
    EXPECT_GT(levelMean(run, kTemperatureMetric, 14 * kHour + 30 * kMinute, 15 * kHour + 30 * kMinute),
              levelMean(run, kTemperatureMetric, 2 * kHour + 30 * kMinute, 3 * kHour + 30 * kMinute) + 5);
}

TEST(SimulatedTelemetry, ThermalStragglersThrottleTheirGpu) {
    SimulationParams p = tinyDay(2);
    p.stragglersPerDay = 16;
    const faultline::Run run = simulate(p);
    const TelemetryModel model = telemetryModel(run, p);
    int throttled = 0;
    for (const StragglerEpisode& e : run.stragglers) {
        EXPECT_EQ(model.throttles(e.gpu), std::any_of(run.stragglers.begin(), run.stragglers.end(), [&](const StragglerEpisode& o) {
                      return o.gpu == e.gpu && o.cause == "thermal throttling";
                  }));
        if (e.cause != "thermal throttling") continue;
        for (std::int64_t k = 0; k < model.samples(); ++k) {
            const GpuReading r = model.reading(e.gpu, k);
            if (model.time(k) < e.begin || model.time(k) >= e.end || r.power < 300) continue;  // the job down or stalled
            EXPECT_TRUE(r.throttleReasons & TelemetryModel::kSwThermalSlowdown);
            EXPECT_GE(r.temperature, 85);
            EXPECT_NEAR(r.smClock, model.reading((e.gpu + 1) % 256, k).smClock / e.slowdown, 20);
            ++throttled;
        }
    }
    EXPECT_GT(throttled, 0);
}

TEST(SimulatedTelemetry, CorrectableErrorsRiseBeforeSomeHbmFailures) {
    SimulationParams p = tinyDay(4);
    p.failuresPerGpuDay *= 3;
    const faultline::Run run = simulate(p);
    const TelemetryModel model = telemetryModel(run, p);
    int rising = 0;
    for (const Failure& f : run.failures) {
        if (f.cause != RootCause::GpuHbm3Memory || !model.countsEccErrors(f.gpus.at(0))) continue;
        const std::int64_t atFailure = f.time / model.interval();
        const std::int64_t hourBefore = (f.time - kHour) / model.interval() + 1;
        ASSERT_GE(hourBefore, 0);
        EXPECT_GT(model.reading(f.gpus[0], atFailure).eccCorrected, model.reading(f.gpus[0], hourBefore).eccCorrected);
        EXPECT_EQ(model.reading(f.gpus[0], std::max<std::int64_t>(0, (f.time - 9 * kHour) / model.interval())).eccCorrected, 0.0f);
        ++rising;
    }
    EXPECT_GE(rising, 1);
}

// The run file holds the finest levels its budget allows; the coarsest always.
TEST(SimulatedTelemetry, LevelsFitTheBudget) {
    SimulationParams p = tinyDay();
    p.telemetry.budgetBytes = 1'000'000;  // ~770 series: 32 cells each from the hour level fit, 177 from 10 min do not
    const faultline::Run run = simulate(p);
    ASSERT_FALSE(run.telemetry.levels.empty());
    EXPECT_EQ(run.telemetry.levels.front().bucket, kHour);
    p.telemetry.budgetBytes = 1;
    EXPECT_EQ(simulate(p).telemetry.levels.size(), 1u);
}

TEST(SimulatedTelemetry, SurvivesTheRunFile) {
    const faultline::Run run = simulate(tinyDay());
    test::ScratchDir dir;
    writeRunFile(run, dir.file("run.faultline"));
    const faultline::Run back = readRunFile(dir.file("run.faultline"));
    EXPECT_EQ(back.telemetry.metrics, run.telemetry.metrics);
    ASSERT_EQ(back.telemetry.levels.size(), run.telemetry.levels.size());
    EXPECT_EQ(back.telemetry.level(0).series.size(), run.telemetry.levels.front().series.size());
    EXPECT_EQ(back.telemetry.rawSeries().size(), run.telemetry.raw.size());
}

}  // namespace
}  // namespace faultline
