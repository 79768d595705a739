// Checkpoint timelines and the job's shape from what a training job prints: Megatron-LM's
// sync and async saves, torchtitan's saves, loads, sizes, the SLURM_* banner and the
// parallel sizes.
#include "import_test_util.h"

#include "importers/console/job_banner.h"
#include "importers/text/text_parse.h"
#include "importers/console/training_log_line.h"

#include <fstream>

namespace faultline {
namespace {

using test::fixture;
using test::importPaths;

TEST(CheckpointLines, AsyncSaveRunsFromItsSchedulingToItsFinalisation) {
    const ImportResult r = importPaths({fixture("checkpoints_async_titan.log")});
    const faultline::Run& run = r.run;
    const EpochNs start = run.info.startEpochNs;
    ASSERT_EQ(run.checkpoints.size(), 3u);
    const Checkpoint& load = run.checkpoints[0];
    EXPECT_EQ(load.kind, CheckpointKind::Load);
    EXPECT_EQ(load.step, 1000);
    EXPECT_EQ(start + load.end - (start + load.begin), 90 * kSecond);
    const Checkpoint& async = run.checkpoints[1];
    EXPECT_EQ(async.kind, CheckpointKind::Save);
    EXPECT_EQ(async.step, 1002);
    EXPECT_EQ(start + async.begin, *parseIsoTime("2025-03-01T10:01:43Z"));
    EXPECT_EQ(start + async.end, *parseIsoTime("2025-03-01T10:02:31Z"));
    EXPECT_EQ(async.bytes, 1'200'000'000'000);
    const Checkpoint& titan = run.checkpoints[2];
    EXPECT_EQ(titan.step, 1500);
    EXPECT_EQ(titan.end - titan.begin, 12'500 * kMillisecond);
    // Iterations after the load count from the loaded one: the steps tie to the checkpoints.
    ASSERT_EQ(run.steps.size(), 4u);
    EXPECT_EQ(run.steps.front().step, 1001);
}

TEST(CheckpointLines, BannerGivesTheJobAndItsShape) {
    const ImportResult r = importPaths({fixture("checkpoints_async_titan.log")});
    ASSERT_EQ(r.run.jobs.size(), 1u);
    const Job& j = r.run.jobs[0];
    EXPECT_EQ(j.id, "88001");
    EXPECT_EQ(j.name, "mixtral-pretrain");
    EXPECT_EQ(j.hosts.size(), 4u);
    // 32 ranks, 8 to a node, on the job's nodes in order.
    EXPECT_EQ(r.run.topology.gpus.size(), 32u);
    ASSERT_EQ(r.run.rankToGpu.size(), 32u);
    EXPECT_EQ(r.run.topology.gpuName(r.run.rankToGpu[9]), "gpu-002-gpu1");
}

TEST(CheckpointLines, SizesAndParallelSizesAreRead) {
    EXPECT_EQ(sizeInLine("saved (812.5 GB) in 3 s"), 812'500'000'000);
    EXPECT_EQ(sizeInLine("checkpoint size 2 GiB"), 2LL << 30);
    EXPECT_EQ(sizeInLine("iteration 1000 to /ckpt/llama3-405b"), 0);
    // Found by the training-log harness: 1.9e20 bytes overflowed the conversion; it is no size.
    EXPECT_EQ(sizeInLine("saved (186917000000 GB) in 3 s"), 0);
    const auto sizes = parseParallelSizes("using world size: 32, data-parallel-size: 1, tensor-model-parallel size: 4, pipeline-model-parallel size: 8 ");
    ASSERT_TRUE(sizes);
    EXPECT_EQ(sizes->world, 32);
    EXPECT_EQ(sizes->data, 1);
    EXPECT_EQ(sizes->tensor, 4);
    EXPECT_EQ(sizes->pipeline, 8);
    const auto v = parseSlurmVariable("++ export SLURM_JOB_NODELIST='r6i5n[1-8]'");
    ASSERT_TRUE(v);
    EXPECT_EQ(v->name, "SLURM_JOB_NODELIST");
    EXPECT_EQ(v->value, "r6i5n[1-8]");
    EXPECT_FALSE(parseSlurmVariable("SLURM_MPI_TYPE=pmix"));
}

// PyTorch Distributed Checkpoint: torchtitan's lines with DCP's own. An async save runs
// from the caller's "Saving" to the background writer's "Completed"; a save whose writer
// failed is no checkpoint; DCP's event dicts time a synchronous save and a load.
TEST(CheckpointLines, DistributedCheckpointSavesLoadsAndFailures) {
    const ImportResult r = importPaths({fixture("dcp_async_checkpoints.log")});
    const faultline::Run& run = r.run;
    const EpochNs start = run.info.startEpochNs;
    ASSERT_EQ(run.checkpoints.size(), 3u);
    const Checkpoint& load = run.checkpoints[0];
    EXPECT_EQ(load.kind, CheckpointKind::Load);
    EXPECT_EQ(load.step, 2097);
    EXPECT_EQ(start + load.begin, *parseIsoTime("2025-04-02T09:00:00Z"));
    EXPECT_EQ(start + load.end, *parseIsoTime("2025-04-02T09:00:42.100Z"));  // the last report of it
    const Checkpoint& async = run.checkpoints[1];
    EXPECT_EQ(async.kind, CheckpointKind::Save);
    EXPECT_EQ(async.step, 2100);
    EXPECT_EQ(start + async.begin, *parseIsoTime("2025-04-02T09:01:21Z"));
    EXPECT_EQ(start + async.end, *parseIsoTime("2025-04-02T09:02:41Z"));  // written, not staged
    const Checkpoint& sync = run.checkpoints[2];
    EXPECT_EQ(sync.step, 2200);  // from the checkpoint's path
    EXPECT_EQ(sync.end - sync.begin, 65'250 * kMillisecond);
    EXPECT_EQ(r.summary.files.at(0).format, "training-log");
    EXPECT_EQ(r.summary.files.at(0).counts.at("failed checkpoint saves"), 1);
    EXPECT_EQ(r.summary.files.at(0).counts.at("checkpoint saves"), 2);
}

// NVIDIA Resiliency Extension's async checkpointing: scheduled at the iteration Megatron
// last printed, finalised when the last rank's finalisation ran.
TEST(CheckpointLines, ResiliencyExtensionAsyncSaveEndsAtItsFinalisation) {
    const ImportResult r = importPaths({fixture("nvrx_async_checkpoints.log")});
    const faultline::Run& run = r.run;
    const EpochNs start = run.info.startEpochNs;
    ASSERT_EQ(run.checkpoints.size(), 2u);
    EXPECT_EQ(run.checkpoints[0].step, 100);
    EXPECT_EQ(start + run.checkpoints[0].begin, *parseIsoTime("2025-05-10T14:00:00.400Z"));
    EXPECT_EQ(start + run.checkpoints[0].end, *parseIsoTime("2025-05-10T14:00:31.750Z"));
    EXPECT_EQ(run.checkpoints[1].step, 110);
    EXPECT_EQ(start + run.checkpoints[1].end, *parseIsoTime("2025-05-10T14:01:19Z"));
    EXPECT_EQ(run.topology.gpus.size(), 16u);  // the banner's two nodes of 8
}

// torchrun's "[rankN]:" prefixes: each rank's step lines time that rank's steps, so a rank
// whose steps ran long is a straggler episode of the imported run, on its own GPU.
TEST(CheckpointLines, RankPrefixedStepsFindAStraggler) {
    const ImportResult r = importPaths({fixture("torchtitan_4ranks_straggler.log")});
    const faultline::Run& run = r.run;
    EXPECT_EQ(run.steps.size(), 40u);        // the job's steps, as rank 0 reports them
    EXPECT_EQ(run.rankSteps.size(), 160u);   // every rank's own
    EXPECT_EQ(run.rankToGpu.size(), 4u);  // the ranks the prefixes name
    ASSERT_EQ(run.stragglers.size(), 1u);
    const StragglerEpisode& e = run.stragglers[0];
    EXPECT_EQ(e.gpu, run.rankToGpu[2]);
    const EpochNs start = run.info.startEpochNs;
    EXPECT_EQ(start + e.begin, *parseIsoTime("2025-06-02T08:01:52.5Z"));  // rank 2's first long step (11) done
    EXPECT_GT(e.slowdown, 1.2);

    const auto global = rankPrefix("[rank12]:[titan] 2025-06-02 08:00:00,000 - root - INFO - step: 1");
    ASSERT_TRUE(global);
    EXPECT_EQ(global->rank, 12);
    EXPECT_FALSE(global->local);
    const auto local = rankPrefix("[default7]: iteration 10/ 100 | elapsed time per iteration (ms): 5.0 |");
    ASSERT_TRUE(local);
    EXPECT_TRUE(local->local);
    EXPECT_FALSE(rankPrefix("[rank]: x"));
    EXPECT_FALSE(rankPrefix("[2025-06-02 08:00:00] iteration 1"));
}

// NCCL's communicator inits behind torchrun's "[defaultN]:" prefixes say which host each rank
// ran on: the world's communicator (8 ranks) places them; the tensor-parallel ones (4 ranks,
// numbered within their group) do not. busId gives each GPU's PCI bus id.
TEST(CheckpointLines, NcclCommInitsPlaceRanksOnTheirHosts) {
    const ImportResult r = importPaths({fixture("nccl_comm_init.log")});
    const faultline::Run& run = r.run;
    EXPECT_EQ(r.summary.files.at(0).format, "training-log");
    EXPECT_EQ(r.summary.files.at(0).counts.at("rank placements"), 8);
    ASSERT_EQ(run.rankToGpu.size(), 8u);
    EXPECT_EQ(run.topology.hosts.size(), 2u);
    EXPECT_EQ(run.topology.gpus.size(), 8u);  // torchrun's nproc_per_node: 4 GPUs a host
    EXPECT_EQ(run.topology.gpuName(run.rankToGpu[0]), "gpu-a17-gpu0");
    EXPECT_EQ(run.topology.gpuName(run.rankToGpu[6]), "gpu-a18-gpu2");
    const Gpu& g = run.topology.gpus[static_cast<std::size_t>(run.rankToGpu[5])];
    EXPECT_EQ(g.pciBusId, "0000:2a:00.0");
    EXPECT_EQ(run.steps.size(), 1u);
    EXPECT_TRUE(run.rankSteps.empty());  // "[default0]:" is a local rank: it numbers no rank's steps

    const auto old = parseNcclCommInit("node01:2345:2400 [3] NCCL INFO comm 0x55c4 rank 11 nranks 16 cudaDev 3 nvmlDev 3 busId 3d000 commId 0x1c - Init COMPLETE");
    ASSERT_TRUE(old);
    EXPECT_EQ(old->host, "node01");
    EXPECT_EQ(old->rank, 11);
    EXPECT_EQ(old->ranks, 16);
    EXPECT_EQ(old->device, 3);
    EXPECT_EQ(old->pciBusId, "0000:3d:00");
    const auto mpi = parseNcclCommInit("[1,0]<stdout>:test-nccl-worker-0:21:28 [0] NCCL INFO comm 0x55c4c398fed0 rank 0 nRanks 1 nNodes 1 localRanks 1 localRank 0 MNNVL 0");
    ASSERT_TRUE(mpi);
    EXPECT_EQ(mpi->host, "test-nccl-worker-0");
    EXPECT_FALSE(parseNcclCommInit("NCCL INFO comm 0x... rank 0 nranks 8 : chose Ring protocol LL128"));
    EXPECT_EQ(parseTorchrunShape("  nproc_per_node   : 8")->procsPerNode, 8);
    EXPECT_EQ(parseTorchrunShape("  global_world_sizes=[16, 16, 16, 16]")->worldSize, 16);
    EXPECT_FALSE(parseTorchrunShape("  nproc_per_node   : gpu"));
}

TEST(CheckpointLines, StepsAreReadFromCheckpointPaths) {
    EXPECT_EQ(stepInCheckpointPath("/checkpoints/llama3-8b/step-2100"), 2100);
    EXPECT_EQ(stepInCheckpointPath("/lustre/ckpt/gpt/iter_0001500"), 1500);
    EXPECT_EQ(stepInCheckpointPath("s3://bucket/run7/global_step300/"), 300);
    EXPECT_EQ(stepInCheckpointPath("/out/epoch=0-step=4200.ckpt"), 4200);
    EXPECT_EQ(stepInCheckpointPath("/lustre/ckpt/mixtral"), -1);
    const auto failed = parseCheckpointLine("[3] 2025-04-02 09:03:40,000 - root - ERROR - Checkpoint save failed for checkpoint_id=/c/step-7: disk step 9 full");
    ASSERT_TRUE(failed);
    EXPECT_EQ(failed->event, CheckpointEvent::SaveFailed);
    EXPECT_EQ(failed->step, 7);
    // async_save's own end is the staging done: the background save ends the checkpoint.
    EXPECT_FALSE(parseCheckpointLine("{'checkpoint_id': '/c/step-7', 'func_name': 'async_save', 'event': 'end', 'time': 5}"));
    const auto dcpStart = parseCheckpointLine("{'checkpoint_id': '/c/step-7', 'func_name': 'async_save', 'event': 'start', 'time': 5}");
    ASSERT_TRUE(dcpStart);
    EXPECT_EQ(dcpStart->event, CheckpointEvent::SaveBegin);
    EXPECT_EQ(dcpStart->at, 5);
}

// A banner line that cannot be read is named with its file and line, and the rest is read.
TEST(CheckpointLines, BadNodeListIsReportedWithItsLine) {
    test::ScratchDir dir;
    const std::string path = dir.file("job.out");
    std::ofstream(path) << "SLURM_JOB_ID=5\nSLURM_JOB_NODELIST=node[1-\n"
                           "[2025-03-01 10:01:36]  iteration        1/     100 | elapsed time per iteration (ms): 6000.0 |\n";
    const ImportResult r = importPaths({path});
    const FileReport& f = r.summary.files.at(0);
    EXPECT_EQ(f.skippedLines, 1);
    ASSERT_EQ(f.warnings.size(), 1u);
    EXPECT_NE(f.warnings[0].find(path + ":2: SLURM_JOB_NODELIST: "), std::string::npos) << f.warnings[0];
    EXPECT_EQ(r.run.steps.size(), 1u);
    ASSERT_EQ(r.run.jobs.size(), 1u);
    EXPECT_EQ(r.run.jobs[0].id, "5");
}

}  // namespace
}  // namespace faultline
