// What if on an imported run: the cluster's own files (sacct, kernel logs, the job's stdout)
// give the downtimes, and the what-if replays the same failures under another policy.
#include "import_test_util.h"

#include "analysis/summary.h"
#include "simulator/cluster_logs.h"
#include "simulator/simulator.h"
#include "simulator/what_if.h"

namespace faultline {
namespace {

TEST(WhatIfImported, ShorterIntervalLosesLessWorkOnTheSameImportedFailures) {
    test::ScratchDir dir;
    SimulationParams p = simulationPreset("tiny");
    p.seed = 5;
    const faultline::Run simulated = simulate(p);
    writeClusterLogs(simulated, dir.file("cluster"), p.preset);
    const faultline::Run imported = importFiles({dir.file("cluster")}, {}).run;
    ASSERT_FALSE(imported.downtimes.empty());

    RecoveryPolicy often, rarely;
    often.checkpointInterval = 5 * kMinute;
    rarely.checkpointInterval = 40 * kMinute;
    const faultline::Run a = replayWithPolicy(imported, often);
    const faultline::Run b = replayWithPolicy(imported, rarely);
    ASSERT_EQ(a.downtimes.size(), imported.downtimes.size());
    ASSERT_EQ(b.downtimes.size(), imported.downtimes.size());
    for (std::size_t i = 0; i < imported.downtimes.size(); ++i) {
        EXPECT_EQ(a.downtimes[i].cause, imported.downtimes[i].cause);
        EXPECT_EQ(b.downtimes[i].failure, imported.downtimes[i].failure);
    }
    const RunSummary sa = summarize(a), sb = summarize(b), si = summarize(imported);
    EXPECT_EQ(sa.unexpected, si.unexpected);
    EXPECT_LT(sa.downtime.lostWork, si.downtime.lostWork) << "the import saved every ~10 min";
    EXPECT_GT(sb.downtime.lostWork, si.downtime.lostWork);
    EXPECT_GT(sa.checkpoints, sb.checkpoints);
}

}  // namespace
}  // namespace faultline
