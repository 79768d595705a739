// Defects that mutation fuzzing of every importer found, each kept as a regression test:
// times past 2262, numbers beyond any range, nesting that would cost gigabytes, files that
// are no log at all, and bytes that are not UTF-8 reaching the JSON output.
#include "file_bytes.h"
#include "import_test_util.h"

#include "importers/text/text_parse.h"
#include "model/run_file.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <random>

namespace faultline {
namespace {

using test::writeFile;
using test::errorOf;
using test::importPaths;
using test::ScratchDir;

ImportOptions forced(const char* format) {
    ImportOptions o;
    o.format = format;
    return o;
}

TEST(HostileInput, AKernelLogDatedPast2262IsRefusedNotWrapped) {
    ScratchDir dir;
    const std::string path = dir.file("node1.log");
    writeFile(path, "2025-01-21T04:41:44,283302+00:00 node1 kernel: NVRM: Xid (PCI:0000:ab:00): 79, GPU has fallen off the bus.\n"
                    "9999-01-21T04:41:44,283302+00:00 node1 kernel: NVRM: Xid (PCI:0000:ab:00): 79, GPU has fallen off the bus.\n");
    const std::string message = errorOf([&] { importPaths({path}, forced("kernel-log")); });
    EXPECT_NE(message.find(path + ":2: "), std::string::npos) << message;
    EXPECT_NE(message.find("year 9999 is outside 1970-2262"), std::string::npos) << message;
}

TEST(HostileInput, ATrainingLogDatedBefore1970IsRefused) {
    ScratchDir dir;
    const std::string path = dir.file("train.log");
    writeFile(path, "[2021-05-23 08:23:57] iteration 10/ 100 | elapsed time per iteration (ms): 1000.0 |\n"
                    "[1816-05-23 08:23:58] iteration 20/ 100 | elapsed time per iteration (ms): 1000.0 |\n");
    const std::string message = errorOf([&] { importPaths({path}, forced("training-log")); });
    EXPECT_NE(message.find(path + ":2: year 1816 is outside 1970-2262"), std::string::npos) << message;
}

TEST(HostileInput, SacctJsonTimesPast2262NameTheJob) {
    ScratchDir dir;
    const std::string path = dir.file("jobs.json");
    writeFile(path, R"({"jobs": [{"job_id": 7, "name": "train", "state": {"current": "FAILED"},
                                    "time": {"start": 99999999999999, "end": 1700000000}, "nodes": "n1"}]})");
    const std::string message = errorOf([&] { importPaths({path}); });
    EXPECT_NE(message.find(path + ": jobs[0]: time: "), std::string::npos) << message;
    EXPECT_NE(message.find("outside 1970-2262"), std::string::npos) << message;
}

TEST(HostileInput, NumbersBeyondAnyRangeNameTheFileAndPlace) {
    ScratchDir dir;
    const std::string sacct = dir.file("jobs.json");
    writeFile(sacct, R"({"meta": {}, "jobs": [{"job_id": 1e999, "state": {"current": "FAILED"}}]})");
    std::string message = errorOf([&] { importPaths({sacct}); });
    EXPECT_EQ(message.rfind(sacct + ": bytes 22-", 0), 0u) << message;
    EXPECT_NE(message.find("number overflow"), std::string::npos) << message;
    EXPECT_EQ(message.find("[json.exception"), std::string::npos) << message;

    const std::string topology = dir.file("fabric.json");
    writeFile(topology, R"({"format": "faultline-topology", "version": 1e999})");
    message = errorOf([&] { importPaths({topology}, forced("faultline-topology")); });
    EXPECT_EQ(message.rfind(topology + ": ", 0), 0u) << message;
    EXPECT_EQ(message.find("[json.exception"), std::string::npos) << message;

    const std::string trace = dir.file("rank0.json");
    writeFile(trace, R"({"distributedInfo": {"rank": 99999999999}, "traceEvents": [{"ph": "X", "name": "ProfilerStep#1", "ts": 1, "dur": 2}]})");
    message = errorOf([&] { importPaths({trace}); });
    EXPECT_NE(message.find(trace + ": distributedInfo.rank 99999999999 is not a rank"), std::string::npos) << message;

    // Timestamps with more digits than an int64 holds are bad events, counted, not wrapped.
    writeFile(trace, R"({"traceEvents": [{"ph": "X", "name": "ProfilerStep#1", "ts": 99999999999999999999999, "dur": 2},
                                          {"ph": "X", "name": "ProfilerStep#2", "ts": 10, "dur": 2}]})");
    const ImportResult r = importPaths({trace});
    EXPECT_EQ(r.summary.files[0].counts.at("steps"), 1);
    EXPECT_EQ(r.summary.files[0].skippedLines, 1);
}

TEST(HostileInput, ProcessGroupRanksBeyondAnyRankAreRefused) {
    // Found by the flight-recorder harness: a group listing rank 2147483647 overflowed the
    // world size (undefined behaviour), and one listing 99,999,999 made a run of that many GPUs.
    ScratchDir dir;
    const std::string path = dir.file("rank_0.json");
    for (const char* ranks : {"[0, 2147483647]", "[0, -3]", "[0, 18446744073709551615]", "\"[0, 99999999]\""}) {
        writeFile(path, std::string(R"({"rank": 0, "pg_config": {"0": {"name": "0", "ranks": )") + ranks +
                            R"(}}, "entries": [{"profiling_name": "nccl:all_reduce", "process_group": ["0", ""], "collective_seq_id": 1}]})");
        const std::string message = errorOf([&] { importPaths({path}, forced("flight-recorder-json")); });
        EXPECT_NE(message.find(path + ": pg_config \"0\" lists rank "), std::string::npos) << ranks << ": " << message;
        EXPECT_NE(message.find(", not a rank"), std::string::npos) << ranks << ": " << message;
    }
}

TEST(HostileInput, AStepTimeBeyondADayIsABadLineNotAnOverflow) {
    // Found by the faultline-events harness: "duration_ms": 2e24 overflowed the conversion to
    // nanoseconds (undefined behaviour).
    ScratchDir dir;
    const std::string path = dir.file("events.jsonl");
    writeFile(path, R"({"kind": "step", "step": 1, "end": "2025-03-01T12:00:02Z", "duration_ms": 2000777777777777777777777}
{"kind": "step", "step": 2, "end": "2025-03-01T12:00:04Z", "duration_ms": -5}
{"kind": "step", "step": 3, "end": "2025-03-01T12:00:06Z", "duration_ms": 2000}
)");
    const ImportResult r = importPaths({path}, forced("faultline-events"));
    const auto& f = r.summary.files.at(0);
    EXPECT_EQ(f.counts.at("steps"), 1);
    ASSERT_EQ(f.warnings.size(), 2u);
    EXPECT_NE(f.warnings[0].find(path + ":1: \"duration_ms\" must be from 0 to 86400000 (a day)"), std::string::npos) << f.warnings[0];
    EXPECT_NE(f.warnings[1].find(path + ":2: \"duration_ms\" must be from 0"), std::string::npos) << f.warnings[1];
}

TEST(HostileInput, ACollectiveLongerThanADayIsABadLineNotAnOverflow) {
    // Found by the faultline-events harness: a collective of 7e18 ns (222 years) overflowed
    // the straggler analysis's per-rank sums (undefined behaviour). The same bound holds for
    // every importer of collectives.
    ScratchDir dir;
    const std::string events = dir.file("events.jsonl");
    writeFile(events, R"({"kind": "placement", "rank": 0, "host": "node-a", "gpu": 0}
{"kind": "collective", "rank": 0, "op": "allreduce", "group": "dp", "group_ranks": [0], "seq": 7, "enter": 1740830401000000000, "exit": 8740830401250000000}
{"kind": "collective", "rank": 0, "op": "allreduce", "group": "dp", "group_ranks": [0], "seq": 8, "enter": 1740830401000000000, "exit": 1740830401250000000}
)");
    const ImportResult native = importPaths({events}, forced("faultline-events"));
    EXPECT_EQ(native.summary.files.at(0).counts.at("collectives"), 1);
    ASSERT_EQ(native.summary.files.at(0).warnings.size(), 1u);
    EXPECT_NE(native.summary.files.at(0).warnings[0].find(events + ":2: \"exit\" is more than a day after \"enter\""), std::string::npos)
        << native.summary.files.at(0).warnings[0];

    const std::string trace = dir.file("rank0_trace.json");
    writeFile(trace, R"trace({"distributedInfo": {"rank": 0, "world_size": 1}, "baseTimeNanoseconds": 1740830400000000000, "traceEvents": [
{"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)", "pid": 0, "tid": 7, "ts": 1000.0, "dur": 7000000000000000.0, "args": {"device": 0}},
{"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)", "pid": 0, "tid": 7, "ts": 2000.0, "dur": 250.0, "args": {"device": 0}}
]})trace");
    const ImportResult kineto = importPaths({trace}, forced("kineto"));
    EXPECT_EQ(kineto.summary.files.at(0).counts.at("collectives"), 1);
    ASSERT_FALSE(kineto.summary.files.at(0).warnings.empty());
    EXPECT_NE(kineto.summary.files.at(0).warnings.back().find("1 trace event(s) were not valid JSON objects with ts and a dur of 0 to a day"),
              std::string::npos)
        << kineto.summary.files.at(0).warnings.back();

    const std::string dump = dir.file("rank_0.json");
    writeFile(dump, R"({"rank": 0, "pg_config": {"0": {"name": "0", "ranks": "[0]"}}, "entries": [
{"profiling_name": "nccl:all_reduce", "process_group": ["0", ""], "collective_seq_id": 1, "time_discovered_started_ns": 1740830401000000000, "time_discovered_completed_ns": 8740830401250000000},
{"profiling_name": "nccl:all_reduce", "process_group": ["0", ""], "collective_seq_id": 2, "time_discovered_started_ns": 1740830401000000000, "time_discovered_completed_ns": 1740830401250000000}]})");
    const ImportResult recorder = importPaths({dump}, forced("flight-recorder-json"));
    EXPECT_EQ(recorder.summary.files.at(0).counts.at("collectives"), 1);
    ASSERT_EQ(recorder.summary.files.at(0).warnings.size(), 1u);
    EXPECT_NE(recorder.summary.files.at(0).warnings[0].find(dump + ": entries[0]: expected time_discovered_completed_ns from its start to a day after it"),
              std::string::npos)
        << recorder.summary.files.at(0).warnings[0];
}

TEST(HostileInput, KmsgMicrosecondsBeyondDecadesAreNotATime) {
    // Found by the kernel-log harness: 229100000678901234 us since boot overflowed (x 1000).
    ScratchDir dir;
    const std::string path = dir.file("kmsg.log");
    writeFile(path, "4,3974,228001500,-;NVRM: Xid (PCI:0000:3a:00): 79, pid=1913, name=python3, GPU has fallen off the bus.\n"
                    "4,3975,229100000678901234,-;NVRM: Xid (PCI:0000:3a:00): 79, pid=1913, name=python3, GPU has fallen off the bus.\n");
    ImportOptions options = forced("kernel-log");
    options.host = "node01";
    options.bootTime = *parseIsoTime("2025-01-18T13:00:00Z");
    const ImportResult r = importPaths({path}, options);
    EXPECT_EQ(r.summary.files[0].counts.at("xid lines"), 1);
    ASSERT_EQ(r.run.failures.size(), 1u);
    EXPECT_EQ(r.run.info.startEpochNs + r.run.failures[0].time, *options.bootTime + 228'001'500'000);
}

TEST(HostileInput, HostListsOfMoreThan100000HostsAreRefused) {
    // Found by the slurm-topology harness: 200 bytes naming 396,544 hosts (3 million GPUs)
    // took longer than the fuzzer's 20 s to import.
    ScratchDir dir;
    const std::string path = dir.file("topology.conf");
    writeFile(path, "BlockName=rack64 Nodes=node[001-064]srv[0013-6208]\nBlockSizes=8,16,32\n");
    std::string message = errorOf([&] { importPaths({path}, forced("slurm-topology")); });
    EXPECT_NE(message.find(path + ":1: host list \"node[001-064]srv[0013-6208]\" names more than 100,000 hosts"), std::string::npos) << message;

    // Many lists each under the limit add up to the same refusal.
    std::string many;
    for (int block = 0; block < 11; ++block)
        many += "BlockName=b" + std::to_string(block) + " Nodes=b" + std::to_string(block) + "n[00001-10000]\n";
    writeFile(path, many);
    message = errorOf([&] { importPaths({path}, forced("slurm-topology")); });
    EXPECT_NE(message.find("the topology names more than 100,000 hosts"), std::string::npos) << message;
}

TEST(HostileInput, WorldSizesAndGpusPerNodeBeyondAnyClusterAreRefused) {
    // Found by the training-log harness: "global_world_sizes=[20940996]" laid out 2.6 million
    // hosts and took longer than the fuzzer's 20 s.
    ScratchDir dir;
    const std::string path = dir.file("train.log");
    writeFile(path, "[2021-05-23 08:23:57] SLURM_JOB_ID=77010\n  global_world_sizes=[20940996]\n"
                    "[2021-05-23 08:23:57] iteration 10/ 100 | elapsed time per iteration (ms): 1000.0 |\n");
    std::string message = errorOf([&] { importPaths({path}, forced("training-log")); });
    EXPECT_NE(message.find("a run of 20940996 ranks (a world size or the highest rank), more than the 800000 any cluster has"),
              std::string::npos) << message;

    writeFile(path, "[2021-05-23 08:23:57] SLURM_JOB_ID=77010\n  nproc_per_node   : 100000\n"
                    "[2021-05-23 08:23:57] iteration 10/ 100 | elapsed time per iteration (ms): 1000.0 |\n");
    message = errorOf([&] { importPaths({path}, forced("training-log")); });
    EXPECT_NE(message.find("100000 GPUs per node"), std::string::npos) << message;
}

TEST(HostileInput, DeepNestingIsRefusedQuicklyAndCheaply) {
    ScratchDir dir;
    const std::string path = dir.file("jobs.json");
    const std::string deep = std::string(2'000'000, '[') + std::string(2'000'000, ']');
    writeFile(path, R"({"jobs": [{"job_id": 1, "state": {"current": "FAILED"}, "extra": )" + deep + "}]}");
    const std::string message = errorOf([&] { importPaths({path}); });
    EXPECT_NE(message.find(path + ": JSON nested deeper than 512 levels"), std::string::npos) << message;
}

TEST(HostileInput, SacctJsonIsStreamedJobByJob) {
    ScratchDir dir;
    const std::string path = dir.file("jobs.json");
    std::string text = R"({"meta": {"plugin": {"type": "openapi/v0.0.37"}}, "jobs": [)";
    for (int i = 0; i < 2000; ++i)
        text += (i ? "," : "") + std::string(R"({"job_id": )") + std::to_string(100 + i) + R"(, "name": "train", "state": {"current": ")" +
                (i % 10 == 9 ? "NODE_FAIL" : "COMPLETED") + R"("}, "time": {"start": )" + std::to_string(1'700'000'000 + i * 3600) +
                R"(, "end": )" + std::to_string(1'700'000'000 + i * 3600 + 3000) + R"(}, "nodes": "n[1-4]"})";
    text += R"(], "warnings": [], "errors": []})";
    writeFile(path, text);
    const ImportResult r = importPaths({path});
    EXPECT_EQ(r.summary.files[0].format, "sacct-json");
    EXPECT_EQ(r.summary.files[0].skippedLines, 0);
    EXPECT_EQ(r.summary.files[0].first, 1'700'000'000LL * 1'000'000'000);
}

TEST(HostileInput, RandomBytesAreNotATrainingLog) {
    ScratchDir dir;
    const std::string path = dir.file("noise.log");
    std::mt19937 rng(42);
    std::string noise(100'000, '\0');
    for (char& c : noise) c = static_cast<char>(rng() & 0xff);
    writeFile(path, noise);
    const std::string message = errorOf([&] { importPaths({path}, forced("training-log")); });
    EXPECT_NE(message.find(path + ": this file does not look like a training log"), std::string::npos) << message;
}

TEST(HostileInput, EmptyFilesAreNotKernelLogsOrEventFiles) {
    ScratchDir dir;
    const std::string path = dir.file("empty.log");
    writeFile(path, "");
    for (const char* format : {"kernel-log", "faultline-events", "training-log"}) {
        const std::string message = errorOf([&] { importPaths({path}, forced(format)); });
        EXPECT_EQ(message.rfind(path + ": ", 0), 0u) << format << ": " << message;
    }
}

TEST(HostileInput, GpuIndicesBeyondAnyNodeAreBadLinesNotLaidOut) {
    // Found by the faultline-events harness in CI: a placement on GPU 130401000000000 of a host
    // laid out a host of that many GPUs (2.6 GB before the fuzzer's memory limit stopped it).
    ScratchDir dir;
    const std::string path = dir.file("events.jsonl");
    writeFile(path, R"({"kind": "placement", "rank": 0, "host": "node-a", "gpu": 0})" "\n"
                    R"({"kind": "placement", "rank": 1, "host": "node-a", "gpu": 130401000000000})" "\n"
                    R"({"kind": "failure", "time": "2025-03-01T12:06:00Z", "xid": 79, "host": "node-a", "gpu": 0, "rank": 4294967297})" "\n"
                    R"({"kind": "failure", "time": "2025-03-01T12:07:00Z", "xid": 79, "host": "node-a", "gpu": 0})" "\n");
    const ImportResult r = importPaths({path}, forced("faultline-events"));
    const FileReport& report = r.summary.files[0];
    EXPECT_EQ(report.skippedLines, 2);
    ASSERT_EQ(report.warnings.size(), 2u);
    EXPECT_EQ(report.warnings[0], path + ":2: \"gpu\" 130401000000000 is not a GPU index on a host (0 to 63)");
    EXPECT_EQ(report.warnings[1].rfind(path + ":3: \"rank\" 4294967297 is not a rank", 0), 0u) << report.warnings[1];
    EXPECT_EQ(r.run.topology.gpus.size(), 1u);  // node-a, with the one GPU the good lines name (no invented GPUs)

    // A rank map's local GPU is held to the same bound, and refused with its line.
    const std::string map = dir.file("ranks.txt");
    writeFile(map, "0 node-a 0\n1 node-a 64\n");
    ImportOptions withMap = forced("faultline-events");
    withMap.rankMapPath = map;
    const std::string message = errorOf([&] { importPaths({path}, withMap); });
    EXPECT_NE(message.find(map + ":2: LOCAL_GPU must be a GPU index from 0 to 63, found \"64\""), std::string::npos) << message;
}

}  // namespace
}  // namespace faultline
