// The 3D layout of the fabric without rendering: every part placed, nothing on top of
// anything else, from 8 GPUs to 100,000.
#include "box_checks.h"
#include "views/fabric/fabric_layout.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace faultline {
namespace {

// Boxes that overlap, found by sweeping along x: none is the answer wanted.
std::size_t overlapping(const std::vector<Box3>& boxes) {
    std::vector<std::size_t> order(boxes.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return boxes[a].min[0] < boxes[b].min[0]; });
    std::size_t found = 0;
    for (std::size_t i = 0; i < order.size(); ++i)
        for (std::size_t j = i + 1; j < order.size() && boxes[order[j]].min[0] < boxes[order[i]].max[0]; ++j)
            found += test::overlap(boxes[order[i]], boxes[order[j]]);
    return found;
}

class FabricLayoutAtScale : public ::testing::TestWithParam<int> {};

TEST_P(FabricLayoutAtScale, PlacesEveryPartWithoutOverlap) {
    FabricShape shape;
    shape.gpus = GetParam();
    const Topology t = buildFabric(shape);
    const FabricLayout layout = layoutFabric(t);
    ASSERT_EQ(layout.gpus.size(), t.gpus.size());
    ASSERT_EQ(layout.racks.size(), t.racks.size());
    ASSERT_EQ(layout.switches.size(), t.switches.size());
    for (std::size_t g = 0; g < t.gpus.size(); ++g) {
        const Host& h = t.hosts[static_cast<std::size_t>(t.gpus[g].host)];
        ASSERT_TRUE(test::inside(layout.gpus[g], layout.hosts[static_cast<std::size_t>(t.gpus[g].host)], 2)) << "GPU " << g;
        ASSERT_TRUE(test::inside(layout.gpus[g], layout.racks[static_cast<std::size_t>(h.rack)], 2)) << "GPU " << g;
    }
    EXPECT_EQ(overlapping(layout.gpus), 0u);
    EXPECT_EQ(overlapping(layout.racks), 0u);
    EXPECT_EQ(overlapping(layout.switches), 0u);
    // Rack switches on their racks, the others standing apart: none inside a rack.
    std::vector<Box3> standing = layout.racks;
    standing.insert(standing.end(), layout.switches.begin(), layout.switches.end());
    EXPECT_EQ(overlapping(standing), 0u);
    for (const Box3& b : layout.racks) EXPECT_TRUE(test::inside(b, layout.bounds, 2));
    // Cables are aggregated where they would be a blur: never more lines than racks and
    // switches can usefully show.
    EXPECT_LE(layout.links.size() + layout.rackLinks.size(), t.racks.size() * 2 + 4096);
    EXPECT_LE(layout.labels.size(), 64u + 24u + 3u + 16u);
}

INSTANTIATE_TEST_SUITE_P(Sizes, FabricLayoutAtScale, ::testing::Values(8, 256, 16'384, 100'000));

TEST(FabricLayout, LabelsZonesAndTiersOfASmallCluster) {
    FabricShape shape;
    shape.gpus = 256;
    shape.racksPerZone = 8;
    shape.racksPerRow = 4;
    const FabricLayout layout = layoutFabric(buildFabric(shape));
    auto labelled = [&](const std::string& text) {
        return std::any_of(layout.labels.begin(), layout.labels.end(), [&](const Label3& l) { return l.text == text; });
    };
    EXPECT_TRUE(labelled("zone00"));
    EXPECT_TRUE(labelled("zone01"));
    EXPECT_TRUE(labelled("row 1"));
    EXPECT_TRUE(labelled("CTSW"));
    EXPECT_TRUE(labelled("ATSW"));
    EXPECT_TRUE(labelled("atsw07"));
    // Zone names lie on the floor, the rest float.
    for (const Label3& l : layout.labels) EXPECT_EQ(l.onFloor, l.text.rfind("zone", 0) == 0) << l.text;
}

}  // namespace
}  // namespace faultline
