// A fleet laid out as buildings of halls: each cluster its own hall drawn as its fabric is,
// halls apart from one another, every part inside its hall, halls and buildings named.
#include "box_checks.h"
#include "simulator/fleet_shape.h"
#include "test_runs.h"
#include "views/fabric/fleet_layout.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace faultline {
namespace {

// The floor area a cluster's racks and switches cover.
Box3 hallOf(const Topology& t, const FabricLayout& layout, std::int32_t cluster) {
    Box3 b{{1e30f, 1e30f, 0}, {-1e30f, -1e30f, 0}};
    auto grow = [&](const Box3& part) {
        for (std::size_t k = 0; k < 2; ++k) b.min[k] = std::min(b.min[k], part.min[k]), b.max[k] = std::max(b.max[k], part.max[k]);
    };
    for (std::size_t r = 0; r < t.racks.size(); ++r)
        if (t.zones[static_cast<std::size_t>(t.racks[r].zone)].cluster == cluster) grow(layout.racks[r]);
    for (std::size_t s = 0; s < t.switches.size(); ++s)
        if (t.switches[s].cluster == cluster) grow(layout.switches[s]);
    return b;
}

TEST(FleetLayout, EachClusterIsAHallOfItsOwnInItsBuilding) {
    const Topology& t = test::smallFleetRun().topology;
    ASSERT_EQ(t.clusters.size(), 3u);
    const FabricLayout layout = layoutFabric(t);
    ASSERT_EQ(layout.gpus.size(), t.gpus.size());
    ASSERT_EQ(layout.switches.size(), t.switches.size());
    std::vector<Box3> halls;
    for (std::int32_t c = 0; c < 3; ++c) halls.push_back(hallOf(t, layout, c));
    for (std::size_t a = 0; a < halls.size(); ++a)
        for (std::size_t b = a + 1; b < halls.size(); ++b) {
            const bool apart = halls[a].max[0] <= halls[b].min[0] || halls[b].max[0] <= halls[a].min[0] || halls[a].max[1] <= halls[b].min[1] ||
                               halls[b].max[1] <= halls[a].min[1];
            EXPECT_TRUE(apart) << "halls " << a << " and " << b << " overlap";
        }
    // Every GPU stands in its own cluster's hall, in its rack.
    for (std::size_t g = 0; g < t.gpus.size(); ++g) {
        const std::int32_t host = t.gpus[g].host;
        ASSERT_TRUE(test::inside(layout.gpus[g], halls[static_cast<std::size_t>(t.clusterOfHost(host))], 2)) << "GPU " << g;
        ASSERT_TRUE(test::inside(layout.gpus[g], layout.racks[static_cast<std::size_t>(t.hosts[static_cast<std::size_t>(host)].rack)], 2)) << "GPU " << g;
    }
    // Building A's two halls side by side; Building B behind them.
    EXPECT_GT(halls[1].min[0], halls[0].max[0]);
    EXPECT_GT(halls[2].min[1], std::max(halls[0].max[1], halls[1].max[1]));
    // The halls and buildings named, each once, with the cluster's fabric.
    auto labelled = [&](const std::string& text) {
        return std::count_if(layout.labels.begin(), layout.labels.end(), [&](const Label3& l) { return l.text.find(text) != std::string::npos; });
    };
    EXPECT_EQ(labelled("Hall A2: a2-ib-1k (InfiniBand fat tree)"), 1);
    EXPECT_EQ(labelled("Hall B1: b1-roce-512"), 1);
    EXPECT_EQ(labelled("Building A"), 1);
    EXPECT_EQ(labelled("Building B"), 1);
    for (const Box3& hall : halls) EXPECT_TRUE(test::inside(hall, layout.bounds, 2));
}

// Seen whole, a fleet's halls draw their upper tiers' cables merged on a coarse grid: fewer
// lines, each from where cables began to where they ended (every cable has a merged line
// within a grid cell of both its ends, and every merged line lies inside its hall); one hall
// on its own keeps its cables as they are.
TEST(FleetLayout, SeenWholeEachHallsCablesAreFewerLinesWhereTheCablesRun) {
    const Topology& t = test::smallFleetRun().topology;
    const FabricLayout layout = layoutFabric(t);
    const std::size_t cables = layout.links.size() + layout.farLinks.size();
    ASSERT_GT(cables, 100u);
    ASSERT_FALSE(layout.fleetLinks.empty());
    EXPECT_LT(layout.fleetLinks.size(), cables);
    std::vector<Box3> halls;
    for (std::int32_t c = 0; c < static_cast<std::int32_t>(t.clusters.size()); ++c) halls.push_back(hallOf(t, layout, c));
    auto distance = [](const std::array<float, 3>& a, const std::array<float, 3>& b) {
        return std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
    };
    for (const Segment3& merged : layout.fleetLinks)
        EXPECT_TRUE(std::any_of(halls.begin(), halls.end(), [&](const Box3& h) {
            return merged.a[0] >= h.min[0] - 1 && merged.a[0] <= h.max[0] + 1 && merged.b[0] >= h.min[0] - 1 && merged.b[0] <= h.max[0] + 1;
        }));
    for (const std::vector<Segment3>* lines : {&layout.links, &layout.farLinks})
        for (const Segment3& cable : *lines) {
            const auto hall = std::find_if(halls.begin(), halls.end(), [&](const Box3& h) { return cable.a[0] >= h.min[0] - 1 && cable.a[0] <= h.max[0] + 1; });
            ASSERT_NE(hall, halls.end());
            // A cell of the grid across the hall: its diagonal in three dimensions.
            const float cell = std::max(hall->max[0] - hall->min[0], hall->max[1] - hall->min[1]) / kFleetLinkCellsAcross * std::sqrt(3.0f);
            EXPECT_TRUE(std::any_of(layout.fleetLinks.begin(), layout.fleetLinks.end(), [&](const Segment3& m) {
                return distance(m.a, cable.a) <= cell * 1.05f && distance(m.b, cable.b) <= cell * 1.05f;
            })) << "a cable from (" << cable.a[0] << ", " << cable.a[1] << ") has no merged line near it";
        }
    const auto ib = clusterTopology(t, 1);
    ASSERT_TRUE(ib.has_value());
    EXPECT_TRUE(layoutFabric(*ib).fleetLinks.empty());
}

TEST(FleetLayout, AClusterOnItsOwnIsTheTopologyItWasBuiltAs) {
    const Topology& t = test::smallFleetRun().topology;
    const auto ib = clusterTopology(t, 1);
    ASSERT_TRUE(ib.has_value());
    EXPECT_EQ(ib->fabric, FabricKind::InfinibandFatTree);
    EXPECT_EQ(ib->gpus.size(), 1'024u);
    EXPECT_NO_THROW(ib->validate());
    EXPECT_EQ(ib->hosts.front().name, "a2-r0000-h0");
}

// The fleet-350k preset's buildings stand far enough apart that a fat tree's spines and
// cabling, seen from the front at 45 degrees or higher, stay in front of the next building's
// racks: each hall's tallest switch is nearer than the gap to any hall behind it.
TEST(FleetLayout, AFatTreesTiersAreNotDrawnOverTheBuildingBehind) {
    const Topology t = buildFleetTopology(fleet350kShape());
    const FabricLayout layout = layoutFabric(t);
    std::vector<Box3> halls;
    std::vector<float> tallest(t.clusters.size(), 0);
    for (std::int32_t c = 0; c < static_cast<std::int32_t>(t.clusters.size()); ++c) halls.push_back(hallOf(t, layout, c));
    for (std::size_t s = 0; s < t.switches.size(); ++s) {
        auto& top = tallest[static_cast<std::size_t>(t.switches[s].cluster)];
        top = std::max(top, layout.switches[s].max[2]);
    }
    int pairs = 0;
    for (std::size_t a = 0; a < halls.size(); ++a)
        for (std::size_t b = 0; b < halls.size(); ++b)
            if (t.clusters[a].building != t.clusters[b].building && halls[b].min[1] > halls[a].max[1]) {
                ++pairs;
                EXPECT_GE(halls[b].min[1] - halls[a].max[1], tallest[a]) << t.clusters[a].name << " reaches over " << t.clusters[b].name;
            }
    EXPECT_GT(pairs, 10);
}

}  // namespace
}  // namespace faultline
