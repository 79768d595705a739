// The fabric in one line: one kind named with its tiers and rails; a fleet of clusters of
// different kinds named kind by kind, never as the first cluster's; none without switches.
#include "analysis/fabric_outline.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace faultline {
namespace {

Switch leaf(SwitchTier tier, std::int32_t cluster, std::int32_t rail = -1) {
    Switch s;
    s.name = "sw";
    s.tier = tier;
    s.cluster = cluster;
    s.rail = rail;
    return s;
}

TEST(FabricOutline, OneFabricNamesItsTiersAndItsRailsAsRanges) {
    Topology t;
    t.fabric = FabricKind::InfinibandFatTree;
    for (std::int32_t rail : {0, 1, 2, 3, 6}) t.switches.push_back(leaf(SwitchTier::Rack, 0, rail));
    t.switches.push_back(leaf(SwitchTier::Cluster, 0));
    EXPECT_EQ(fabricOutlineText(outlineFabric(t)), "InfiniBand fat tree: 5 leaves, 1 spine; rails 0-3, 6");
    EXPECT_EQ(fabricOutlineToJson(outlineFabric(t))["kind"], "infiniband-fat-tree");
}

TEST(FabricOutline, AFleetOfMixedFabricsIsNamedKindByKind) {
    Topology t;
    t.clusters = {{"rsc-roce-a", "Hall 1", "A", FabricKind::RoceClos},
                  {"rsc-roce-b", "Hall 1", "A", FabricKind::RoceClos},
                  {"rsc-ib", "Hall 2", "A", FabricKind::InfinibandFatTree}};
    for (std::int32_t cluster : {0, 1})
        for (std::int32_t rail = 0; rail < 8; ++rail) t.switches.push_back(leaf(SwitchTier::Rack, cluster, rail));
    t.switches.push_back(leaf(SwitchTier::Cluster, 0));
    t.switches.push_back(leaf(SwitchTier::Rack, 2));
    t.switches.push_back(leaf(SwitchTier::Rack, 2));
    t.switches.push_back(leaf(SwitchTier::Cluster, 2));
    const FabricOutline o = outlineFabric(t);
    ASSERT_TRUE(o.mixed());
    EXPECT_EQ(fabricOutlineText(o),
              "mixed: RoCE two-stage Clos in 2 clusters (16 RTSW, 1 CTSW; rails 0-7) and InfiniBand fat tree in 1 cluster (2 leaves, 1 spine)");
    const nlohmann::json j = fabricOutlineToJson(o);
    EXPECT_EQ(j["kind"], "mixed");
    ASSERT_EQ(j["fabrics"].size(), 2u);
    EXPECT_EQ(j["fabrics"][1]["kind"], "infiniband-fat-tree");
    EXPECT_EQ(j["fabrics"][1]["tiers"]["leaf"], 2);
}

TEST(FabricOutline, NoSwitchIsNoFabricNamed) {
    EXPECT_EQ(fabricOutlineText(outlineFabric(Topology{})), "unknown: no topology file names a switch");
    EXPECT_EQ(fabricOutlineToJson(outlineFabric(Topology{}))["kind"], "unknown");
}

}  // namespace
}  // namespace faultline
