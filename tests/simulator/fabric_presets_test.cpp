// The two 24,576-GPU presets: their clusters, the fabric failures each draws at its own rates,
// on the parts they strike, and the same run from the same seed.
#include "analysis/incidents.h"
#include "model/fat_tree.h"
#include "simulator/fabric_failures.h"
#include "simulator/simulated_failure.h"
#include "simulator/simulator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace faultline {
namespace {

const faultline::Run& presetRun(const char* name) {
    static std::map<std::string, Run> runs;
    if (!runs.contains(name)) runs[name] = simulate(simulationPreset(name));
    return runs.at(name);
}

bool startsWith(const std::string& s, const std::string& prefix) { return s.starts_with(prefix); }

// Events of one kind in the run: interruptions by the detail's opening, slowdowns by their
// cause (one event puts an episode on each GPU below the part).
int interruptionsOf(const faultline::Run& run, const std::string& kind) {
    return static_cast<int>(std::count_if(run.failures.begin(), run.failures.end(), [&](const Failure& f) {
        return f.cause == RootCause::NetworkSwitchCable && startsWith(f.detail, kind);
    }));
}
std::map<std::pair<std::string, Nanos>, std::vector<std::int32_t>> slowdownsOf(const faultline::Run& run, const std::string& kind) {
    std::map<std::pair<std::string, Nanos>, std::vector<std::int32_t>> events;
    for (const StragglerEpisode& e : run.stragglers)
        if (startsWith(e.cause, "network: " + kind)) events[{e.cause, e.begin}].push_back(e.gpu);
    return events;
}

// A Poisson count lands within four standard deviations of its mean (or 3 of a small mean).
void expectRate(int seen, double expected, const std::string& what) {
    EXPECT_NEAR(seen, expected, std::max(3.0, 4 * std::sqrt(expected))) << what << ": " << seen << " against " << expected << " expected";
}

double expectedOf(const faultline::Run& run, const FabricFailureKind& kind) {
    const double hours = static_cast<double>(run.info.duration) / static_cast<double>(kHour);
    return kind.perComponentHour * static_cast<double>(fabricPartCount(run.topology, kind.part)) * hours;
}

TEST(FabricPresets, ClustersAsBuilt) {
    const faultline::Run& roce = presetRun("meta-24k-roce");
    const faultline::Run& ib = presetRun("meta-24k-ib");
    for (const faultline::Run* run : {&roce, &ib}) {
        EXPECT_EQ(run->topology.gpus.size(), 24'576u);
        EXPECT_EQ(run->topology.hosts.size(), 3'072u);
        EXPECT_EQ(run->info.duration, 54 * kDay);
    }
    EXPECT_EQ(roce.topology.fabric, FabricKind::RoceClos);
    EXPECT_EQ(roce.topology.switchCount(SwitchTier::Rack), 1'536u);  // an RTSW per rack of 2 hosts
    EXPECT_EQ(roce.topology.switchCount(SwitchTier::Cluster), 96u);  // 8 CTSWs in each of 12 AI zones
    EXPECT_EQ(ib.topology.fabric, FabricKind::InfinibandFatTree);
    EXPECT_EQ(ib.topology.switchCount(SwitchTier::Rack), 768u);
    EXPECT_EQ(ib.topology.switchCount(SwitchTier::Aggregation), 512u);
    const std::vector<std::string> names = simulationPresetNames();
    EXPECT_NE(std::find(names.begin(), names.end(), "meta-24k-roce"), names.end());
    EXPECT_NE(std::find(names.begin(), names.end(), "meta-24k-ib"), names.end());
}

TEST(FabricPresets, EachFabricFailsAtItsOwnRates) {
    for (const char* preset : {"meta-24k-roce", "meta-24k-ib"}) {
        const faultline::Run& run = presetRun(preset);
        std::map<std::string, double> interruptions, slowdowns;  // expected, by kind name
        for (const FabricFailureKind& kind : fabricFailureKinds(run.topology.fabric))
            (kind.effect == FabricEffect::Interruption ? interruptions : slowdowns)[kind.name] += expectedOf(run, kind);
        ASSERT_FALSE(interruptions.empty());
        for (const auto& [kind, expected] : interruptions) expectRate(interruptionsOf(run, kind), expected, std::string(preset) + " " + kind);
        for (const auto& [kind, expected] : slowdowns)
            expectRate(static_cast<int>(slowdownsOf(run, kind).size()), expected, std::string(preset) + " " + kind);
    }
    // The kinds that set the fabrics apart are there.
    EXPECT_GT(slowdownsOf(presetRun("meta-24k-roce"), "PFC storm").size(), 0u);
    EXPECT_GT(slowdownsOf(presetRun("meta-24k-roce"), "ECMP hash collision").size(), 0u);
    EXPECT_GT(interruptionsOf(presetRun("meta-24k-ib"), "subnet manager event"), 0);
    EXPECT_GT(interruptionsOf(presetRun("meta-24k-ib"), "optics failure"), 0);
    EXPECT_EQ(interruptionsOf(presetRun("meta-24k-roce"), "optics failure"), 0) << "RoCE host cables are copper in the rack";
}

// Interruptions cut off what is below the part; a spine only slows the pod below it.
TEST(FabricPresets, FailuresStrikeThePartsWithTheirBlastRadius) {
    for (const char* preset : {"meta-24k-roce", "meta-24k-ib"}) {
        const faultline::Run& run = presetRun(preset);
        const Topology& t = run.topology;
        const auto network = std::count_if(run.failures.begin(), run.failures.end(),
                                           [](const Failure& f) { return f.cause == RootCause::NetworkSwitchCable; });
        ASSERT_GT(network, 0) << preset;
        for (const Failure& f : run.failures) {
            if (f.cause != RootCause::NetworkSwitchCable) continue;
            if (f.component.kind == ComponentKind::Link) {
                EXPECT_EQ(t.links[static_cast<std::size_t>(f.component.index)].lower.kind, NodeKind::Nic) << f.detail;
                EXPECT_EQ(f.gpus.size(), 1u) << f.detail;
            } else if (f.component.kind == ComponentKind::Switch) {
                EXPECT_EQ(t.switches[static_cast<std::size_t>(f.component.index)].tier, SwitchTier::Rack) << f.detail;
                EXPECT_EQ(f.gpus, t.gpusBelowSwitch(f.component.index)) << f.detail;
                EXPECT_EQ(f.gpus.size(), t.fabric == FabricKind::RoceClos ? 16u : 32u) << f.detail;
            } else {
                EXPECT_TRUE(startsWith(f.detail, "subnet manager event")) << f.detail;
                EXPECT_TRUE(f.gpus.empty()) << "a reroute cuts no GPU off";
            }
        }
    }
    const faultline::Run& ib = presetRun("meta-24k-ib");
    ASSERT_FALSE(slowdownsOf(ib, "switch failure").empty());
    ASSERT_FALSE(slowdownsOf(presetRun("meta-24k-roce"), "PFC storm").empty());
    for (const auto& [event, gpus] : slowdownsOf(ib, "switch failure")) {
        const std::string name = event.first.substr(event.first.rfind(' ') + 1);
        ASSERT_TRUE(name.starts_with("spine-")) << event.first;
        EXPECT_EQ(gpus, ib.topology.gpusBelowSwitch(*ib.topology.findSwitch(name)));
        EXPECT_EQ(gpus.size(), 1'024u);
    }
    for (const auto& [event, gpus] : slowdownsOf(presetRun("meta-24k-roce"), "PFC storm")) EXPECT_EQ(gpus.size(), 16u) << event.first;
}

// An incident names a failed switch as its fabric does: a leaf, not an RTSW.
TEST(FabricPresets, FailedSwitchesAreNamedAsTheirFabricNamesThem) {
    for (const char* preset : {"meta-24k-roce", "meta-24k-ib"}) {
        const faultline::Run& run = presetRun(preset);
        const auto failure = std::find_if(run.failures.begin(), run.failures.end(),
                                          [](const Failure& f) { return f.component.kind == ComponentKind::Switch; });
        ASSERT_NE(failure, run.failures.end()) << preset;
        const bool ib = run.topology.fabric == FabricKind::InfinibandFatTree;
        EXPECT_NE(describeHardware(run.topology, *failure).find(ib ? "(leaf, 32 GPUs)" : "(RTSW, 16 GPUs)"), std::string::npos)
            << describeHardware(run.topology, *failure);
    }
}

// Only the fabric differs: every other interruption strikes the same hardware with the same cause.
TEST(FabricPresets, TheRestOfTheMixIsTheSameOnBothFabrics) {
    auto others = [](const faultline::Run& run) {
        std::vector<std::pair<RootCause, std::vector<std::int32_t>>> out;
        for (const Failure& f : run.failures)
            if (f.cause != RootCause::NetworkSwitchCable) out.emplace_back(f.cause, f.gpus);
        return out;
    };
    const auto roce = others(presetRun("meta-24k-roce")), ib = others(presetRun("meta-24k-ib"));
    EXPECT_GT(roce.size(), 500u);
    EXPECT_EQ(roce, ib);
}

TEST(FabricPresets, SameSeedSameRunOtherSeedOtherRun) {
    auto tenDays = [](std::uint64_t seed) {
        SimulationParams p = simulationPreset("meta-24k-ib");
        p.days = 10;
        p.seed = seed;
        return simulate(p);
    };
    const faultline::Run a = tenDays(5), b = tenDays(5), c = tenDays(6);
    ASSERT_EQ(a.failures.size(), b.failures.size());
    for (std::size_t i = 0; i < a.failures.size(); ++i) {
        EXPECT_EQ(a.failures[i].time, b.failures[i].time);
        EXPECT_EQ(a.failures[i].detail, b.failures[i].detail);
    }
    ASSERT_EQ(a.stragglers.size(), b.stragglers.size());
    for (std::size_t i = 0; i < a.stragglers.size(); ++i) EXPECT_EQ(a.stragglers[i].cause, b.stragglers[i].cause);
    EXPECT_EQ(a.steps.back().time, b.steps.back().time);
    EXPECT_NE(a.steps.back().time, c.steps.back().time);
}

TEST(FabricPresets, TheLlama3MixCanLeaveTheNetworkOut) {
    Random random(1);
    const std::vector<RootCause> mix = drawLlama3CauseMix(384, random, RootCause::NetworkSwitchCable);
    EXPECT_EQ(mix.size(), 384u);
    EXPECT_EQ(std::count(mix.begin(), mix.end(), RootCause::NetworkSwitchCable), 0);
    EXPECT_EQ(std::count(mix.begin(), mix.end(), RootCause::FaultyGpu), 148) << "the others keep the table's counts";
}

}  // namespace
}  // namespace faultline
