// The strongest test of the importers and the analysis together: a simulated run's own
// files (sacct, kernel logs, the training job's stdout, topology.conf), imported, must give
// back the simulated run's figures.
#include "import_test_util.h"
#include "round_trip_checks.h"

#include "analysis/incidents.h"
#include "analysis/summary.h"
#include "model/run_file.h"
#include "simulator/cluster_logs.h"
#include "simulator/simulator.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <map>
#include <set>

namespace faultline {
namespace {

using test::ScratchDir;

struct RoundTrip {
    Run simulated;
    Run imported;
};

RoundTrip roundTrip(SimulationParams p, const ScratchDir& dir) {
    RoundTrip r;
    r.simulated = simulate(p);
    writeClusterLogs(r.simulated, dir.file("cluster"), p.preset);
    r.imported = importFiles({dir.file("cluster")}, {}).run;
    return r;
}

using test::expectSameFigures;

TEST(RoundTrip, TinyRunComesBackFromItsClusterFiles) {
    ScratchDir dir;
    const RoundTrip r = roundTrip(simulationPreset("tiny"), dir);
    ASSERT_GT(r.simulated.downtimes.size(), 5u);
    expectSameFigures(r.simulated, r.imported);

    // Every run of the job is in the run file; the chain is one job more than its downtimes.
    const auto inRun = std::count_if(r.imported.jobs.begin(), r.imported.jobs.end(), [](const Job& j) { return j.inRun; });
    EXPECT_EQ(static_cast<std::size_t>(inRun), r.imported.downtimes.size() + 1);
    for (const Downtime& d : r.imported.downtimes) EXPECT_GE(d.job, 0);
    // A host lost under the job (NODE_FAIL) makes Slurm requeue it; anything else is a new job.
    const auto nodeFailures = std::count_if(r.simulated.downtimes.begin(), r.simulated.downtimes.end(), [](const Downtime& d) {
        return !d.planned && rootCauseInfo(d.cause).scope == CauseScope::Host && d.cause != RootCause::Ssd;
    });
    EXPECT_EQ(summarize(r.imported).jobsInRun, static_cast<int>(r.imported.downtimes.size()) + 1);
    EXPECT_EQ(summarize(r.imported).requeues, static_cast<int>(nodeFailures));

    // topology.conf lists each rack switch under every cluster switch of its pod: the pods
    // come back as the zones they were.
    std::set<std::int32_t> zones;
    for (const Rack& rack : r.imported.topology.racks) zones.insert(rack.zone);
    EXPECT_EQ(zones.size(), r.simulated.topology.zones.size());
    EXPECT_EQ(r.imported.topology.racks.size(), r.simulated.topology.racks.size());

    // An incident reads as the review of last night's outage: symptom, the job's end, recovery.
    const auto incidents = buildIncidents(r.imported);
    const auto hbm = std::find_if(incidents.begin(), incidents.end(), [](const Incident& i) { return i.cause == RootCause::GpuHbm3Memory; });
    ASSERT_NE(hbm, incidents.end());
    EXPECT_NE(hbm->xid, 0);
    ASSERT_EQ(hbm->gpus.size(), 1u);
    // The very GPU that failed: the kernel log's boot enumeration tells bus ids from CUDA indices.
    const Failure& simulatedHbm = *std::find_if(r.simulated.failures.begin(), r.simulated.failures.end(),
                                                [](const Failure& f) { return f.cause == RootCause::GpuHbm3Memory; });
    EXPECT_EQ(r.imported.topology.gpuName(hbm->gpus[0]), r.simulated.topology.gpuName(simulatedHbm.gpus.at(0)));
    std::string chain;
    for (const IncidentEvent& e : hbm->chain) chain += e.what + "\n";
    EXPECT_NE(chain.find("Slurm job"), std::string::npos) << chain;
    EXPECT_NE(chain.find("ended FAILED"), std::string::npos) << chain;
    EXPECT_NE(chain.find("training resumed from step"), std::string::npos) << chain;
}

TEST(RoundTrip, TwoDaysOfLlama3ComeBackFromTheirClusterFiles) {
    ScratchDir dir;
    SimulationParams p = simulationPreset("llama3-405b");
    p.days = 2;
    const RoundTrip r = roundTrip(p, dir);
    ASSERT_GT(r.simulated.downtimes.size(), 10u);
    expectSameFigures(r.simulated, r.imported);
    EXPECT_EQ(r.imported.topology.hosts.size(), 2048u);
}

TEST(RoundTrip, InfinibandFatTreeComesBackCabledAsBuiltFromItsIbnetdiscoverDump) {
    // Rail leaves: a host's eight NICs go to eight leaves, which only ibnetdiscover can say.
    ScratchDir dir;
    SimulationParams p = simulationPreset("meta-24k-ib");  // 24,576 GPUs: leaves, spines and cores
    // Four days: none of its failures is minutes before the end, where the simulated run stops
    // and the imported one goes on to the last line of the recovery's logs.
    p.days = 4;
    const RoundTrip r = roundTrip(p, dir);
    ASSERT_TRUE(std::filesystem::exists(dir.file("cluster/ibnetdiscover.out")));
    EXPECT_FALSE(std::filesystem::exists(dir.file("cluster/topology.conf")));
    ASSERT_GT(r.simulated.downtimes.size(), 5u);
    expectSameFigures(r.simulated, r.imported);

    const Topology& a = r.simulated.topology;
    const Topology& b = r.imported.topology;
    EXPECT_EQ(b.fabric, FabricKind::InfinibandFatTree);
    ASSERT_EQ(b.hosts.size(), a.hosts.size());
    for (SwitchTier tier : {SwitchTier::Rack, SwitchTier::Cluster, SwitchTier::Aggregation})
        EXPECT_EQ(b.switchCount(tier), a.switchCount(tier)) << switchTierName(tier, FabricKind::InfinibandFatTree);
    std::map<std::string, const Switch*> imported;
    for (const Switch& s : b.switches) imported[s.name] = &s;
    for (const Switch& s : a.switches) {
        ASSERT_TRUE(imported.count(s.name)) << s.name;
        EXPECT_EQ(imported[s.name]->tier, s.tier) << s.name;
        EXPECT_EQ(imported[s.name]->rail, s.rail) << s.name;
    }
    // Every cable, named by its two ends, is there.
    auto cables = [](const Topology& t) {
        std::set<std::string> out;
        for (std::size_t i = 0; i < t.links.size(); ++i) out.insert(t.linkName(static_cast<std::int32_t>(i)));
        return out;
    };
    EXPECT_EQ(cables(b), cables(a));

    // A host's cable that failed comes back as that cable: the kernel's "Link down" on the
    // host and the NIC's link-down counter are one event.
    int hostCables = 0;
    for (const Failure& f : r.simulated.failures) {
        if (f.component.kind != ComponentKind::Link || a.links[static_cast<std::size_t>(f.component.index)].lower.kind != NodeKind::Nic) continue;
        ++hostCables;
        const std::string cable = a.linkName(f.component.index);
        const auto back = std::find_if(r.imported.failures.begin(), r.imported.failures.end(), [&](const Failure& g) {
            return g.component.kind == ComponentKind::Link && b.linkName(g.component.index) == cable;
        });
        ASSERT_NE(back, r.imported.failures.end()) << cable;
        // At the kernel line's time, which dmesg prints to the microsecond.
        EXPECT_LT(std::abs(r.imported.info.startEpochNs + back->time - (r.simulated.info.startEpochNs + f.time)), 1'000) << cable;
        EXPECT_EQ(back->cause, RootCause::NetworkSwitchCable);
    }
    EXPECT_GT(hostCables, 0) << "no cable failed: nothing checked";
}

TEST(RoundTrip, ImportedRunSurvivesTheRunFile) {
    ScratchDir dir;
    const RoundTrip r = roundTrip(simulationPreset("tiny"), dir);
    writeRunFile(r.imported, dir.file("run.faultline"));
    const faultline::Run back = readRunFile(dir.file("run.faultline"));
    ASSERT_EQ(back.jobs.size(), r.imported.jobs.size());
    for (std::size_t i = 0; i < back.jobs.size(); ++i) {
        EXPECT_EQ(back.jobs[i].id, r.imported.jobs[i].id);
        EXPECT_EQ(back.jobs[i].state, r.imported.jobs[i].state);
        EXPECT_EQ(back.jobs[i].parent, r.imported.jobs[i].parent);
        EXPECT_EQ(back.jobs[i].end, r.imported.jobs[i].end);
        EXPECT_EQ(back.jobs[i].hosts, r.imported.jobs[i].hosts);
    }
    expectSameFigures(r.simulated, back);
}

}  // namespace
}  // namespace faultline
