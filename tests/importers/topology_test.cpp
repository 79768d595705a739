// Topology files: topograph's real Slurm block topology.conf and ibnetdiscover dump of a DGX
// H100 SuperPOD, a tree-form topology.conf, and Faultline's own topology JSON, alone and
// with events placed on them.
#include "import_test_util.h"

#include <algorithm>

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
    for (const Rack& rack : t.racks) EXPECT_EQ(rack.zone, 0);
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
