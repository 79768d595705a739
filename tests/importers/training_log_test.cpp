// Training logs: BigScience's real Megatron stdout, and fixtures of newer Megatron
// checkpoint lines, torchtitan and NCCL watchdog timeouts.
#include "import_test_util.h"

#include <algorithm>

#include "importers/text/text_parse.h"
#include "model/unplaced_hosts.h"

namespace faultline {
namespace {

using test::at;
using test::fixture;
using test::importPaths;
using test::realData;

TEST(TrainingLog, BigScienceMegatronStepsFollowTheElapsedTimes) {
    FAULTLINE_REQUIRE_REALDATA();
    const ImportResult r = importPaths({realData("training_logs/bigscience/experiments/gpt2-meg/meg_gpt2_base_n8_dp1_tp4_pp8-1809562.out")});
    const FileReport& f = r.summary.files.at(0);
    EXPECT_EQ(f.format, "training-log");  // detected although its first 64 KB are shell trace
    EXPECT_EQ(f.counts.at("steps"), 20);  // iterations 10..200, logged every 10
    ASSERT_EQ(r.run.steps.size(), 20u);
    const EpochNs start = r.run.info.startEpochNs;
    // "[before the start of training step] datetime: 2021-05-23 08:23:58", then
    // "iteration 10/ 1000 | ... elapsed time per iteration (ms): 3171.3": 10 x 3.1713 s later.
    EXPECT_EQ(r.run.steps[0].step, 10);
    EXPECT_EQ(start + r.run.steps[0].time, at("2021-05-23T08:23:58Z") + 10 * 3'171'300'000LL);
    EXPECT_EQ(r.run.steps[0].duration, 3'171'300'000LL);
    EXPECT_EQ(r.run.steps.back().step, 200);
    EXPECT_EQ(start + r.run.steps.back().time, 1621758578446000000LL);
    // "slurmstepd: error: *** JOB 1809562 ON r6i5n1 CANCELLED AT 2021-05-23T08:29:53 ***"
    ASSERT_EQ(r.run.failures.size(), 1u);
    EXPECT_EQ(start + r.run.failures[0].time, at("2021-05-23T08:29:53Z"));
    EXPECT_NE(r.run.failures[0].detail.find("Slurm job 1809562 cancelled on r6i5n1"), std::string::npos);
    EXPECT_EQ(r.run.failures[0].component.kind, ComponentKind::Host);
    EXPECT_TRUE(r.run.topology.findHost("r6i5n1"));
    // The file is job 1809562's own stdout: that job trained the run (it said "No job trained this run").
    ASSERT_EQ(std::count_if(r.run.jobs.begin(), r.run.jobs.end(), [](const Job& j) { return j.inRun; }), 1);
    EXPECT_EQ(std::find_if(r.run.jobs.begin(), r.run.jobs.end(), [](const Job& j) { return j.inRun; })->id, "1809562");
    EXPECT_TRUE(r.run.downtimes.empty()) << "one job's log is no chain of jobs to find downtimes between";
}

TEST(TrainingLog, TheClusterDrawnForAMegatronLogIsTheOneItDescribes) {
    // "using world size: 32, data-parallel-size: 1, tensor-model-parallel size: 4,
    // pipeline-model-parallel size: 8", launched with --nproc_per_node 4 --nnodes 8 from
    // r6i5n1, the batch host of "JOB 1809562 ON r6i5n1 CANCELLED": it was drawn as 36 GPUs on
    // 5 hosts (4 on r6i5n1, then 8-GPU hosts for the rest).
    FAULTLINE_REQUIRE_REALDATA();
    const ImportResult r = importPaths({realData("training_logs/bigscience/experiments/gpt2-meg/meg_gpt2_base_n8_dp1_tp4_pp8-1809562.out")});
    const Topology& t = r.run.topology;
    EXPECT_EQ(t.gpus.size(), 32u);
    ASSERT_EQ(t.hosts.size(), 8u);
    for (const Host& h : t.hosts) EXPECT_EQ(h.gpuCount, 4) << h.name;
    // Rank 0 is on the batch host; the others drawn apart as unplaced, and the import says so.
    const auto r6i5n1 = t.findHost("r6i5n1");
    ASSERT_TRUE(r6i5n1);
    EXPECT_EQ(t.gpus[static_cast<std::size_t>(r.run.rankToGpu.at(0))].host, *r6i5n1);
    ASSERT_TRUE(t.findHost("unplaced ranks 28-31"));
    EXPECT_EQ(t.gpuName(r.run.rankToGpu.at(29)), "rank 29 (host unknown)");
    EXPECT_EQ(t.zones.at(static_cast<std::size_t>(t.racks.at(static_cast<std::size_t>(t.hosts.at(static_cast<std::size_t>(*r6i5n1)).rack)).zone)).name, "zone0");
    EXPECT_EQ(t.zones.back().name, kUnplacedZoneName);
    const std::vector<std::string>& notes = r.summary.files.back().notes;
    EXPECT_TRUE(std::any_of(notes.begin(), notes.end(), [](const std::string& n) {
        return n == "no file names the hosts of 28 of the 32 ranks (the first is rank 4): drawn on 7 hosts of 4 GPUs apart from the named ones, as unplaced (\"unplaced ranks 4-7\", ...)";
    })) << (notes.empty() ? "no notes" : notes.front());
    // The job's shape is kept in the run.
    EXPECT_EQ(r.run.jobShape, (JobShape{32, 4, 4, 8, 1}));
}

TEST(TrainingLog, MegatronCheckpointLinesAndTimers) {
    const ImportResult r = importPaths({fixture("megatron_checkpoints.log")});
    const FileReport& f = r.summary.files.at(0);
    EXPECT_EQ(f.format, "training-log");
    EXPECT_EQ(f.counts.at("steps"), 3);
    EXPECT_EQ(f.counts.at("checkpoint loads"), 1);
    EXPECT_EQ(f.counts.at("checkpoint saves"), 1);
    EXPECT_EQ(f.skippedLines, 1);
    ASSERT_EQ(f.warnings.size(), 1u);
    EXPECT_NE(f.warnings[0].find("megatron_checkpoints.log:13: expected \"iteration N/ M"), std::string::npos) << f.warnings[0];
    const EpochNs start = r.run.info.startEpochNs;
    ASSERT_EQ(r.run.checkpoints.size(), 2u);
    const Checkpoint& load = r.run.checkpoints[0];
    EXPECT_EQ(load.kind, CheckpointKind::Load);
    EXPECT_EQ(load.step, 1000);
    EXPECT_EQ(start + load.begin, at("2024-03-02T11:00:00Z"));
    EXPECT_EQ(load.end - load.begin, 45'000'000'000LL);  // load-checkpoint: 45000.00
    const Checkpoint& save = r.run.checkpoints[1];
    EXPECT_EQ(save.kind, CheckpointKind::Save);
    EXPECT_EQ(save.step, 1020);
    EXPECT_EQ(start + save.begin, at("2024-03-02T11:01:41.005Z"));  // 11:01:00 + 10 x 2.0 s + 10 x 2.1005 s
    EXPECT_EQ(save.end - save.begin, 30'500'250'000LL);
    // Training resumes from the loaded iteration 1000; the save's 30.5 s delay iteration 1030.
    EXPECT_EQ(start + r.run.steps[0].time, at("2024-03-02T11:01:20Z"));
    EXPECT_EQ(start + r.run.steps[2].time, at("2024-03-02T11:02:31.40525Z"));
}

TEST(TrainingLog, TorchtitanStepsAndCheckpoints) {
    const ImportResult r = importPaths({fixture("torchtitan_rank0.log")});
    const FileReport& f = r.summary.files.at(0);
    EXPECT_EQ(f.format, "training-log");
    EXPECT_EQ(f.counts.at("steps"), 4);
    ASSERT_EQ(r.run.steps.size(), 4u);
    EXPECT_EQ(r.run.steps[1].step, 620);
    EXPECT_EQ(r.run.steps[1].duration, 1'500'000'000LL);  // 15 s over 10 steps
    EXPECT_EQ(r.run.steps[3].step, 640);                    // "step: 640/644 = 99.3789%"
    EXPECT_EQ(r.run.steps[3].duration, 2'100'000'000LL);
    ASSERT_EQ(r.run.checkpoints.size(), 2u);
    const EpochNs start = r.run.info.startEpochNs;
    EXPECT_EQ(r.run.checkpoints[0].kind, CheckpointKind::Load);
    EXPECT_EQ(r.run.checkpoints[0].step, 600);
    EXPECT_EQ(start + r.run.checkpoints[0].end, at("2025-04-01T00:10:14.750Z"));
    EXPECT_EQ(r.run.checkpoints[1].kind, CheckpointKind::Save);
    EXPECT_EQ(r.run.checkpoints[1].step, 630);
    EXPECT_EQ(start + r.run.checkpoints[1].begin, at("2025-04-01T00:11:01Z"));
    EXPECT_EQ(start + r.run.checkpoints[1].end, at("2025-04-01T00:11:06.530Z"));
}

TEST(TrainingLog, WatchdogTimeoutsOfOneHangAreOneFailure) {
    const ImportResult r = importPaths({fixture("nccl_watchdog.log")});
    const FileReport& f = r.summary.files.at(0);
    EXPECT_EQ(f.counts.at("watchdog timeouts"), 2);
    EXPECT_EQ(f.ranks, (std::set<std::int32_t>{0, 1, 3}));  // rank 0 by its "[rank0]:" step line
    ASSERT_EQ(r.run.failures.size(), 1u);
    const Failure& x = r.run.failures[0];
    EXPECT_EQ(x.cause, RootCause::NcclWatchdogTimeout);
    EXPECT_EQ(r.run.info.startEpochNs + x.time, at("2025-06-10T03:10:05.123456Z"));  // glog "E610 03:10:05.123456", year from the log
    ASSERT_EQ(x.gpus.size(), 2u);
    EXPECT_EQ(x.gpus[0], r.run.rankToGpu[3]);
    EXPECT_EQ(x.gpus[1], r.run.rankToGpu[1]);
    EXPECT_NE(x.detail.find("ALLREDUCE (SeqNum 10240) after 600 s"), std::string::npos) << x.detail;
}

}  // namespace
}  // namespace faultline
