// Topology files: topograph's real Slurm block topology.conf and ibnetdiscover dump of a DGX
// H100 SuperPOD, a tree-form topology.conf, and Faultline's own topology JSON, alone and
// with events placed on them.
#include "import_test_util.h"
#include "importers/fabric/leaf_groups.h"

#include <algorithm>
#include <set>

namespace faultline {
namespace {

using test::errorOf;
using test::fixture;
using test::importPaths;
using test::realData;

const std::string kTopograph = "topology/topograph/tests/";

TEST(SlurmTopology, BlockFormGivesOneRackPerBlock) {
    FAULTLINE_REQUIRE_REALDATA();
    const ImportResult r = importPaths({realData(kTopograph + "ci/expected.slinky-dra-block.conf")});
    EXPECT_EQ(r.summary.files[0].format, "slurm-topology");
    EXPECT_FALSE(r.summary.derivedTopology);
    const Topology& t = r.run.topology;
    EXPECT_EQ(t.racks.size(), 12u);  // rack11 .. rack62
    EXPECT_EQ(t.hosts.size(), 96u);  // 12 blocks of srv[xx01-xx08]
    const auto h = t.findHost("srv6208");
    ASSERT_TRUE(h);
    EXPECT_EQ(t.racks[static_cast<std::size_t>(t.hosts[static_cast<std::size_t>(*h)].rack)].name, "rack62");
    EXPECT_EQ(t.fabric, FabricKind::GenericTree);
}

TEST(SlurmTopology, TreeFormGivesSwitchTiersAndLinks) {
    const ImportResult r = importPaths({fixture("topology_tree.conf")});
    const Topology& t = r.run.topology;
    ASSERT_EQ(t.switches.size(), 4u);
    EXPECT_EQ(t.switches[static_cast<std::size_t>(*t.findSwitch("leaf1"))].tier, SwitchTier::Rack);
    EXPECT_EQ(t.switches[static_cast<std::size_t>(*t.findSwitch("spine1"))].tier, SwitchTier::Cluster);
    EXPECT_EQ(t.switches[static_cast<std::size_t>(*t.findSwitch("core"))].tier, SwitchTier::Aggregation);
    EXPECT_EQ(t.hosts.size(), 4u);
    EXPECT_EQ(t.links.size(), 4u * 8u + 3u);  // 8 NICs per host to its leaf, leaf-spine x2, spine-core
    // A failure of leaf2 takes out node03 and node04.
    EXPECT_EQ(t.gpusBelowSwitch(*t.findSwitch("leaf2")).size(), 16u);
    EXPECT_EQ(t.gpusBelowSwitch(*t.findSwitch("core")).size(), 32u);
    // Every leaf has its spine: the spine's zone is the only one, no empty "zone0" beside it.
    ASSERT_EQ(t.zones.size(), 1u);
    EXPECT_EQ(t.zones[0].name, "spine1");
    ASSERT_FALSE(t.racks.empty());
    for (const Rack& rack : t.racks) EXPECT_EQ(rack.zone, 0);
    // Slurm's levels say nothing of the cabling: a switch tree, tiers named leaf, spine, core.
    EXPECT_EQ(t.fabric, FabricKind::GenericTree);
    EXPECT_STREQ(switchTierName(SwitchTier::Cluster, t.fabric), "spine");
}

TEST(Ibnetdiscover, SuperPodDumpGivesLeavesSpinesAndHosts) {
    FAULTLINE_REQUIRE_REALDATA();
    const ImportResult r = importPaths({realData(kTopograph + "output/ibnetdiscover/example.out")});
    const FileReport& f = r.summary.files.at(0);
    EXPECT_EQ(f.format, "ibnetdiscover");
    EXPECT_EQ(f.counts.at("switches"), 40);
    EXPECT_EQ(f.counts.at("host adapters"), 473);  // 582 Ca less 69 unnamed ConnectX7 and 40 aggregation nodes
    EXPECT_EQ(f.counts.at("hosts"), 122);
    ASSERT_FALSE(f.warnings.empty());
    EXPECT_NE(f.warnings[0].find("109 adapter(s) name no host"), std::string::npos) << f.warnings[0];
    const Topology& t = r.run.topology;
    EXPECT_EQ(t.switchCount(SwitchTier::Rack), 31u);     // the IBLEAF switches
    EXPECT_EQ(t.switchCount(SwitchTier::Cluster), 9u);   // IBSPINE-01 .. 09
    const auto spine = t.findSwitch("MF0;A10-P1-IBSPINE-02");
    ASSERT_TRUE(spine);
    EXPECT_EQ(t.switches[static_cast<std::size_t>(*spine)].tier, SwitchTier::Cluster);
    // "a08-p1-dgx-04-c01 mlx5_5" is cabled to port 1 of leaf MF0;A09-P1-IBLEAF-04-04: NIC 5.
    const auto host = t.findHost("a08-p1-dgx-04-c01");
    ASSERT_TRUE(host);
    const auto leaf = t.findSwitch("MF0;A09-P1-IBLEAF-04-04");
    ASSERT_TRUE(leaf);
    const auto below = t.gpusBelowSwitch(*leaf);
    const std::int32_t gpu5 = t.hosts[static_cast<std::size_t>(*host)].firstGpu + 5;
    EXPECT_NE(std::find(below.begin(), below.end(), gpu5), below.end());
}

TEST(Ibnetdiscover, SuperPodDumpIsARailOptimisedFatTree) {
    FAULTLINE_REQUIRE_REALDATA();
    const ImportResult r = importPaths({realData(kTopograph + "output/ibnetdiscover/example.out")});
    const Topology& t = r.run.topology;
    EXPECT_EQ(t.fabric, FabricKind::InfinibandFatTree);
    EXPECT_EQ(t.switchCount(SwitchTier::Rack), 31u);        // leaves: the IBLEAF switches
    EXPECT_EQ(t.switchCount(SwitchTier::Cluster), 9u);      // spines: IBSPINE-01 .. 09
    EXPECT_EQ(t.switchCount(SwitchTier::Aggregation), 0u);  // no core: a two-level tree
    for (const Switch& s : t.switches) {
        const bool leaf = s.name.find("IBLEAF") != std::string::npos;
        EXPECT_EQ(s.tier == SwitchTier::Rack, leaf) << s.name;
        // Every leaf serves one rail; spines none, and no leaf stands on a rack of hosts.
        EXPECT_EQ(s.rail >= 0, leaf) << s.name;
        EXPECT_EQ(s.rack, -1) << s.name;
    }
    auto railOf = [&](const char* name) { return t.switches[static_cast<std::size_t>(*t.findSwitch(name))].rail; };
    EXPECT_EQ(railOf("MF0;A09-P1-IBLEAF-04-04"), 5);  // "a08-p1-dgx-04-c01 mlx5_5" and its 16 neighbours
    EXPECT_EQ(railOf("MF0;A09-P1-IBLEAF-01-01"), 0);  // "... HCA-1"
    EXPECT_EQ(railOf("MF0;B09-P1-IBLEAF-03-05"), 4);  // "... HCA-5"
    EXPECT_EQ(railOf("MF0;B09-P1-IBLEAF-04-08"), 5);  // 13 of 16 host cables HCA-6: still rail 5
    std::set<std::int32_t> rails;
    for (const Switch& s : t.switches)
        if (s.rail >= 0) rails.insert(s.rail);
    EXPECT_EQ(rails, (std::set<std::int32_t>{0, 1, 4, 5}));
    // Hosts grouped by the leaves they share: 8 scalable units, dgx-01 .. dgx-08.
    ASSERT_EQ(t.zones.size(), 8u);
    const Host& host = t.hosts[static_cast<std::size_t>(*t.findHost("a08-p1-dgx-04-c01"))];
    EXPECT_EQ(t.zones[static_cast<std::size_t>(t.racks[static_cast<std::size_t>(host.rack)].zone)].name, "SU4");
    EXPECT_EQ(t.switches[static_cast<std::size_t>(*t.findSwitch("MF0;A09-P1-IBLEAF-04-04"))].zone, t.racks[static_cast<std::size_t>(host.rack)].zone);
    const FileReport& f = r.summary.files.at(0);
    ASSERT_FALSE(f.notes.empty());
    EXPECT_NE(f.notes[0].find("InfiniBand fat tree: 31 leaves, 9 spines; rails 0, 1, 4, 5; 1005 cables 4xNDR"), std::string::npos)
        << f.notes[0];
}

// Hand-written dumps: two leaves each serving every NIC of two hosts, under two spines.
TEST(Ibnetdiscover, LeafPerRackFatTreeStandsEachHostInItsLeafsRack) {
    const ImportResult r = importPaths({fixture("ibnetdiscover_leaf_per_rack.out")});
    const Topology& t = r.run.topology;
    EXPECT_EQ(t.fabric, FabricKind::InfinibandFatTree);
    EXPECT_EQ(t.switchCount(SwitchTier::Rack), 2u);
    EXPECT_EQ(t.switchCount(SwitchTier::Cluster), 2u);
    for (const Switch& s : t.switches) EXPECT_EQ(s.rail, -1) << s.name;  // every NIC of its hosts: no rail
    const Switch& leaf = t.switches[static_cast<std::size_t>(*t.findSwitch("leaf-r2"))];
    ASSERT_GE(leaf.rack, 0);
    EXPECT_EQ(t.racks[static_cast<std::size_t>(leaf.rack)].name, "leaf-r2");
    EXPECT_EQ(t.hosts[static_cast<std::size_t>(*t.findHost("node04"))].rack, leaf.rack);
    // 8 host cables and 4 leaf-spine cables, each once though the dump lists both ends.
    EXPECT_EQ(t.links.size(), 12u);
    ASSERT_FALSE(r.summary.files[0].notes.empty());
    EXPECT_EQ(r.summary.files[0].notes[0], "InfiniBand fat tree: 2 leaves, 2 spines; 12 cables 4xHDR");
}

TEST(Ibnetdiscover, CableWithinATierMakesASwitchTreeWithAWarning) {
    const ImportResult r = importPaths({fixture("ibnetdiscover_leaf_to_leaf.out")});
    EXPECT_EQ(r.run.topology.fabric, FabricKind::GenericTree);
    const auto& warnings = r.summary.files[0].warnings;
    EXPECT_TRUE(std::any_of(warnings.begin(), warnings.end(), [](const std::string& w) { return w.find("not a fat tree, read as a switch tree") != std::string::npos; }));
}

TEST(LeafGroups, RailLeavesServeOneNicOfManyHosts) {
    const LeafHostCables rail{{"h1", 3}, {"h2", 3}, {"h3", 3}, {"h4", 2}, {"h5", 3}};
    EXPECT_EQ(railOfLeaf(rail), 3);  // 4 of 5 on NIC 3
    const LeafHostCables rack{{"h1", 0}, {"h1", 1}, {"h2", 0}, {"h2", 1}, {"h3", 0}, {"h3", 1}, {"h4", 0}, {"h4", 1}};
    EXPECT_EQ(railOfLeaf(rack), -1);  // every NIC of its hosts: a leaf per rack
    EXPECT_EQ(railOfLeaf({{"h1", 0}, {"h2", 0}, {"h3", 0}}), -1);  // too few hosts to call a rail
    // Leaves sharing a host are one unit, numbered by their first leaf.
    const std::vector<LeafHostCables> leaves{{{"b1", 0}}, {{"a1", 0}}, {{"b1", 1}}, {{"a1", 1}}, {{"c1", 0}}};
    EXPECT_EQ(leafUnits(leaves), (std::vector<std::int32_t>{0, 1, 0, 1, 2}));
}

TEST(Ibnetdiscover, DumpWithoutSwitchesIsRefused) {
    FAULTLINE_REQUIRE_REALDATA();
    ImportOptions options;
    options.format = "ibnetdiscover";
    const std::string path = realData(kTopograph + "output/ibnetdiscover/example-bad.out");
    EXPECT_NE(errorOf([&] { importPaths({path}, options); }).find(path + ": no Switch in the dump"), std::string::npos);
}

TEST(FaultlineTopology, XidLandsOnTheGpuWithThatBusId) {
    ImportOptions options;
    options.year = 2025;
    const ImportResult r = importPaths({fixture("faultline_topology.json"), fixture("xid_journal.log")}, options);
    EXPECT_EQ(r.summary.files[0].format, "faultline-topology");
    EXPECT_FALSE(r.summary.derivedTopology);
    const Topology& t = r.run.topology;
    EXPECT_EQ(t.hosts.size(), 2u);
    EXPECT_EQ(t.links.size(), 4u);
    ASSERT_EQ(r.run.failures.size(), 3u);
    // Xid 74 on gpu-node-17 PCI 0000:ab:00 is that host's sixth GPU in the file's bus id list.
    EXPECT_EQ(t.gpuName(r.run.failures[0].gpus.at(0)), "gpu-node-17-gpu5");
    EXPECT_EQ(t.gpuName(r.run.failures[1].gpus.at(0)), "gpu-node-18-gpu3");  // 0000:5d:00
}

TEST(FaultlineTopology, BadReferencesAreNamed) {
    test::ScratchDir dir;
    const std::string path = dir.file("topo.json");
    {
        std::FILE* f = std::fopen(path.c_str(), "w");
        std::fputs(R"({"format": "faultline-topology", "version": 1, "racks": [{"name": "r1"}],
                       "hosts": [{"name": "h1", "rack": "r9"}]})", f);
        std::fclose(f);
    }
    EXPECT_NE(errorOf([&] { importPaths({path}); }).find(path + ": hosts[0]: rack \"r9\" is not in \"racks\""), std::string::npos);
}

TEST(FaultlineTopology, TwoTopologyFilesAreRefused) {
    const std::string msg = errorOf([] { importPaths({fixture("faultline_topology.json"), fixture("topology_tree.conf")}); });
    EXPECT_NE(msg.find("a second topology file"), std::string::npos) << msg;
}

}  // namespace
}  // namespace faultline
