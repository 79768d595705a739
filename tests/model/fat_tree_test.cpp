#include "model/error.h"
#include "model/fat_tree.h"

#include <gtest/gtest.h>

#include <map>

namespace faultline {
namespace {

// Cables per switch, split by whether the switch is the link's upper (down ports) or lower end.
struct Ports {
    int down = 0, up = 0;
};
std::vector<Ports> portsOf(const Topology& t) {
    std::vector<Ports> ports(t.switches.size());
    for (const Link& l : t.links) {
        if (l.upper.kind == NodeKind::Switch) ++ports[static_cast<std::size_t>(l.upper.index)].down;
        if (l.lower.kind == NodeKind::Switch) ++ports[static_cast<std::size_t>(l.lower.index)].up;
    }
    return ports;
}

TEST(FatTree, Meta24kInfinibandShape) {
    const Topology t = buildFatTree(FatTreeShape{});
    EXPECT_EQ(t.fabric, FabricKind::InfinibandFatTree);
    EXPECT_EQ(t.gpus.size(), 24'576u);
    EXPECT_EQ(t.hosts.size(), 3'072u);
    EXPECT_EQ(t.nics.size(), 24'576u);
    EXPECT_EQ(t.zones.size(), 24u);  // pods of 1,024 GPUs
    EXPECT_EQ(t.switchCount(SwitchTier::Rack), 768u);         // 96 units x 8 rails
    EXPECT_EQ(t.switchCount(SwitchTier::Cluster), 768u);      // 24 pods x 32 spines
    EXPECT_EQ(t.switchCount(SwitchTier::Aggregation), 512u);  // 16 groups x 32
    EXPECT_EQ(t.links.size(), 3u * 24'576u);  // NIC-leaf, leaf-spine, spine-core
    EXPECT_NO_THROW(t.validate());
    EXPECT_STREQ(switchTierName(SwitchTier::Rack, t.fabric), "leaf");
}

TEST(FatTree, EverySwitchIsNonBlockingWithinItsPorts) {
    const Topology t = buildFatTree(FatTreeShape{});
    const std::vector<Ports> ports = portsOf(t);
    ASSERT_FALSE(t.switches.empty());
    for (std::size_t i = 0; i < t.switches.size(); ++i) {
        const Switch& s = t.switches[i];
        EXPECT_LE(ports[i].down + ports[i].up, 64) << s.name;
        if (s.tier == SwitchTier::Aggregation) {
            EXPECT_EQ(ports[i].down, 48) << s.name;  // two spine planes of 24 pods
            EXPECT_EQ(ports[i].up, 0) << s.name;
        } else {
            EXPECT_EQ(ports[i].down, 32) << s.name;
            EXPECT_EQ(ports[i].up, 32) << s.name;
        }
    }
}

TEST(FatTree, LeavesAreRailOptimised) {
    const Topology t = buildFatTree(FatTreeShape{});
    const auto leaf = *t.findSwitch("leaf-su05-rail3");
    EXPECT_EQ(t.switches[static_cast<std::size_t>(leaf)].rail, 3);
    EXPECT_EQ(t.switches[static_cast<std::size_t>(leaf)].rack, -1);
    // A leaf cuts off NIC 3 of each of its unit's 32 hosts: one GPU in each, never a whole host.
    const auto gpus = t.gpusBelowSwitch(leaf);
    ASSERT_EQ(gpus.size(), 32u);
    std::map<std::int32_t, int> perHost;
    for (std::int32_t g : gpus) {
        const Gpu& gpu = t.gpus[static_cast<std::size_t>(g)];
        EXPECT_EQ(gpu.index, 3);
        EXPECT_EQ(gpu.host / 32, 5);  // unit 5's hosts
        ++perHost[gpu.host];
    }
    EXPECT_EQ(perHost.size(), 32u);
    for (const Switch& s : t.switches)
        if (s.tier == SwitchTier::Rack) EXPECT_GE(s.rail, 0) << s.name;
        else EXPECT_EQ(s.rail, -1) << s.name;
}

TEST(FatTree, SpinesServeAPodAndCoresEveryPod) {
    const Topology t = buildFatTree(FatTreeShape{});
    EXPECT_EQ(t.gpusBelowSwitch(*t.findSwitch("spine-p07-12")).size(), 1'024u);
    EXPECT_EQ(t.gpusBelowSwitch(*t.findSwitch("core-g03-17")).size(), 24'576u);
    EXPECT_EQ(t.hosts[1'000].name, "r0500-h0");
    EXPECT_EQ(t.gpus[8 * 1'000 + 3].pciBusId, "0000:5d:00.0");
}

TEST(FatTree, SmallClusterHasNoCoreTier) {
    const Topology t = buildFatTree(FatTreeShape{.gpus = 512});  // two units, one pod
    EXPECT_EQ(t.switchCount(SwitchTier::Rack), 16u);
    EXPECT_EQ(t.switchCount(SwitchTier::Cluster), 32u);
    EXPECT_EQ(t.switchCount(SwitchTier::Aggregation), 0u);
    EXPECT_NO_THROW(t.validate());
}

TEST(FatTree, RefusesShapesItCannotCable) {
    EXPECT_THROW(buildFatTree(FatTreeShape{.gpus = 100}), Error);
    EXPECT_THROW(buildFatTree(FatTreeShape{.hostsPerUnit = 40}), Error);  // 40 down on a 64-port leaf
}

}  // namespace
}  // namespace faultline
