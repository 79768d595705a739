// `faultline-cli import` (and merge, power, telemetry) as a user runs it: the real binary, its
// output and exit status. What each command reads is tested in tests/importers.
#include "file_bytes.h"
#include "cli_command.h"
#include "import_test_util.h"
#include "rank_event_files.h"
#include "round_trip_checks.h"

#include "model/run_file.h"
#include "test_runs.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sys/wait.h>

namespace faultline {
namespace {

using test::writeFile;
using test::runCli;
using test::fixture;
using test::realData;

using Result = test::CommandResult;

// sacct written with --noheader and a custom --delimiter: refused with the --sacct-fields list
// that would read it, and read once that list (or the user's own) is given.
TEST(CliImport, HeaderlessSacctSaysWhichSacctFieldsReadItAndTheOptionReadsIt) {
    test::ScratchDir dir;
    const std::string out = dir.file("run.faultline");
    const std::string file = fixture("sacct_noheader_arrow.txt");
    const Result refused = runCli("import " + file + " -o " + out);
    EXPECT_NE(refused.status, 0);
    EXPECT_NE(refused.output.find("sacct_noheader_arrow.txt:1: no header line (sacct --noheader): its 6 columns separated by \"\xe2\x86\x92\""),
              std::string::npos)
        << refused.output;
    EXPECT_NE(refused.output.find("--sacct-fields JobID,-,State,Start,End,-"), std::string::npos) << refused.output;
    EXPECT_FALSE(std::filesystem::exists(out));
    for (const char* list : {"JobID,-,State,Start,End,-", "JobID,JobName,State,Start,End,NodeList"}) {
        const Result read = runCli("import " + file + " --sacct-fields " + list + " -o " + out + " --force");
        ASSERT_EQ(read.status, 0) << read.output;
        EXPECT_NE(read.output.find("  format: sacct\n  failures: 1\n  jobs: 2\n  jobs FAILED: 1\n"), std::string::npos) << list << "\n" << read.output;
    }
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

// The importers' own tests (tests/importers) run through the command line.
namespace faultline {
namespace {

using test::ScratchDir;
using test::fixture;

const char* kXid79 = "Jan 21 04:41:44 gpu-node-17 kernel: NVRM: Xid (PCI:0000:ab:00): 79, pid=2924364, name=pt_main_thread, GPU has fallen off the bus.\n";

TEST(HostileInput, InvalidUtf8InALogStillPrintsAsJson) {
    ScratchDir dir;
    const std::string log = dir.file("node1.log");
    writeFile(log, "2025-01-21T04:41:44,283302+00:00 node1 kernel: NVRM: Xid (PCI:0000:ab:00): 79, pid=1, name=\xff\xfe\xc3, GPU has fallen off the bus.\n");
    const std::string run = dir.file("run.faultline");
    ASSERT_EQ(test::runCommand(std::string(FAULTLINE_CLI) + " import " + log + " -o " + run).status, 0);
    const test::CommandResult r = test::runCommand(std::string(FAULTLINE_CLI) + " incidents " + run + " --json", false);
    ASSERT_EQ(r.status, 0) << r.output;
    const nlohmann::json j = nlohmann::json::parse(r.output);  // valid JSON, hence valid UTF-8
    EXPECT_NE(r.output.find("\xc3\xbf\xc3\xbe\xc3\x83"), std::string::npos);  // the bad bytes were read as Latin-1 "ÿþÃ" on import
}

// latin1-host-invalid-utf8.sh: the host name was stored, and written to CSV, as the raw bytes.
TEST(HostileInput, Latin1HostNamesAreExportedAsUtf8) {
    ScratchDir dir;
    const std::string log = dir.file("l1.log");
    writeFile(log, "Jan 21 04:41:44 n\xe9ud-17 kernel: NVRM: Xid (PCI:0000:ab:00): 74, pid=1, name=x, NVLink: fatal error\n");
    const std::string run = dir.file("run.faultline");
    const test::CommandResult imported = test::runCommand(std::string(FAULTLINE_CLI) + " import " + log + " --year 2025 -o " + run);
    ASSERT_EQ(imported.status, 0) << imported.output;
    EXPECT_NE(imported.output.find("note: 1 line holds bytes that are not UTF-8 (the first is line 1): read as Latin-1"), std::string::npos) << imported.output;
    ASSERT_EQ(test::runCommand(std::string(FAULTLINE_CLI) + " export " + run + " --csv " + dir.file("csv") + " -q").status, 0);
    std::ifstream in(dir.file("csv") + "/incidents.csv", std::ios::binary);
    const std::string csv((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(csv.find("n\xc3\xa9ud-17"), std::string::npos) << csv;
    EXPECT_EQ(csv.find("n\xe9ud"), std::string::npos) << csv;
}

// nul-block-log-skipped.sh: the folder import succeeded without node7's failures.
TEST(HostileInput, AFolderLogWithAZeroBlockIsImportedWithANote) {
    ScratchDir dir;
    std::filesystem::create_directory(dir.file("logs"));
    writeFile(dir.file("logs/node7.dmesg.log"),
              "kern  :warn  : 2025-01-21T05:10:33,283302+00:00 NVRM: Xid (PCI:0000:38:00): 79, pid=1, name=x, GPU has fallen off the bus.\n" + std::string(4096, '\0') +
                  "kern  :warn  : 2025-01-21T05:12:00,000000+00:00 NVRM: Xid (PCI:0000:3a:00): 48, pid=1, name=x, DBE\n");
    writeFile(dir.file("logs/node8.dmesg.log"), "kern  :warn  : 2025-01-21T05:00:00,000000+00:00 NVRM: Xid (PCI:0000:38:00): 13, pid=1, name=x, Graphics Engine Exception\n");
    const std::string run = dir.file("run.faultline");
    const test::CommandResult r = test::runCommand(std::string(FAULTLINE_CLI) + " import " + dir.file("logs") + " -o " + run);
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("node7.dmesg.log\n  format: kernel-log\n  failures: 2\n"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("note: 4,096 zero bytes at offset 123 (line 2): the node was probably reset here"), std::string::npos) << r.output;
    EXPECT_EQ(readRunFile(run).failures.size(), 3u);
}

// many-files-memory.sh: a folder of 100,000 files printed 300,000 lines, one paragraph each.
TEST(HostileInput, AFolderOfManyFilesIsSummarisedPerFormat) {
    ScratchDir dir;
    std::filesystem::create_directory(dir.file("many"));
    for (int i = 0; i < 300; ++i) {
        char name[32];
        std::snprintf(name, sizeof name, "many/f%04d.log", i);
        if (i % 100 == 0)
            writeFile(dir.file(name), "2025-01-21T05:00:0" + std::to_string(i / 100) + "+0000 node-" + std::to_string(i / 100) +
                                          " kernel: NVRM: Xid (PCI:0000:38:00): 79, pid=1, name=x, GPU has fallen off the bus.\n");
        else
            writeFile(dir.file(name), "hello " + std::to_string(i) + "\n");
    }
    const test::CommandResult r = test::runCommand(std::string(FAULTLINE_CLI) + " import " + dir.file("many") + " -o " + dir.file("run.faultline"));
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("300 files: 3 kernel-log, 297 unknown\n"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("  unknown: 297 files, not in a format Faultline reads, skipped\n    first: " + dir.file("many/f0001.log") + ", " +
                            dir.file("many/f0002.log") + ", " + dir.file("many/f0003.log") + ", ...\n"),
              std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("  kernel-log: 3 files, failures 3, "), std::string::npos) << r.output;
    EXPECT_LT(std::count(r.output.begin(), r.output.end(), '\n'), 20) << r.output;
}

TEST(ImportChecks, CliRefusesDisjointFilesUnlessAllowed) {
    ScratchDir dir;
    const std::string kernel = dir.file("node17.log");
    writeFile(kernel, kXid79);
    const std::string out = dir.file("run.faultline");
    const std::string base = std::string(FAULTLINE_CLI) + " import --year 2025 -q " + kernel + " " + test::fixture("sacct_snowman.txt") + " -o " + out;
    const auto refused = test::runCommand(base);
    EXPECT_NE(refused.status, 0);
    EXPECT_NE(refused.output.find("not one run"), std::string::npos) << refused.output;
    EXPECT_FALSE(std::filesystem::exists(out));
    const auto allowed = test::runCommand(base + " --allow-disjoint");
    EXPECT_EQ(allowed.status, 0) << allowed.output;
    EXPECT_TRUE(std::filesystem::exists(out));
}

// As a user runs it: simulate with --emit-logs, import the folder, compare the summaries.
TEST(RoundTrip, CommandLineEmitsAndImportsTheClusterFiles) {
    ScratchDir dir;
    const std::string cli = FAULTLINE_CLI;
    const auto sim = test::runCommand(cli + " simulate --preset tiny --seed 3 -o " + dir.file("sim.faultline") + " --emit-logs " + dir.file("cluster"));
    ASSERT_EQ(sim.status, 0) << sim.output;
    EXPECT_NE(sim.output.find("job runs"), std::string::npos) << sim.output;
    for (const char* f : {"sacct.txt", "sacct.json", "topology.conf", "kernel", "logs"})
        EXPECT_TRUE(std::filesystem::exists(dir.file(std::string("cluster/") + f))) << f;

    const auto imp = test::runCommand(cli + " import " + dir.file("cluster") + " --json -o " + dir.file("imp.faultline"), false);
    ASSERT_EQ(imp.status, 0) << imp.output;
    const auto report = nlohmann::json::parse(imp.output);
    const faultline::Run simulated = readRunFile(dir.file("sim.faultline"));
    EXPECT_EQ(report["downtimes"].get<std::size_t>(), simulated.downtimes.size());
    EXPECT_EQ(report["run_jobs"].get<std::size_t>(), simulated.downtimes.size() + 1);
    test::expectSameFigures(simulated, readRunFile(dir.file("imp.faultline")));

    // The jobs the run file keeps, as `faultline-cli jobs` lists them.
    const auto jobs = test::runCommand(cli + " jobs --json " + dir.file("imp.faultline"), false);
    ASSERT_EQ(jobs.status, 0) << jobs.output;
    const auto listed = nlohmann::json::parse(jobs.output)["jobs"];
    ASSERT_EQ(listed.size(), simulated.downtimes.size() + 1);
    EXPECT_EQ(listed.front()["state"], "FAILED");
    EXPECT_EQ(listed.back()["state"], "RUNNING");

    // Naming a job the files lack fails, says why, and writes nothing.
    const auto bad = test::runCommand(cli + " import " + dir.file("cluster") + " --job 17 -o " + dir.file("bad.faultline"));
    EXPECT_EQ(bad.status, 1);
    EXPECT_NE(bad.output.find("no job in the files is --job 17"), std::string::npos) << bad.output;
    EXPECT_FALSE(std::filesystem::exists(dir.file("bad.faultline")));
}

TEST(ShardedImport, TheCliShardsAndMerges) {
    ScratchDir dir, out;
    const std::vector<std::string> inputs = test::writeRankFiles(dir);
    const std::string cli = FAULTLINE_CLI;
    std::string parts;
    for (int i = 1; i <= 2; ++i) {
        const std::string part = out.file("part" + std::to_string(i) + ".shard");
        const auto r = test::runCommand(cli + " import --shard " + std::to_string(i) + "/2 " + dir.path().string() + " -o " + part);
        ASSERT_EQ(r.status, 0) << r.output;
        EXPECT_NE(r.output.find("shard " + std::to_string(i) + " of 2: 8 of 16 input files"), std::string::npos) << r.output;
        parts += " " + part;
    }
    const auto merged = test::runCommand(cli + " merge" + parts + " -o " + out.file("run.faultline"));
    ASSERT_EQ(merged.status, 0) << merged.output;
    const auto single = test::runCommand(cli + " import " + dir.path().string() + " -o " + out.file("single.faultline"));
    ASSERT_EQ(single.status, 0) << single.output;
    const auto a = test::runCommand(cli + " stragglers " + out.file("run.faultline") + " --json", false);
    const auto b = test::runCommand(cli + " stragglers " + out.file("single.faultline") + " --json", false);
    EXPECT_EQ(a.output, b.output);
    EXPECT_EQ(test::runCommand(cli + " import --shard 3/2 " + dir.path().string() + " -o x").status, 2);
}

TEST(Telemetry, PowerCommandPrintsTheCurveAsCsv) {
    test::ScratchDir dir;
    const std::string run = dir.file("p.faultline");
    const auto imported = test::runCommand(std::string(FAULTLINE_CLI) + " import -q -o " + run + " " + fixture("telemetry/dcgm_scrapes.prom"));
    ASSERT_EQ(imported.status, 0) << imported.output;
    const auto csv = test::runCommand(std::string(FAULTLINE_CLI) + " power --csv " + run);
    ASSERT_EQ(csv.status, 0) << csv.output;
    EXPECT_EQ(csv.output, "time_s,utc,megawatts\n0.000,2025-01-01 00:00:00 UTC,0.001146\n10.000,2025-01-01 00:00:10 UTC,0.001142\n");
    const auto text = test::runCommand(std::string(FAULTLINE_CLI) + " power " + run);
    EXPECT_NE(text.output.find("peak 1.146 kW"), std::string::npos) << text.output;
}

// What View > Colour By shows on a GPU at an instant, printed: node01's gpu 1 read 455.25 W at
// 0 s and 440.75 W at 15 s; between scrapes the newest reading holds; past the run, no data.
TEST(Telemetry, TelemetryCommandPrintsEachGpusReadingAtTheInstant) {
    test::ScratchDir dir;
    const std::string run = dir.file("t.faultline");
    const auto imported = test::runCommand(std::string(FAULTLINE_CLI) + " import -q -o " + run + " " + fixture("telemetry/dcgm_scrapes.prom"));
    ASSERT_EQ(imported.status, 0) << imported.output;
    auto telemetry = [&](const std::string& args) { return test::runCommand(std::string(FAULTLINE_CLI) + " telemetry " + run + " " + args); };
    const auto at10 = telemetry("--at 10s --gpu node01:1 --metric power");
    ASSERT_EQ(at10.status, 0) << at10.output;
    EXPECT_EQ(at10.output, "At 2025-01-01 00:00:10 UTC (10.0 s into the run):\n  node01-gpu1  Power (W)  455 W\n");
    const auto at15 = telemetry("--at 2025-01-01T00:00:15Z --gpu node01-gpu1 --metric DCGM_FI_DEV_POWER_USAGE --json");
    EXPECT_NE(at15.output.find("\"value\": 440.75"), std::string::npos) << at15.output;
    const auto clock = telemetry("--at 15s --gpu node01:0 --metric 'SM clock'");
    EXPECT_NE(clock.output.find("node01-gpu0  SM clock (MHz)  1,980 MHz"), std::string::npos) << clock.output;
    const auto unknown = telemetry("--metric fan");
    EXPECT_EQ(unknown.status, 1);
    EXPECT_NE(unknown.output.find("the run has no metric 'fan'"), std::string::npos) << unknown.output;
    EXPECT_EQ(telemetry("--at yesterday").status, 2);
}

}  // namespace
}  // namespace faultline
