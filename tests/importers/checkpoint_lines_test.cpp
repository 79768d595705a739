// Checkpoint timelines and the job's shape from what a training job prints: Megatron-LM's
// sync and async saves, torchtitan's saves, loads, sizes, the SLURM_* banner and the
// parallel sizes.
#include "import_test_util.h"

#include "importers/job_banner.h"
#include "importers/text_parse.h"
#include "importers/training_log_line.h"

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
