#include "model/error.h"
#include "model/topology.h"

#include <gtest/gtest.h>

namespace faultline {
namespace {

TEST(Topology, Llama3FabricHasMetaShape) {
    const Topology t = buildFabric(FabricShape{});
    EXPECT_EQ(t.gpus.size(), 16'384u);
    EXPECT_EQ(t.hosts.size(), 2'048u);
    EXPECT_EQ(t.racks.size(), 1'024u);
    EXPECT_EQ(t.zones.size(), 8u);
    EXPECT_EQ(t.switchCount(SwitchTier::Rack), 1'024u);
    EXPECT_EQ(t.switchCount(SwitchTier::Cluster), 64u);
    EXPECT_EQ(t.switchCount(SwitchTier::Aggregation), 8u);
    EXPECT_EQ(t.nics.size(), 16'384u);
    EXPECT_NO_THROW(t.validate());
}

TEST(Topology, NamesAndPciBusIds) {
    const Topology t = buildFabric(FabricShape{});
    EXPECT_EQ(t.hosts[825].name, "r0412-h1");
    EXPECT_EQ(t.gpuName(825 * 8 + 3), "r0412-h1-gpu3");
    EXPECT_EQ(t.gpus[825 * 8 + 3].pciBusId, "0000:5d:00.0");
    EXPECT_EQ(t.findHost("r0412-h1"), 825);
    EXPECT_FALSE(t.findHost("r9999-h0").has_value());
    EXPECT_EQ(t.findSwitch("rtsw-r0412").has_value(), true);
}

TEST(Topology, RackSwitchCutsOffItsRack) {
    const Topology t = buildFabric(FabricShape{});
    const auto rtsw = *t.findSwitch("rtsw-r0412");
    const auto gpus = t.gpusBelowSwitch(rtsw);
    ASSERT_EQ(gpus.size(), 16u);
    for (std::int32_t g : gpus) EXPECT_EQ(t.hosts[static_cast<std::size_t>(t.gpus[static_cast<std::size_t>(g)].host)].rack, 412);
}

TEST(Topology, ClusterSwitchReachesItsZoneAndAggregationReachesAll) {
    const Topology t = buildFabric(FabricShape{});
    const auto ctsw = *t.findSwitch("ctsw-z03-05");
    const auto zoneGpus = t.gpusBelowSwitch(ctsw);
    ASSERT_EQ(zoneGpus.size(), 2'048u);
    EXPECT_EQ(zoneGpus.front(), 3 * 2'048);
    EXPECT_EQ(t.gpusBelowSwitch(*t.findSwitch("atsw00")).size(), 16'384u);
}

TEST(Topology, HostCableCutsOffOneGpu) {
    const Topology t = buildFabric(FabricShape{.gpus = 64});
    int hostCables = 0;
    for (std::size_t i = 0; i < t.links.size(); ++i) {
        if (t.links[i].lower.kind != NodeKind::Nic) continue;
        const auto gpus = t.gpusBelowLink(static_cast<std::int32_t>(i));
        ASSERT_EQ(gpus.size(), 1u);
        EXPECT_EQ(gpus[0], t.gpuOfNic(t.links[i].lower.index));
        ++hostCables;
    }
    EXPECT_EQ(hostCables, 64) << "one cable per GPU's NIC";
}

TEST(Topology, PartialLastHost) {
    const Topology t = buildFabric(FabricShape{.gpus = 20});
    EXPECT_EQ(t.hosts.size(), 3u);
    EXPECT_EQ(t.hosts.back().gpuCount, 4);
    EXPECT_NO_THROW(t.validate());
}

TEST(Topology, ValidateNamesTheInconsistency) {
    Topology t = buildFabric(FabricShape{.gpus = 16});
    t.hosts[1].rack = 99;
    try {
        t.validate();
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("host r0000-h1 names rack 99"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace faultline
