// The fleet-350k preset: buildings, halls and clusters of different sizes and fabrics, the
// pre-training job among many others scheduled over time, failures ending whichever job held
// the hardware, and all of it kept by the run file.
#include "model/host_jobs.h"
#include "model/run_file.h"
#include "simulator/simulator.h"
#include "test_runs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <set>

namespace faultline {
namespace {

const faultline::Run& fleetRun() {
    static const Run run = simulate(simulationPreset("fleet-350k"));
    return run;
}

Nanos endOf(const Job& j) { return j.end.value_or(std::numeric_limits<Nanos>::max()); }

void buildingsHallsAndClustersOfDifferentSizesAndFabrics() {
    const Topology& t = fleetRun().topology;
    EXPECT_EQ(t.gpus.size(), 352'256u);
    ASSERT_EQ(t.clusters.size(), 11u);
    std::set<std::string> buildings, halls;
    std::set<FabricKind> fabrics;
    for (const Cluster& c : t.clusters) buildings.insert(c.building), halls.insert(c.hall), fabrics.insert(c.fabric);
    EXPECT_EQ(buildings.size(), 5u);
    EXPECT_EQ(halls.size(), 11u);
    EXPECT_EQ(fabrics, (std::set<FabricKind>{FabricKind::RoceClos, FabricKind::InfinibandFatTree}));
    // Meta's two 24,576-GPU clusters lead the fleet: one RoCE, one InfiniBand.
    std::vector<std::size_t> gpusOf(t.clusters.size(), 0);
    for (std::size_t h = 0; h < t.hosts.size(); ++h) gpusOf[static_cast<std::size_t>(t.clusterOfHost(static_cast<std::int32_t>(h)))] += static_cast<std::size_t>(t.hosts[h].gpuCount);
    EXPECT_EQ(gpusOf[0], 24'576u);
    EXPECT_EQ(gpusOf[1], 24'576u);
    EXPECT_EQ(t.clusters[0].fabric, FabricKind::RoceClos);
    EXPECT_EQ(t.clusters[1].fabric, FabricKind::InfinibandFatTree);
    EXPECT_EQ(std::set<std::size_t>(gpusOf.begin(), gpusOf.end()).size(), 6u) << "clusters of 8k, 16k, 24k, 32k, 48k and 64k GPUs";
    // A switch serves its own cluster only: no cable joins two clusters.
    for (const Link& l : t.links) {
        const std::int32_t upper = t.switches[static_cast<std::size_t>(l.upper.index)].cluster;
        const std::int32_t lower = l.lower.kind == NodeKind::Switch ? t.switches[static_cast<std::size_t>(l.lower.index)].cluster
                                                                    : t.clusterOfHost(t.nics[static_cast<std::size_t>(l.lower.index)].host);
        ASSERT_EQ(upper, lower);
    }
}

void thePretrainingJobAmongManyJobsOfDifferentSizesOverTime() {
    const faultline::Run& run = fleetRun();
    std::set<std::int32_t> sizes;
    std::set<Nanos> weeks;
    int chain = 0;
    for (const Job& j : run.jobs) {
        sizes.insert(j.gpus);
        if (j.start && *j.start >= 0) weeks.insert(*j.start / (7 * kDay));
        if (!j.inRun) continue;
        ++chain;
        EXPECT_EQ(j.gpus, 16'384);
        EXPECT_EQ(j.hosts.size(), 2'048u);
        for (std::int32_t h : j.hosts) ASSERT_EQ(run.topology.clusterOfHost(h), 0);
    }
    EXPECT_EQ(chain, static_cast<int>(run.downtimes.size()) + 1) << "one run of the job before each downtime and one after the last";
    EXPECT_GT(run.jobs.size(), 5'000u);
    EXPECT_GE(sizes.size(), 7u);
    EXPECT_EQ(weeks.size(), 8u) << "jobs start in every week of the 54 days";
    for (const Downtime& d : run.downtimes) {
        ASSERT_GE(d.job, 0);
        EXPECT_TRUE(run.jobs[static_cast<std::size_t>(d.job)].inRun);
        EXPECT_EQ(endOf(run.jobs[static_cast<std::size_t>(d.job)]), d.detected);
    }
    // Every job's hosts lie in one cluster.
    for (const Job& j : run.jobs) {
        const std::int32_t c = run.topology.clusterOfHost(j.hosts.front());
        for (std::int32_t h : j.hosts) ASSERT_EQ(run.topology.clusterOfHost(h), c) << "job " << j.id;
    }
}

void jobsNeverOverlapOnAHost() {
    const faultline::Run& run = fleetRun();
    const HostJobs index(run);
    for (std::size_t h = 0; h < run.topology.hosts.size(); ++h) {
        const auto jobs = index.jobsOfHost(static_cast<std::int32_t>(h));
        for (std::size_t k = 1; k < jobs.size(); ++k) {
            const Job& before = run.jobs[static_cast<std::size_t>(jobs[k - 1])];
            const Job& after = run.jobs[static_cast<std::size_t>(jobs[k])];
            ASSERT_LE(endOf(before), *after.start) << run.topology.hosts[h].name << ": job " << before.id << " overlaps job " << after.id;
        }
    }
}

void failuresEndTheJobsHoldingTheirHardware() {
    const faultline::Run& run = fleetRun();
    const HostJobs index(run);
    EXPECT_GT(run.failures.size(), 5'000u);
    std::set<std::int32_t> clustersHit;
    int endedJobs = 0;
    for (const Failure& f : run.failures) {
        for (std::int32_t g : f.gpus) clustersHit.insert(run.topology.clusterOfHost(run.topology.gpus[static_cast<std::size_t>(g)].host));
        if (!f.gpus.empty()) EXPECT_EQ(f.jobs, index.jobsHolding(f.gpus, f.time)) << f.detail;
        else ASSERT_EQ(f.jobs.size(), 1u) << "a software fault crashes the job it struck: " << f.detail;
        for (std::int32_t j : f.jobs) {
            const Job& job = run.jobs[static_cast<std::size_t>(j)];
            // Torn down once the failure is detected (minutes), its state saying why.
            EXPECT_LE(endOf(job), f.time + kHour) << job.id << " outlived " << f.detail;
            EXPECT_TRUE(job.state == "NODE_FAIL" || job.state == "FAILED") << job.state;
            ++endedJobs;
        }
    }
    EXPECT_GE(clustersHit.size(), 11u);
    EXPECT_GT(endedJobs, 3'000);
    // Most failures of the fleet strike other jobs than the pre-training one.
    const auto pretraining = std::count_if(run.failures.begin(), run.failures.end(), [&](const Failure& f) {
        return !f.jobs.empty() && run.jobs[static_cast<std::size_t>(f.jobs.front())].inRun;
    });
    EXPECT_EQ(static_cast<std::size_t>(pretraining), static_cast<std::size_t>(std::count_if(run.downtimes.begin(), run.downtimes.end(), [](const Downtime& d) { return !d.planned; })));
    EXPECT_TRUE(std::is_sorted(run.failures.begin(), run.failures.end(), [](const Failure& a, const Failure& b) { return a.time < b.time; }));
}

void runFileKeepsClustersJobsAndWhomFailuresHit() {
    const faultline::Run& run = fleetRun();
    test::ScratchDir dir;
    const std::string path = dir.file("fleet.faultline");
    writeRunFile(run, path);
    const faultline::Run back = readRunFile(path);
    ASSERT_EQ(back.topology.clusters.size(), run.topology.clusters.size());
    for (std::size_t c = 0; c < run.topology.clusters.size(); ++c) {
        EXPECT_EQ(back.topology.clusters[c].name, run.topology.clusters[c].name);
        EXPECT_EQ(back.topology.clusters[c].building, run.topology.clusters[c].building);
        EXPECT_EQ(back.topology.clusters[c].fabric, run.topology.clusters[c].fabric);
    }
    EXPECT_EQ(back.topology.gpus.size(), run.topology.gpus.size());
    ASSERT_EQ(back.jobs.size(), run.jobs.size());
    for (std::size_t j = 0; j < run.jobs.size(); j += 97) {
        EXPECT_EQ(back.jobs[j].hosts, run.jobs[j].hosts);
        EXPECT_EQ(back.jobs[j].end, run.jobs[j].end);
        EXPECT_EQ(back.jobs[j].state, run.jobs[j].state);
    }
    ASSERT_EQ(back.failures.size(), run.failures.size());
    for (std::size_t f = 0; f < run.failures.size(); ++f) ASSERT_EQ(back.failures[f].jobs, run.failures[f].jobs);
}

// One simulation of the fleet for all the checks above: it takes a minute (several under a
// sanitizer), and each test of its own would run it again in a process of its own.
TEST(FleetPreset, ShapeJobsFailuresAndTheRunFile) {
    const std::pair<const char*, void (*)()> checks[] = {
        {"BuildingsHallsAndClustersOfDifferentSizesAndFabrics", buildingsHallsAndClustersOfDifferentSizesAndFabrics},
        {"ThePretrainingJobAmongManyJobsOfDifferentSizesOverTime", thePretrainingJobAmongManyJobsOfDifferentSizesOverTime},
        {"JobsNeverOverlapOnAHost", jobsNeverOverlapOnAHost},
        {"FailuresEndTheJobsHoldingTheirHardware", failuresEndTheJobsHoldingTheirHardware},
        {"RunFileKeepsClustersJobsAndWhomFailuresHit", runFileKeepsClustersJobsAndWhomFailuresHit},
    };
    for (const auto& [name, check] : checks) {
        SCOPED_TRACE(name);
        check();
    }
}

}  // namespace
}  // namespace faultline
