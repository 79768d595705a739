// The blast radius on the real DGX H100 SuperPOD fabric (topograph's ibnetdiscover dump): a
// spine takes bandwidth, not GPUs; a rail leaf takes one NIC (and so one GPU) of each host.
#include "analysis/blast_radius.h"
#include "import_test_util.h"

#include <algorithm>

namespace faultline {
namespace {

const Topology& superPod() {
    static const Topology t = test::importPaths({test::realData("topology/topograph/tests/output/ibnetdiscover/example.out")}).run.topology;
    return t;
}

TEST(FatTreeBlast, SpineDownCutsOffNoGpuButTakesItsShareOfTheBisection) {
    FAULTLINE_REQUIRE_REALDATA();
    const Topology& t = superPod();
    const auto spine = t.findSwitch("MF0;A10-P1-IBSPINE-02");
    ASSERT_TRUE(spine);
    const BlastRadius r = blastRadius(t, {ComponentKind::Switch, *spine});
    EXPECT_TRUE(r.gpus.empty());  // every leaf keeps its other spines
    EXPECT_GT(r.gpusBelow, 0u);
    // The dump's spines have 55, 62, 62, 52, 60, 58, 60, 61 and 62 leaf ports cabled (532);
    // IBSPINE-02 two to each of the 31 leaves.
    EXPECT_EQ(r.uplinks, 532u);
    EXPECT_EQ(r.uplinksLost, 62u);
    EXPECT_EQ(r.peers, 9u);
    EXPECT_TRUE(r.lowerIsWholeTier);
    const std::string text = blastRadiusToText(t, r);
    EXPECT_NE(text.find("cuts off no GPU"), std::string::npos) << text;
    EXPECT_NE(text.find("bisection bandwidth -11.7% (8 of 9 spines left; 62 of 532 leaf-spine cables out)"), std::string::npos) << text;
    EXPECT_NE(text.find("path up: none"), std::string::npos) << text;  // a spine is the top of a two-level tree
}

TEST(FatTreeBlast, SpineMissingSomeLeavesTakesTheirUplinksShare) {
    FAULTLINE_REQUIRE_REALDATA();
    const Topology& t = superPod();
    // IBSPINE-04 has cables to 27 of the 31 leaves (52 ports): its share is of their uplinks.
    const BlastRadius r = blastRadius(t, {ComponentKind::Switch, *t.findSwitch("MF0;A10-P1-IBSPINE-04")});
    EXPECT_TRUE(r.gpus.empty());
    EXPECT_FALSE(r.lowerIsWholeTier);
    const std::string text = blastRadiusToText(t, r);
    EXPECT_NE(text.find("uplink bandwidth of the 27 leaves below it -11.1% (8 of 9 spines left; 52 of 470 leaf-spine cables out)"),
              std::string::npos)
        << text;
}

TEST(FatTreeBlast, RailLeafDownCutsOffOneNicOfEachOfItsHosts) {
    FAULTLINE_REQUIRE_REALDATA();
    const Topology& t = superPod();
    const auto leaf = t.findSwitch("MF0;A09-P1-IBLEAF-04-04");
    ASSERT_TRUE(leaf);
    const BlastRadius r = blastRadius(t, {ComponentKind::Switch, *leaf});
    // 17 hosts (a08-p1-dgx-04-c01 ...) have their mlx5_5 on it: GPU 5 of each is cut off,
    // and no host goes whole.
    ASSERT_EQ(r.gpus.size(), 17u);
    for (std::int32_t g : r.gpus) EXPECT_EQ(t.gpus[static_cast<std::size_t>(g)].index, 5) << t.gpuName(g);
    EXPECT_TRUE(r.hosts.empty());
    EXPECT_EQ(r.rail, 5);
    EXPECT_EQ(r.railHosts, 17u);
    const std::string text = blastRadiusToText(t, r);
    EXPECT_NE(text.find("cuts off 17 GPUs"), std::string::npos) << text;
    EXPECT_NE(text.find("rail 5: NIC 5 of each of its 17 hosts"), std::string::npos) << text;
    // Up: its 16 uplinks, two to each of 8 spines (none to IBSPINE-01 in the dump).
    EXPECT_EQ(std::count_if(r.switchesUp.begin(), r.switchesUp.end(),
                            [&](std::int32_t s) { return t.switches[static_cast<std::size_t>(s)].tier == SwitchTier::Cluster; }),
              8);
    EXPECT_NE(text.find("path up (16 cables): spine MF0;A10-P1-IBSPINE-02"), std::string::npos) << text;
}

}  // namespace
}  // namespace faultline
