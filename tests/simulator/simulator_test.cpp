#include "test_runs.h"

#include "model/error.h"
#include "simulator/simulator.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace faultline {
namespace {

using test::tinyRun;

Run tinyWithSeed(std::uint64_t seed) {
    SimulationParams p = simulationPreset("tiny");
    p.seed = seed;
    return simulate(p);
}

TEST(Simulator, SameSeedSameRun) {
    const faultline::Run a = tinyWithSeed(3);
    const faultline::Run b = tinyWithSeed(3);
    ASSERT_EQ(a.failures.size(), b.failures.size());
    for (std::size_t i = 0; i < a.failures.size(); ++i) {
        EXPECT_EQ(a.failures[i].time, b.failures[i].time);
        EXPECT_EQ(a.failures[i].gpus, b.failures[i].gpus);
        EXPECT_EQ(a.failures[i].detail, b.failures[i].detail);
    }
    ASSERT_EQ(a.steps.size(), b.steps.size());
    EXPECT_EQ(a.steps.back().time, b.steps.back().time);
    EXPECT_EQ(a.stragglers.size(), b.stragglers.size());
    EXPECT_EQ(a.checkpoints.size(), b.checkpoints.size());
}

TEST(Simulator, OtherSeedOtherRun) {
    const faultline::Run a = tinyWithSeed(3);
    const faultline::Run b = tinyWithSeed(4);
    EXPECT_NE(a.steps.back().time, b.steps.back().time);
}

TEST(Simulator, TinyPresetShape) {
    const faultline::Run& run = tinyRun();
    EXPECT_EQ(run.topology.gpus.size(), 256u);
    EXPECT_EQ(run.info.duration, 2 * kDay);
    EXPECT_EQ(std::count_if(run.downtimes.begin(), run.downtimes.end(), [](const Downtime& d) { return d.planned; }), 2);
    EXPECT_GE(run.failures.size(), 3u);
    EXPECT_FALSE(run.stragglers.empty());
}

TEST(Simulator, DowntimesAreOrderedAndDoNotOverlap) {
    const faultline::Run& run = tinyRun();
    Nanos previousEnd = 0;
    ASSERT_FALSE(run.downtimes.empty());
    for (const Downtime& d : run.downtimes) {
        EXPECT_GE(d.begin, previousEnd);
        EXPECT_LE(d.begin, d.detected);
        EXPECT_LE(d.detected, d.restarted);
        EXPECT_LE(d.restarted, d.end);
        EXPECT_GE(d.lostWork, 0);
        if (d.planned) {
            EXPECT_EQ(d.failure, -1);
            EXPECT_EQ(d.lostWork, 0);
        } else {
            ASSERT_GE(d.failure, 0);
            EXPECT_EQ(run.failures[static_cast<std::size_t>(d.failure)].time, d.begin);
        }
        previousEnd = d.end;
    }
}

TEST(Simulator, NoStepsWhileDownAndStepsRollBackToTheCheckpoint) {
    const faultline::Run& run = tinyRun();
    ASSERT_FALSE(run.downtimes.empty());
    ASSERT_FALSE(run.steps.empty());
    for (const Downtime& d : run.downtimes) {
        auto inside = std::find_if(run.steps.begin(), run.steps.end(), [&](const Step& s) { return s.time > d.begin && s.time <= d.end; });
        EXPECT_EQ(inside, run.steps.end()) << "a step finished during downtime at " << d.begin;
        // The first step after an unexpected stop repeats the step after the last saved checkpoint.
        auto after = std::find_if(run.steps.begin(), run.steps.end(), [&](const Step& s) { return s.time > d.end; });
        auto before = std::find_if(run.steps.rbegin(), run.steps.rend(), [&](const Step& s) { return s.time <= d.begin; });
        if (after == run.steps.end() || before == run.steps.rend() || d.planned) continue;
        EXPECT_LE(after->step, before->step + 1);
    }
}

TEST(Simulator, FailuresTakeOutTheRightGpus) {
    const faultline::Run& run = tinyRun();
    const Topology& t = run.topology;
    ASSERT_FALSE(run.failures.empty());
    for (const Failure& f : run.failures) {
        switch (f.component.kind) {
            case ComponentKind::Gpu: EXPECT_EQ(f.gpus, std::vector<std::int32_t>{f.component.index}); break;
            case ComponentKind::Host: EXPECT_EQ(f.gpus, t.gpusOfHost(f.component.index)); break;
            case ComponentKind::Nic: EXPECT_EQ(f.gpus, std::vector<std::int32_t>{t.gpuOfNic(f.component.index)}); break;
            case ComponentKind::Switch: EXPECT_EQ(f.gpus, t.gpusBelowSwitch(f.component.index)); break;
            case ComponentKind::Link: EXPECT_EQ(f.gpus, t.gpusBelowLink(f.component.index)); break;
            case ComponentKind::None: EXPECT_TRUE(f.gpus.empty()); break;
        }
        if (f.xid != 0) {
            EXPECT_EQ(rootCauseForXid(f.xid), f.cause) << f.detail;
        }
    }
}

TEST(Simulator, StepsAdvanceAndCheckpointsAreSaved) {
    const faultline::Run& run = tinyRun();
    ASSERT_GT(run.steps.size(), 1u);
    for (std::size_t i = 1; i < run.steps.size(); ++i) ASSERT_GT(run.steps[i].time, run.steps[i - 1].time);
    const auto saves = std::count_if(run.checkpoints.begin(), run.checkpoints.end(), [](const Checkpoint& c) { return c.kind == CheckpointKind::Save; });
    // One every 10 minutes of training over ~2 days, less downtime.
    EXPECT_GT(saves, 200);
    EXPECT_LT(saves, 290);
    for (const Checkpoint& c : run.checkpoints) {
        EXPECT_LT(c.begin, c.end);
        EXPECT_EQ(c.bytes, static_cast<std::int64_t>(8e9 * 14));
    }
}

TEST(Simulator, StragglersSlowTheStep) {
    SimulationParams p = simulationPreset("tiny");
    p.stepJitter = 0;
    p.diurnalAmplitude = 0;
    p.failuresPerGpuDay = 0;
    p.plannedPerDay = 0;
    const faultline::Run run = simulate(p);
    ASSERT_FALSE(run.stragglers.empty());
    const StragglerEpisode& e = run.stragglers.front();
    auto during = std::find_if(run.steps.begin(), run.steps.end(), [&](const Step& s) { return s.time - s.duration > e.begin && s.time < e.end; });
    ASSERT_NE(during, run.steps.end());
    EXPECT_GE(static_cast<double>(during->duration), static_cast<double>(p.stepTime) * e.slowdown * 0.999);
    EXPECT_EQ(run.steps.front().duration, p.stepTime);
}

TEST(Simulator, ParametersOverride) {
    SimulationParams p = simulationPreset("tiny");
    p.fabric.gpus = 64;
    p.days = 0.5;
    const faultline::Run run = simulate(p);
    EXPECT_EQ(run.topology.gpus.size(), 64u);
    EXPECT_EQ(run.info.duration, kDay / 2);
}

TEST(Simulator, UnknownPresetNamesTheKnownOnes) {
    try {
        simulationPreset("gpt-9");
        FAIL();
    } catch (const Error& e) {
        EXPECT_STREQ(e.what(), "unknown simulation preset \"gpt-9\" (known presets: llama3-405b, tiny, meta-24k-roce, meta-24k-ib, fleet-350k)");
    }
}

}  // namespace
}  // namespace faultline
