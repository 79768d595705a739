// `faultline-cli import` as a user runs it: the real binary, its output and exit status.
#include "import_test_util.h"

#include "model/run_file.h"
#include "test_runs.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <sys/wait.h>

namespace faultline {
namespace {

using test::fixture;
using test::realData;

using Result = test::CommandResult;

Result runCli(const std::string& args, bool withStderr = true) {
    return test::runCommand(std::string(FAULTLINE_CLI) + " " + args, withStderr);
}

TEST(CliImport, PrintsFormatCountsSpanAndRanksPerFile) {
    FAULTLINE_REQUIRE_REALDATA();
    test::ScratchDir dir;
    const std::string out = dir.file("run.faultline");
    const Result r = runCli("import " + realData("kineto/HolisticTraceAnalysis/tests/data/trace_filter") + " -o " + out);
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("sampled_rank-1.json.gz\n  format: kineto\n  collectives: 10\n  steps: 2\n  trace events: 4720\n"),
              std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("  ranks: 1\n"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("  time: 2023-04-28T23:51:38.079484Z .. "), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("wrote " + out + ": 16 hosts, 128 GPUs (topology derived from the files)"), std::string::npos) << r.output;
    // Two traced ranks of a 128-rank job: the other 126 GPUs are "no data", and the import says so.
    EXPECT_NE(r.output.find("no trace covers 126 of the job's 128 GPUs"), std::string::npos) << r.output;
    const faultline::Run run = readRunFile(out);
    EXPECT_EQ(run.collectives.size(), 20u);
    ASSERT_EQ(run.untracedGpus.size(), 126u);
    for (std::int32_t rank : {0, 1})
        EXPECT_FALSE(std::binary_search(run.untracedGpus.begin(), run.untracedGpus.end(), run.rankToGpu[static_cast<std::size_t>(rank)])) << rank;
    const Result summary = runCli("summary " + out);
    EXPECT_NE(summary.output.find("Traced GPUs                  2 of 128; no data on the other 126"), std::string::npos) << summary.output;
}

TEST(CliImport, JsonOutputSaysTheSame) {
    test::ScratchDir dir;
    const std::string out = dir.file("run.faultline");
    const Result r = runCli("import " + fixture("xid_journal.log") + " --year 2025 --json -o " + out, false);
    ASSERT_EQ(r.status, 0) << r.output;
    const nlohmann::json j = nlohmann::json::parse(r.output);
    ASSERT_EQ(j["files"].size(), 1u);
    EXPECT_EQ(j["files"][0]["format"], "kernel-log");
    EXPECT_EQ(j["files"][0]["counts"]["failures"], 3);
    EXPECT_EQ(j["files"][0]["first"], "2025-01-21T04:41:40.000000Z");  // the log's first line: the run spans all it dates
    EXPECT_EQ(j["hosts"], 2);
    EXPECT_EQ(j["output"], out);
}

TEST(CliImport, FormatOverrideAndRankMap) {
    FAULTLINE_REQUIRE_REALDATA();
    test::ScratchDir dir;
    const std::string map = dir.file("ranks.txt");
    {
        std::FILE* f = std::fopen(map.c_str(), "w");
        std::fputs("# rank host local_gpu\n0 node-a 3\n1 node-b 0\n", f);
        std::fclose(f);
    }
    const std::string out = dir.file("run.faultline");
    const Result r = runCli("import --format kineto --rank-map " + map + " " +
                            realData("kineto/HolisticTraceAnalysis/tests/data/nccl_parser_config/nccl_data.json.gz") + " -o " + out);
    ASSERT_EQ(r.status, 0) << r.output;
    const faultline::Run run = readRunFile(out);
    EXPECT_EQ(run.topology.gpuName(run.rankToGpu.at(0)), "node-a-gpu3");
    EXPECT_EQ(run.topology.gpuName(run.rankToGpu.at(1)), "node-b-gpu0");
}

TEST(CliImport, UnknownFormatFailsWithTheFileNamedAndWritesNothing) {
    test::ScratchDir dir;
    const std::string out = dir.file("run.faultline");
    const Result r = runCli("import " + fixture("garbage.txt") + " -o " + out);
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.output.find("faultline-cli import: " + fixture("garbage.txt") + ": unknown format"), std::string::npos) << r.output;
    EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(CliImport, MissingOutputIsAUsageError) {
    const Result r = runCli("import " + fixture("garbage.txt"));
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.output.find("-o RUN.faultline"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace faultline

namespace faultline {
namespace {

using test::realData;
using Result = test::CommandResult;

Result runHangCli(const std::string& args, bool withStderr = true) {
    return test::runCommand(std::string(FAULTLINE_CLI) + " " + args, withStderr);
}

// One truth: the hang the import stores is the one `hang` finds in the dumps, and the run
// file gives it back to `hang` (it refused run files: "not a Flight Recorder dump").
TEST(CliImport, AnImportedHangIsTheOneHangFindsInTheDumps) {
    FAULTLINE_REQUIRE_REALDATA();
    test::ScratchDir dir;
    const std::string dumps = realData("flight_recorder/nvidia-resiliency-ext/tests/attribution/unit/fr_traces/gpu_error_1st");
    const std::string out = dir.file("fr.faultline");
    ASSERT_EQ(runHangCli("import " + dumps + " -o " + out).status, 0);
    const Result fromDumps = runHangCli("hang " + dumps, false);
    const Result fromRun = runHangCli("hang " + out, false);
    EXPECT_EQ(fromDumps.status, 0);
    EXPECT_EQ(fromRun.status, 0);
    EXPECT_NE(fromDumps.output.find("Culprit ranks: 12\n"), std::string::npos) << fromDumps.output;
    EXPECT_EQ(fromRun.output, fromDumps.output);
    EXPECT_EQ(runHangCli("hang --json " + out, false).output, runHangCli("hang --json " + dumps, false).output);

    // A run imported from other files has no hang to give.
    const std::string kineto = dir.file("k.faultline");
    ASSERT_EQ(runHangCli("import " + realData("kineto/HolisticTraceAnalysis/tests/data/trace_filter") + " -o " + kineto).status, 0);
    const Result none = runHangCli("hang " + kineto);
    EXPECT_EQ(none.status, 1);
    EXPECT_NE(none.output.find(kineto + ": the run holds no hang analysis"), std::string::npos) << none.output;
}

}  // namespace
}  // namespace faultline
