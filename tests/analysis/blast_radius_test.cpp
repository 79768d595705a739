// The blast radius of a part on small fabrics, where what it must cut off is plain to see.
#include "analysis/blast_radius.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace faultline {
namespace {

// 64 GPUs: 8 hosts of 8, 2 hosts a rack, 2 racks a zone (2 zones), 2 CTSW a zone, 2 ATSW.
Topology smallFabric(int ctswPerZone = 2) {
    FabricShape shape;
    shape.gpus = 64;
    shape.gpusPerHost = 8;
    shape.hostsPerRack = 2;
    shape.racksPerRow = 2;
    shape.racksPerZone = 2;
    shape.ctswPerZone = ctswPerZone;
    shape.atswCount = 2;
    return buildFabric(shape);
}

std::vector<std::int32_t> range(std::int32_t from, std::int32_t to) {
    std::vector<std::int32_t> out;
    for (std::int32_t i = from; i < to; ++i) out.push_back(i);
    return out;
}

// Whose traffic a part carries: the ranks on the GPUs below it and the jobs on their hosts.
TEST(BlastRadius, APartCarriesTheTrafficOfTheRanksAndJobsBelowIt) {
    faultline::Run run;
    run.topology = smallFabric();
    for (std::int32_t r = 0; r < 64; ++r) run.rankToGpu.push_back(63 - r);  // rank r on GPU 63 - r
    Job a, b, step;
    a.id = "100";
    a.hosts = {0, 1, 2, 3};
    b.id = "200";
    b.hosts = {4, 5, 6, 7};
    step.id = "200.0";
    step.parent = 1;
    step.hosts = {4};
    run.jobs = {a, b, step};
    std::int32_t rackSwitch = -1;
    for (std::size_t s = 0; s < run.topology.switches.size(); ++s)
        if (run.topology.switches[s].tier == SwitchTier::Rack && run.topology.switches[s].rack == 0) rackSwitch = static_cast<std::int32_t>(s);
    ASSERT_GE(rackSwitch, 0);
    // Rack 0 holds hosts 0 and 1: GPUs 0-15, ranks 48-63, all of job 100.
    EXPECT_EQ(trafficThroughText(run, {ComponentKind::Switch, rackSwitch}), "carries the traffic of ranks 48-63 of job 100");
    // A NIC's cable: its GPU's rank alone.
    const std::int32_t nic = run.topology.hosts[5].firstNic + 2;  // GPU 42, rank 21
    std::int32_t cable = -1;
    for (std::size_t l = 0; l < run.topology.links.size(); ++l)
        if (run.topology.links[l].lower == LinkEnd{NodeKind::Nic, nic}) cable = static_cast<std::int32_t>(l);
    EXPECT_EQ(trafficThroughText(run, {ComponentKind::Link, cable}), "carries the traffic of rank 21 of job 200");
    // A top-tier switch: every rank, both jobs (a job's step is not a job of its own).
    const std::int32_t top = 0;  // the fabric is built from the top: ATSW first
    ASSERT_EQ(run.topology.switches.front().tier, SwitchTier::Aggregation);
    EXPECT_EQ(trafficThroughText(run, {ComponentKind::Switch, top}), "carries the traffic of ranks 0-63 of jobs 100, 200");
    // No rank map and no job: nothing to say.
    run.rankToGpu.clear();
    run.jobs.clear();
    EXPECT_EQ(trafficThroughText(run, {ComponentKind::Switch, rackSwitch}), "");
}

TEST(BlastRadius, RackSwitchCutsOffEveryGpuOfItsRack) {
    const Topology t = smallFabric();
    const auto sw = t.findSwitch("rtsw-r0001");
    ASSERT_TRUE(sw);
    const BlastRadius r = blastRadius(t, {ComponentKind::Switch, *sw});
    // Rack r0001 holds hosts 2 and 3: GPUs 16..31, and nothing else.
    EXPECT_EQ(r.gpus, range(16, 32));
    EXPECT_EQ(r.hosts, (std::vector<std::int32_t>{2, 3}));
    EXPECT_EQ(r.racks, (std::vector<std::int32_t>{1}));
    // Its 16 NIC cables and its 2 uplinks carry nothing any more.
    EXPECT_EQ(r.links.size(), 18u);
    // Up: its 2 uplinks to the zone's CTSWs, then their 2 x 2 uplinks to the ATSWs.
    EXPECT_EQ(r.pathUp.size(), 6u);
    ASSERT_EQ(r.switchesUp.size(), 4u);
    EXPECT_EQ(t.switches[static_cast<std::size_t>(r.switchesUp[0])].tier, SwitchTier::Cluster);
    EXPECT_EQ(t.switches[static_cast<std::size_t>(r.switchesUp[3])].tier, SwitchTier::Aggregation);
    const std::string text = blastRadiusToText(t, r);
    EXPECT_NE(text.find("cuts off 16 GPUs (1 whole rack)"), std::string::npos) << text;
    EXPECT_NE(text.find("racks: r0001"), std::string::npos) << text;
}

TEST(BlastRadius, ClusterSwitchWithARedundantPeerCutsOffNothing) {
    const Topology t = smallFabric(2);
    const auto sw = t.findSwitch("ctsw-z00-01");
    ASSERT_TRUE(sw);
    const BlastRadius r = blastRadius(t, {ComponentKind::Switch, *sw});
    EXPECT_TRUE(r.gpus.empty());
    // Its own 2 uplinks and the 2 rack switches' cables to it are out of service.
    EXPECT_EQ(r.links.size(), 4u);
    EXPECT_EQ(r.gpusBelow, 32u);  // its zone's: they stall until rerouted, but are not cut off
    EXPECT_NE(blastRadiusToText(t, r).find("cuts off no GPU: the 32 GPUs below it keep another path up"), std::string::npos)
        << blastRadiusToText(t, r);
    // It carried half of its zone's 2 RTSWs' uplinks: a zone's share, not the fabric's bisection.
    EXPECT_NE(blastRadiusToText(t, r).find("uplink bandwidth of the 2 RTSW below it -50.0% (1 of 2 CTSW left; 2 of 4 RTSW-CTSW cables out)"),
              std::string::npos)
        << blastRadiusToText(t, r);
}

TEST(BlastRadius, TheOnlyClusterSwitchOfAZoneCutsOffTheWholeZone) {
    const Topology t = smallFabric(1);
    const BlastRadius r = blastRadius(t, {ComponentKind::Switch, *t.findSwitch("ctsw-z01-00")});
    EXPECT_EQ(r.gpus, range(32, 64));
    EXPECT_EQ(r.racks, (std::vector<std::int32_t>{2, 3}));
}

TEST(BlastRadius, ANicCableCutsOffItsGpuAlone) {
    const Topology t = smallFabric();
    // The cable from host 1's NIC 5 (GPU 13) to its rack switch.
    const auto nic = static_cast<std::int32_t>(t.hosts[1].firstNic + 5);
    const auto link = std::find_if(t.links.begin(), t.links.end(), [&](const Link& l) { return l.lower == LinkEnd{NodeKind::Nic, nic}; });
    ASSERT_NE(link, t.links.end());
    const auto index = static_cast<std::int32_t>(link - t.links.begin());
    const BlastRadius r = blastRadius(t, {ComponentKind::Link, index});
    EXPECT_EQ(r.gpus, (std::vector<std::int32_t>{13}));
    EXPECT_TRUE(r.hosts.empty());
    EXPECT_EQ(r.links, (std::vector<std::int32_t>{index}));
    EXPECT_EQ(r.pathUp.front(), index);
    EXPECT_EQ(t.switches[static_cast<std::size_t>(r.switchesUp.front())].name, "rtsw-r0000");
}

TEST(BlastRadius, AnUplinkOfARackSwitchWithTwoUplinksCutsOffNothing) {
    const Topology t = smallFabric();
    const auto rtsw = *t.findSwitch("rtsw-r0000");
    const auto link = std::find_if(t.links.begin(), t.links.end(), [&](const Link& l) { return l.lower == LinkEnd{NodeKind::Switch, rtsw}; });
    const BlastRadius r = blastRadius(t, {ComponentKind::Link, static_cast<std::int32_t>(link - t.links.begin())});
    EXPECT_TRUE(r.gpus.empty());
    EXPECT_EQ(r.links.size(), 1u);
}

TEST(BlastRadius, AHostTakesItsGpusAndTheirCables) {
    const Topology t = smallFabric();
    const BlastRadius r = blastRadius(t, {ComponentKind::Host, 5});
    EXPECT_EQ(r.gpus, range(40, 48));
    EXPECT_EQ(r.hosts, (std::vector<std::int32_t>{5}));
    EXPECT_TRUE(r.racks.empty());  // its rack's other host still trains
    EXPECT_EQ(r.links.size(), 8u);
    EXPECT_EQ(r.pathUp.size(), 8u + 2u + 4u);  // 8 NIC cables to one rack switch, then up
    EXPECT_NE(blastRadiusToText(t, r).find("hosts: r0002-h1"), std::string::npos);
}

TEST(BlastRadius, ATopTierSwitchHasNoPathUpAndAnUnknownPartNoRadius) {
    const Topology t = smallFabric();
    const BlastRadius top = blastRadius(t, {ComponentKind::Switch, *t.findSwitch("atsw00")});
    EXPECT_TRUE(top.gpus.empty());
    EXPECT_TRUE(top.pathUp.empty());
    EXPECT_NE(blastRadiusToText(t, top).find("path up: none"), std::string::npos);
    EXPECT_TRUE(blastRadius(t, {ComponentKind::Switch, 999}).empty());
    EXPECT_TRUE(blastRadius(t, {}).empty());
}

}  // namespace
}  // namespace faultline
