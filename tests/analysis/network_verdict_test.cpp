// The comparison's network answer: which fabric lost more GPU-hours to the network, worked out
// by hand on two small runs, and on the two 24,576-GPU presets as the README's demo runs them.
#include "analysis/run_comparison.h"
#include "simulator/simulator.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <numeric>

namespace faultline {
namespace {

// 10 hours on 16 GPUs with a step every minute; at 2 h an interruption (down 7 min, 6 min of
// work lost) of `cause`; from 5 h to 6 h a straggler twice as slow (30 min of waiting) whose
// cause is `straggler`.
faultline::Run tenHours(FabricKind fabric, RootCause cause, const std::string& straggler) {
    faultline::Run run;
    run.info = {fabricKindName(fabric), 0, 10 * kHour, "test"};
    run.topology = buildFabric(FabricShape{.gpus = 16});
    run.topology.fabric = fabric;
    run.failures = {{2 * kHour, cause, {ComponentKind::Switch, 0}, 0, {0}, "down"}};
    run.downtimes = {{2 * kHour, 2 * kHour + kMinute, 2 * kHour + 5 * kMinute, 2 * kHour + 7 * kMinute, 6 * kMinute, false, cause, 0}};
    for (std::int64_t i = 1; i <= 600; ++i) run.steps.push_back({i * kMinute, i, kMinute});
    run.stragglers = {{3, 5 * kHour, 6 * kHour, 2.0, straggler}};
    return run;
}

constexpr double kDowntimeGpuHours = 13.0 / 60 * 16;  // 7 min down + 6 min redone, 16 GPUs
constexpr double kSlowdownGpuHours = 0.5 * 16;        // 30 min waiting, 16 GPUs

const LostGpuHoursPart& group(const ComparisonVerdict& v, const std::string& name) {
    for (const LostGpuHoursPart& g : v.groups)
        if (g.part == name) return g;
    throw std::runtime_error("no group " + name);
}

TEST(NetworkVerdict, NamesTheFabricThatLostMoreToTheNetwork) {
    // RoCE: a switch failure and a PFC storm. InfiniBand: a GPU failure and a hot GPU.
    const faultline::Run roce = tenHours(FabricKind::RoceClos, RootCause::NetworkSwitchCable, "network: PFC storm on rtsw-r0000");
    const faultline::Run ib = tenHours(FabricKind::InfinibandFatTree, RootCause::FaultyGpu, "thermal throttling");
    const RunComparison c = compareRuns(roce, ib);
    const ComparisonVerdict& v = c.verdict;
    EXPECT_EQ(v.nameA, "RoCE");
    EXPECT_EQ(v.nameB, "InfiniBand");
    EXPECT_NEAR(v.networkA, kDowntimeGpuHours + kSlowdownGpuHours, 1e-6);
    EXPECT_EQ(v.networkB, 0.0);
    EXPECT_TRUE(v.even) << "both lost the same in all; only where differs";
    EXPECT_EQ(v.networkLine, "InfiniBand lost 11 fewer GPU-hours to the network than RoCE (0.0 vs 11 GPU-hours: switch, cable and NIC "
                             "failures and traffic the fabric slowed).");
    EXPECT_TRUE(v.headline.starts_with("RoCE and InfiniBand lost about the same")) << v.headline;
    EXPECT_TRUE(v.headline.ends_with(v.networkLine)) << v.headline;
    const std::string text = comparisonToText(c);
    EXPECT_NE(text.find(v.networkLine), std::string::npos);
    // The text's breakdown by cause names the fabrics and leads with the network's row.
    EXPECT_NE(text.find("GPU-hours lost, by cause                       RoCE       InfiniBand    InfiniBand - RoCE"), std::string::npos) << text;
    const std::size_t row = text.find("\n  Network ");
    ASSERT_NE(row, std::string::npos) << text;
    EXPECT_EQ(text.substr(row + 1, text.find('\n', row + 1) - row - 1),
              "  Network                                        11              0.0                  -11");
    EXPECT_EQ(comparisonToJson(c)["verdict"]["network"], v.networkLine);

    // The groups: the network first; the GPU failure and the hot GPU where they belong.
    ASSERT_FALSE(v.groups.empty());
    EXPECT_EQ(v.groups.front().part, "Network");
    EXPECT_NEAR(group(v, "GPU").b, kDowntimeGpuHours, 1e-6);
    EXPECT_EQ(group(v, "GPU").a, 0.0);
    EXPECT_NEAR(group(v, "Straggler slowdown").b, kSlowdownGpuHours, 1e-6);
    EXPECT_EQ(group(v, "Straggler slowdown").a, 0.0);
    for (const auto& [lost, side] : {std::pair{v.lostA, &LostGpuHoursPart::a}, std::pair{v.lostB, &LostGpuHoursPart::b}}) {
        const double sum = std::accumulate(v.groups.begin(), v.groups.end(), 0.0, [side](double s, const LostGpuHoursPart& g) { return s + g.*side; });
        EXPECT_NEAR(sum, lost, 1e-6) << "the groups add up to all lost time";
    }
}

TEST(NetworkVerdict, SameFabricsAreCalledAAndB) {
    const faultline::Run a = tenHours(FabricKind::RoceClos, RootCause::FaultyGpu, "thermal throttling");
    const faultline::Run b = tenHours(FabricKind::RoceClos, RootCause::Nic, "ECMP hash collision on rtsw-r0000 uplinks");
    const ComparisonVerdict v = compareRuns(a, b).verdict;
    EXPECT_TRUE(v.networkLine.starts_with("A lost 11 fewer GPU-hours to the network than B")) << v.networkLine;
}

TEST(NetworkVerdict, NoNetworkLossSaysNothingOfTheNetwork) {
    const faultline::Run a = tenHours(FabricKind::RoceClos, RootCause::FaultyGpu, "thermal throttling");
    const ComparisonVerdict v = compareRuns(a, a).verdict;
    EXPECT_TRUE(v.networkLine.empty());
    EXPECT_EQ(v.headline.find("network"), std::string::npos) << v.headline;
}

// The README's demo: the same seed on both fabrics. Whichever lost more to the network, the
// verdict says so by name, with the GPU-hours the groups hold.
TEST(NetworkVerdict, TheMeta24kPresetsAreComparedByFabric) {
    const faultline::Run roce = simulate(simulationPreset("meta-24k-roce"));
    const faultline::Run ib = simulate(simulationPreset("meta-24k-ib"));
    const ComparisonVerdict v = compareRuns(roce, ib).verdict;
    EXPECT_GT(v.networkA, 0);
    EXPECT_GT(v.networkB, 0);
    EXPECT_EQ(group(v, "Network").a, v.networkA);
    const bool ibLostLess = v.networkB < v.networkA;
    EXPECT_TRUE(v.networkLine.starts_with(ibLostLess ? "InfiniBand lost " : "RoCE lost ")) << v.networkLine;
    EXPECT_NE(v.networkLine.find(ibLostLess ? "to the network than RoCE" : "to the network than InfiniBand"), std::string::npos);
    // Only the fabric differs: the GPUs' and hosts' losses agree within a few percent.
    for (const char* same : {"GPU", "Host", "Planned maintenance"})
        EXPECT_NEAR(group(v, same).a, group(v, same).b, 0.05 * group(v, same).a) << same;
}

}  // namespace
}  // namespace faultline
