// InfiniBand link-down counters as cable failures: node_exporter's per-host counters and
// infiniband-exporter's fabric view (Prometheus text and query_range JSON), placed on the
// cables an ibnetdiscover dump drew, or on the host's NIC when no topology says more.
#include "import_test_util.h"

#include "analysis/blast_radius.h"
#include "importers/text/infiniband_names.h"

#include <fstream>

namespace faultline {
namespace {

using test::fixture;
using test::importPaths;

constexpr EpochNs kFirstScrape = 1'735'689'600'000'000'000;  // 2025-01-01 00:00:00 UTC

const Failure* failureOn(const Run& run, ComponentKind kind, const std::string& name) {
    for (const Failure& f : run.failures)
        if (f.component.kind == kind && partName(run.topology, f.component) == name) return &f;
    return nullptr;
}

TEST(LinkCounters, AdapterAndSwitchNamesAreTheEndsIbnetdiscoverNames) {
    EXPECT_EQ(hostAdapter("a08-p1-dgx-04-c01 mlx5_5")->nic, 5);
    EXPECT_EQ(hostAdapter("a08-p1-dgx-04-c01 mlx5_5")->host, "a08-p1-dgx-04-c01");
    EXPECT_EQ(hostAdapter("node1.mlx5_0")->host, "node1");  // infiniband-exporter's spelling
    EXPECT_EQ(hostAdapter("dgx01 HCA-6")->nic, 5);
    EXPECT_FALSE(hostAdapter("MF0;A09-P1-IBLEAF-04-04:MQM9701/U1"));
    EXPECT_FALSE(hostAdapter("Mellanox Technologies Aggregation Node"));
    EXPECT_EQ(switchUnitName("MF0;A10-P1-IBSPINE-02:MQM9701/U1"), "MF0;A10-P1-IBSPINE-02");
}

TEST(LinkCounters, ARisingCounterIsTheCableBetweenItsEndsAndAResetIsNot) {
    const ImportResult r = importPaths({fixture("ibnetdiscover_leaf_per_rack.out"), fixture("telemetry/ib_link_counters.prom")});
    const faultline::Run& run = r.run;
    ASSERT_EQ(run.failures.size(), 2u) << "node01's counters cleared from 3 to 0 are no failure";
    EXPECT_EQ(r.summary.files.at(1).counts.at("link-down counter samples"), 16);

    // node_exporter on node02: mlx5_1 went down between the second and third scrapes.
    const Failure* host = failureOn(run, ComponentKind::Link, "node02-nic1 <-> leaf-r1");
    ASSERT_NE(host, nullptr) << run.failures.front().detail;
    EXPECT_EQ(host->cause, RootCause::NetworkSwitchCable);
    EXPECT_EQ(run.info.startEpochNs + host->time, kFirstScrape + 2 * kMinute);
    const std::int32_t node02 = *run.topology.findHost("node02");
    EXPECT_EQ(host->gpus, std::vector<std::int32_t>{run.topology.hosts[static_cast<std::size_t>(node02)].firstGpu + 1});
    EXPECT_NE(host->detail.find("node_infiniband_link_downed_total rose from 0 to 1 on node02 mlx5_1"), std::string::npos) << host->detail;
    EXPECT_NE(host->detail.find("ib_link_counters.prom:13"), std::string::npos) << host->detail;

    // infiniband-exporter: leaf-r1's uplink to spine-1, down twice before the fourth scrape.
    const Failure* trunk = failureOn(run, ComponentKind::Link, "leaf-r1 <-> spine-1");
    ASSERT_NE(trunk, nullptr) << run.failures.back().detail;
    EXPECT_EQ(run.info.startEpochNs + trunk->time, kFirstScrape + 3 * kMinute);
    EXPECT_NE(trunk->detail.find("rose from 0 to 2 on leaf-r1 (cabled to spine-1)"), std::string::npos) << trunk->detail;
    // Its blast radius: the leaf keeps spine-2, so nobody is cut off, but it carried the
    // traffic of the GPUs behind node01's and node02's two NICs each.
    const BlastRadius radius = blastRadius(run.topology, trunk->component);
    EXPECT_TRUE(radius.gpus.empty());
    EXPECT_EQ(radius.gpusBelow, 4u);
    // The run spans every scrape, not only the failures.
    EXPECT_EQ(run.info.startEpochNs, kFirstScrape);
    EXPECT_EQ(run.info.duration, 3 * kMinute);
}

TEST(LinkCounters, WithoutATopologyTheCounterNamesTheHostsNic) {
    const ImportResult r = importPaths({fixture("telemetry/ib_link_downed_range.json")});
    ASSERT_EQ(r.run.failures.size(), 1u);
    const Failure& f = r.run.failures.front();
    EXPECT_EQ(f.component.kind, ComponentKind::Nic);
    EXPECT_EQ(r.run.topology.nicName(f.component.index), "node03-nic0");
    EXPECT_EQ(f.gpus, std::vector<std::int32_t>{r.run.topology.gpuOfNic(f.component.index)});
    EXPECT_EQ(r.run.info.startEpochNs + f.time, kFirstScrape + kMinute);
    EXPECT_NE(f.detail.find("ib_link_downed_range.json"), std::string::npos) << f.detail;
}

TEST(LinkCounters, AKernelsLinkDownOnTheHostIsOneEventLedByTheCable) {
    test::ScratchDir dir;
    // node02's kernel saw mlx5_1's port go down 3 s before the scrape that counted it.
    const std::string kernel = dir.file("node02.dmesg.log");
    std::ofstream(kernel) << "2025-01-01T00:01:57,000000+00:00 mlx5_core 0000:2a:00.0 ibp42s0: Link down\n";
    const ImportResult r = importPaths({fixture("ibnetdiscover_leaf_per_rack.out"), fixture("telemetry/ib_link_counters.prom"), kernel});
    const Failure* f = failureOn(r.run, ComponentKind::Link, "node02-nic1 <-> leaf-r1");
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(r.run.info.startEpochNs + f->time, kFirstScrape + 2 * kMinute - 3'000'000'000);
    EXPECT_NE(f->detail.find("Link down"), std::string::npos) << f->detail;
    EXPECT_NE(f->detail.find("; also link down: node_infiniband_link_downed_total rose from 0 to 1"), std::string::npos) << f->detail;
    EXPECT_EQ(r.run.failures.size(), 2u);
}

TEST(LinkCounters, ACounterScrapedAMinuteApartIsOneEventWithTheKernelLineBetweenItsScrapes) {
    // Prometheus scrapes every minute: node02's kernel logged the link going down 50 s before
    // the scrape that counted it, 10 s after the one that did not. One event, at the kernel's
    // time, on the cable. A kernel line before the earlier scrape is another event.
    for (const bool between : {true, false}) {
        test::ScratchDir dir;
        const std::string kernel = dir.file("node02.dmesg.log");
        const char* at = between ? "2025-01-01T00:01:10,000000+00:00" : "2025-01-01T00:00:30,000000+00:00";
        std::ofstream(kernel) << at << " mlx5_core 0000:2a:00.0 ibp42s0: Link down\n";
        const ImportResult r = importPaths({fixture("ibnetdiscover_leaf_per_rack.out"), fixture("telemetry/ib_link_counters.prom"), kernel});
        const Failure* f = failureOn(r.run, ComponentKind::Link, "node02-nic1 <-> leaf-r1");
        ASSERT_NE(f, nullptr);
        if (between) {
            EXPECT_EQ(r.run.failures.size(), 2u);
            EXPECT_EQ(r.run.info.startEpochNs + f->time, kFirstScrape + kMinute + 10'000'000'000);
        } else {
            EXPECT_EQ(r.run.failures.size(), 3u) << "a link that went down 30 s before a scrape that still read 0 is not that counter's rise";
            EXPECT_EQ(r.run.info.startEpochNs + f->time, kFirstScrape + 2 * kMinute);
        }
    }
}

}  // namespace
}  // namespace faultline
