// Sharded import: every shard count must merge to the run a single import gives, on the
// per-rank traces of a simulated run and on real Kineto traces.
#include "import_test_util.h"
#include "rank_event_files.h"
#include "stored_figure_checks.h"

#include "analysis/hang_analysis.h"
#include "analysis/straggler_analysis.h"
#include "analysis/summary.h"
#include "model/run_file.h"
#include "simulator/cluster_logs.h"

#include <nlohmann/json.hpp>

#include <fstream>

namespace faultline {
namespace {

using test::errorOf;
using test::importPaths;
using test::realData;
using test::ScratchDir;

using test::writeRankFiles;

// What a user compares: the summary and the straggler table, as the CLI prints them.
std::string figures(const Run& run) {
    return summaryToJson(summarize(run)).dump() + "\n" + stragglersToJson(analyzeStragglers(run), run).dump();
}

// The real captures below come from different years: merged on purpose, as --allow-disjoint does.
ImportOptions mixedYears() {
    ImportOptions o;
    o.allowDisjoint = true;
    return o;
}

std::string mergedFigures(const std::vector<std::string>& inputs, int shards, const ScratchDir& dir, const std::string& tag) {
    std::vector<std::string> parts;
    for (int i = shards - 1; i >= 0; --i) {  // merged in reverse order: order must not matter
        parts.push_back(dir.file(tag + "-" + std::to_string(i) + "-of-" + std::to_string(shards) + ".shard"));
        writeShardFile(importShard(inputs, mixedYears(), i, shards), parts.back());
    }
    const ImportResult merged = mergeShards(parts, mixedYears());
    const std::string out = dir.file(tag + "-" + std::to_string(shards) + ".faultline");
    writeRunFile(merged.run, out);
    return figures(readRunFile(out));
}

TEST(ShardedImport, SimulatedRankTracesMergeToTheSingleImport) {
    ScratchDir dir;
    const std::vector<std::string> inputs = writeRankFiles(dir);
    const ImportResult single = importPaths(inputs);
    ASSERT_GT(single.run.collectives.size(), 5000u);
    ASSERT_FALSE(analyzeStragglers(single.run).ranks.empty());
    const std::string expected = figures(single.run);
    for (int shards : {1, 2, 3, 8}) EXPECT_EQ(mergedFigures(inputs, shards, dir, "sim"), expected) << shards << " shards";
}

// The figures an import stores (worked out with the straggler analysis it made as it built the
// run) are those `summary` works out again from the run file, late ranks included: for a
// single import and for a merge of shards.
TEST(ShardedImport, TheStoredFiguresOfATracedRunAreThoseWorkedOutFromItsFile) {
    ScratchDir dir;
    const std::vector<std::string> inputs = writeRankFiles(dir);
    const std::string single = dir.file("single.faultline");
    importToRunFile(inputs, single, {});
    std::vector<std::string> parts;
    for (int i = 0; i < 2; ++i) {
        parts.push_back(dir.file("part" + std::to_string(i) + ".shard"));
        writeShardFile(importShard(inputs, {}, i, 2), parts.back());
    }
    const ImportResult merged = mergeShards(parts, {});
    const std::string mergedFile = dir.file("merged.faultline");
    writeRunFileWithFigures(merged.run, mergedFile, {}, &merged.stragglers);
    for (const std::string& path : {single, mergedFile}) {
        SCOPED_TRACE(path);
        const std::string text = test::storedFiguresChecked(path);
        EXPECT_NE(text.find("Late ranks: rank "), std::string::npos) << text;
    }
}

TEST(ShardedImport, RealKinetoTracesMergeToTheSingleImport) {
    FAULTLINE_REQUIRE_REALDATA();
    ScratchDir dir;
    const std::vector<std::string> inputs = {realData("kineto/HolisticTraceAnalysis/tests/data/trace_filter"),
                                             realData("kineto/HolisticTraceAnalysis/tests/data/nccl_parser_config"),
                                             realData("xid_kernel_logs/gpud/components/memory/testdata/dmesg.decode.iso.log")};
    const ImportResult single = importPaths(inputs, mixedYears());
    // Figures of an empty run would agree too: the traces' collectives and the kernel log's
    // failures must be in it.
    ASSERT_FALSE(single.run.collectives.empty());
    ASSERT_FALSE(single.run.failures.empty());
    const std::string expected = figures(single.run);
    for (int shards : {1, 2, 3, 8}) EXPECT_EQ(mergedFigures(inputs, shards, dir, "real"), expected) << shards << " shards";
}

// Flight Recorder dumps travel whole in the shards: the merged run has the hang, the incident
// and the collectives the single import has.
TEST(ShardedImport, FlightRecorderDumpsMergeToTheSameHang) {
    FAULTLINE_REQUIRE_REALDATA();
    ScratchDir dir;
    const std::vector<std::string> inputs = {realData("flight_recorder/nvidia-resiliency-ext/tests/attribution/unit/fr_traces/gpu_error_1st")};
    const ImportResult single = importPaths(inputs);
    ASSERT_TRUE(single.run.hang);
    const std::string expected = figures(single.run) + hangToText(*single.run.hang);
    for (int shards : {1, 3}) {
        std::vector<std::string> parts;
        for (int i = 0; i < shards; ++i) {
            parts.push_back(dir.file("fr-" + std::to_string(i) + "-of-" + std::to_string(shards) + ".shard"));
            writeShardFile(importShard(inputs, {}, i, shards), parts.back());
        }
        const ImportResult merged = mergeShards(parts, {});
        ASSERT_TRUE(merged.run.hang) << shards;
        EXPECT_EQ(figures(merged.run) + hangToText(*merged.run.hang), expected) << shards << " shards";
        EXPECT_EQ(merged.run.collectives.size(), single.run.collectives.size());
        EXPECT_EQ(merged.run.failures.at(0).detail, single.run.failures.at(0).detail);
    }
}

TEST(ShardedImport, AClustersOwnFilesMergeToTheSingleImport) {
    // Jobs, restarts and downtimes come from sacct, kernel logs and training stdout spread
    // over the shards: the merged run must have the same chain, downtimes and figures.
    ScratchDir dir;
    writeClusterLogs(test::tinyRun(), dir.file("cluster"), "train");
    const std::vector<std::string> inputs = {dir.file("cluster")};
    const ImportResult single = importPaths(inputs);
    ASSERT_FALSE(single.run.downtimes.empty());
    const std::string expected = figures(single.run);
    for (int shards : {2, 3}) EXPECT_EQ(mergedFigures(inputs, shards, dir, "cluster"), expected) << shards << " shards";
}

// What the newer training-log lines add travels in the shards too: in-job restarts, checkpoint
// timelines of DCP and NVRx, rank placements from NCCL, submit-line dependencies.
TEST(ShardedImport, LauncherAndCheckpointLinesMergeToTheSingleImport) {
    ScratchDir dir;
    const std::vector<std::string> inputs = {test::fixture("ft_launcher_in_job_restart.log"), test::fixture("dcp_async_checkpoints.log"),
                                             test::fixture("nccl_comm_init.log"), test::fixture("jobs/dependency-retry.sacct.json")};
    const ImportResult single = importPaths(inputs, mixedYears());
    // The in-job restart, and the gap between the two jobs the logs name (nccl_comm_init.log's
    // "[2025-07-01 06:00:00] SLURM_JOB_ID=77010": its collector prefix is peeled).
    ASSERT_EQ(single.run.downtimes.size(), 2u);
    const std::string expected = figures(single.run);
    for (int shards : {2, 4}) EXPECT_EQ(mergedFigures(inputs, shards, dir, "launcher"), expected) << shards << " shards";
}

TEST(ShardedImport, MissingForeignAndRepeatedShardsAreNamed) {
    ScratchDir dir;
    const std::vector<std::string> inputs = writeRankFiles(dir);
    const std::string a = dir.file("a.shard"), b = dir.file("b.shard"), other = dir.file("other.shard");
    writeShardFile(importShard(inputs, {}, 0, 3), a);
    writeShardFile(importShard(inputs, {}, 1, 3), b);
    writeShardFile(importShard(inputs, {}, 0, 2), other);
    EXPECT_NE(errorOf([&] { mergeShards({a, b}, {}); }).find("shard 3 of 3 is missing"), std::string::npos);
    EXPECT_NE(errorOf([&] { mergeShards({a, other}, {}); }).find(other + " is shard 1 of 2 of another import"), std::string::npos);
    EXPECT_NE(errorOf([&] { mergeShards({a, a}, {}); }).find("are both shard 1 of 3"), std::string::npos);
    EXPECT_NE(errorOf([&] { mergeShards({inputs.front()}, {}); }).find("is not a Faultline import shard"), std::string::npos);
}

}  // namespace
}  // namespace faultline
