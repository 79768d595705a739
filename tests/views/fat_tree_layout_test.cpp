// An InfiniBand fat tree drawn as built: racks on the floor, leaves above them, spines above
// the leaves, cores above the spines; every switch placed, inside the bounds, none on another.
// On a small hand-made tree with a leaf per rack, and on the real DGX H100 SuperPOD dump with
// rail leaves per scalable unit.
#include "box_checks.h"
#include "importers/importer.h"
#include "model/fat_tree.h"
#include "views/fabric/fabric_layout.h"
#include "realdata.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

namespace faultline {
namespace {

// 4 racks of 2 hosts, a leaf on each rack, 2 spines cabled to every leaf, 1 core over them.
Topology handMadeFatTree() {
    Topology t;
    t.fabric = FabricKind::InfinibandFatTree;
    t.zones.push_back({"zone0"});
    for (int r = 0; r < 4; ++r) {
        t.racks.push_back({"rack" + std::to_string(r), 0, 0, r});
        t.switches.push_back({"leaf" + std::to_string(r), SwitchTier::Rack, 0, r, -1});
        for (int h = 0; h < 2; ++h) {
            const auto host = static_cast<std::int32_t>(t.hosts.size());
            t.hosts.push_back({"r" + std::to_string(r) + "h" + std::to_string(h), r, host * 8, 8, host * 8, 8});
            for (int i = 0; i < 8; ++i) {
                t.gpus.push_back({host, i, ""});
                t.nics.push_back({host, i});
                t.links.push_back({{NodeKind::Nic, host * 8 + i}, {NodeKind::Switch, r}});
            }
        }
    }
    for (int s = 0; s < 2; ++s) t.switches.push_back({"spine" + std::to_string(s), SwitchTier::Cluster, -1, -1, -1});
    t.switches.push_back({"core0", SwitchTier::Aggregation, -1, -1, -1});
    for (int leaf = 0; leaf < 4; ++leaf)
        for (int s = 4; s < 6; ++s) t.links.push_back({{NodeKind::Switch, leaf}, {NodeKind::Switch, s}});
    for (int s = 4; s < 6; ++s) t.links.push_back({{NodeKind::Switch, s}, {NodeKind::Switch, 6}});
    t.validate();
    return t;
}

// What a fat tree's picture must be, whatever its size: tiers in rows one above the other.
void expectTiersInRows(const Topology& t, const FabricLayout& layout) {
    ASSERT_EQ(layout.switches.size(), t.switches.size());
    float rackTop = 0;
    for (const Box3& r : layout.racks) rackTop = std::max(rackTop, r.max[2]);
    std::array<std::set<float>, 3> bottoms;
    std::array<float, 3> lowest{1e9f, 1e9f, 1e9f}, highest{-1e9f, -1e9f, -1e9f};
    for (std::size_t i = 0; i < t.switches.size(); ++i) {
        const Box3& b = layout.switches[i];
        const auto tier = static_cast<std::size_t>(t.switches[i].tier);
        EXPECT_GT(b.max[0] - b.min[0], 0.5f) << t.switches[i].name << " was not placed";
        EXPECT_TRUE(test::inside(b, layout.bounds)) << t.switches[i].name;
        bottoms[tier].insert(b.min[2]);
        lowest[tier] = std::min(lowest[tier], b.min[2]);
        highest[tier] = std::max(highest[tier], b.max[2]);
        for (std::size_t j = i + 1; j < t.switches.size(); ++j) EXPECT_FALSE(test::overlap(b, layout.switches[j])) << t.switches[i].name << " on " << t.switches[j].name;
    }
    for (std::size_t tier = 0; tier < 3; ++tier) EXPECT_LE(bottoms[tier].size(), 1u) << "tier " << tier << " is not one row";
    EXPECT_GT(lowest[0], rackTop);  // leaves above every rack
    if (!bottoms[1].empty()) {
        EXPECT_GT(lowest[1], highest[0]);  // spines above the leaves
    }
    if (!bottoms[2].empty()) {
        EXPECT_GT(lowest[2], highest[1]);  // cores above the spines
    }
    for (const Box3& r : layout.racks) EXPECT_TRUE(test::inside(r, layout.bounds));
}

// The meta-24k-ib preset's tree (768 leaves, 768 spines, 512 cores): each pod's spines reach
// every core, which drawn unit by core would be a wall of 12,288 lines; a few bundles a pod instead.
TEST(FatTreeLayout, A24kFatTreeDrawsItsCoreCablingAsAFewBundlesAPod) {
    const Topology t = buildFatTree({});
    const FabricLayout layout = layoutFabric(t);
    expectTiersInRows(t, layout);
    float spineTop = -1e9f, coreBottom = 1e9f;
    for (std::size_t i = 0; i < t.switches.size(); ++i) {
        if (t.switches[i].tier == SwitchTier::Cluster) spineTop = std::max(spineTop, layout.switches[i].max[2]);
        if (t.switches[i].tier == SwitchTier::Aggregation) coreBottom = std::min(coreBottom, layout.switches[i].min[2]);
    }
    std::size_t toCores = 0;
    for (const Segment3& s : layout.links) toCores += std::min(s.a[2], s.b[2]) >= spineTop - 0.1f && std::max(s.a[2], s.b[2]) >= coreBottom - 0.1f;
    EXPECT_GE(toCores, 24u) << "every pod reaches the cores";
    EXPECT_LE(toCores, 128u) << "the core cabling is a wall of lines";
}

// The same tree's racks: each cabled to the 8 rail leaves of its unit, 12,288 lines that from
// afar draw as solid walls over the racks. Near views keep a line per rack and leaf; far
// away one line per unit and leaf stands in for them, from the middle of the unit's racks.
TEST(FatTreeLayout, A24kFatTreesRackCablingIsALinePerUnitAndLeafFromAfar) {
    const Topology t = buildFatTree({});
    const FabricLayout layout = layoutFabric(t);
    std::set<std::pair<std::int32_t, std::int32_t>> rackLeaf, unitLeaf;
    for (const Link& l : t.links) {
        if (l.lower.kind != NodeKind::Nic) continue;
        const std::int32_t rack = t.hosts[static_cast<std::size_t>(t.nics[static_cast<std::size_t>(l.lower.index)].host)].rack;
        rackLeaf.insert({rack, l.upper.index});
        unitLeaf.insert({t.racks[static_cast<std::size_t>(rack)].zone, l.upper.index});
    }
    ASSERT_GT(rackLeaf.size(), 8'000u);
    EXPECT_EQ(layout.nearLinks.size(), rackLeaf.size()) << "close up, a line per rack and leaf";
    EXPECT_EQ(layout.farLinks.size(), unitLeaf.size()) << "far away, a line per unit and leaf";
    EXPECT_LE(layout.farLinks.size(), rackLeaf.size() / 8);
    // Each far line ends under a leaf and starts over the racks of that leaf's unit.
    const float rackTop = std::max_element(layout.racks.begin(), layout.racks.end(), [](const Box3& a, const Box3& b) { return a.max[2] < b.max[2]; })->max[2];
    for (const Segment3& s : layout.farLinks) {
        EXPECT_NEAR(s.a[2], rackTop, 0.01f);
        const bool underALeaf = std::any_of(t.switches.begin(), t.switches.end(), [&](const Switch& sw) {
            const Box3& b = layout.switches[static_cast<std::size_t>(&sw - t.switches.data())];
            return sw.tier == SwitchTier::Rack && std::abs(s.b[2] - b.min[2]) < 0.01f && s.b[0] > b.min[0] && s.b[0] < b.max[0];
        });
        EXPECT_TRUE(underALeaf);
    }
    // The rack cabling is no longer in the lines drawn at every distance.
    ASSERT_FALSE(layout.links.empty()) << "the leaf-spine cabling still is";
    for (const Segment3& s : layout.links) EXPECT_GT(s.a[2], rackTop + 0.01f);
}

TEST(FatTreeLayout, LeavesOverTheirRacksSpinesAndCoreAbove) {
    const Topology t = handMadeFatTree();
    const FabricLayout layout = layoutFabric(t);
    expectTiersInRows(t, layout);
    // Each leaf straight over its own rack.
    for (int r = 0; r < 4; ++r) {
        const Box3& leaf = layout.switches[static_cast<std::size_t>(r)];
        const Box3& rack = layout.racks[static_cast<std::size_t>(r)];
        EXPECT_NEAR(leaf.centre()[0], rack.centre()[0], 1e-3f);
    }
    // One line per rack-leaf and per switch pair: 4 + 8 + 2.
    EXPECT_EQ(layout.links.size(), 14u);
    auto labelled = [&](const std::string& text) {
        return std::any_of(layout.labels.begin(), layout.labels.end(), [&](const Label3& l) { return l.text == text; });
    };
    EXPECT_TRUE(labelled("leaf"));
    EXPECT_TRUE(labelled("spine"));
    EXPECT_TRUE(labelled("core"));
    EXPECT_FALSE(labelled("RTSW"));
}

TEST(FatTreeLayout, SuperPodRailLeavesStandOverTheirUnitsInRailOrder) {
    FAULTLINE_REQUIRE_REALDATA();
    ImportOptions options;
    const ImportResult r = importFiles({test::realData("topology/topograph/tests/output/ibnetdiscover/example.out")}, options);
    const Topology& t = r.run.topology;
    ASSERT_EQ(t.fabric, FabricKind::InfinibandFatTree);
    const FabricLayout layout = layoutFabric(t);
    expectTiersInRows(t, layout);
    // A unit's rail leaves over its floor area, left to right by rail; labelled by rail.
    for (std::size_t i = 0; i < t.switches.size(); ++i) {
        const Switch& s = t.switches[i];
        if (s.tier != SwitchTier::Rack) continue;
        const Box3& area = layout.zones[static_cast<std::size_t>(s.zone)];
        const float x = layout.switches[i].centre()[0];
        EXPECT_TRUE(x > area.min[0] && x < area.max[0]) << s.name;
        for (std::size_t j = 0; j < t.switches.size(); ++j) {
            if (t.switches[j].tier == SwitchTier::Rack && t.switches[j].zone == s.zone && t.switches[j].rail > s.rail) {
                EXPECT_LT(x, layout.switches[j].centre()[0]) << s.name << " left of " << t.switches[j].name;
            }
        }
    }
    EXPECT_TRUE(std::any_of(layout.labels.begin(), layout.labels.end(), [](const Label3& l) { return l.text == "rail 5"; }));
    EXPECT_TRUE(std::any_of(layout.labels.begin(), layout.labels.end(), [](const Label3& l) { return l.text == "SU8"; }));
    // 31 leaves x 9 spines would be ~270 lines: one per unit and spine (8 x 9) instead, plus a
    // line per rack and leaf.
    std::size_t rackLeaf = 0;
    for (const Segment3& s : layout.links) rackLeaf += s.a[2] < layout.switches[0].min[2];
    EXPECT_EQ(layout.links.size() - rackLeaf, 8u * 9u);
}

}  // namespace
}  // namespace faultline
