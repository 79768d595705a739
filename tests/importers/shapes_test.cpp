// Shapes of logs users paste into issue threads, each in a fixture of our own writing
// (tests/data/importers/shapes, the thread it follows named in its first line).
#include "import_test_util.h"

#include <algorithm>
#include <fstream>

namespace faultline {
namespace {

using test::fixture;

const Failure* failureNaming(const Run& run, const std::string& text) {
    for (const Failure& f : run.failures)
        if (f.detail.find(text) != std::string::npos) return &f;
    return nullptr;
}

TEST(Shapes, AJobLogDatedLikeDmesgIsAJobLog) {
    const ImportResult r = test::importPaths({fixture("shapes/oom_collector_dated_filelock.log")});
    EXPECT_EQ(r.summary.files.front().format, "training-log");
    const Failure* oom = failureNaming(r.run, "out of memory");
    ASSERT_NE(oom, nullptr) << importSummaryToText(r.summary);
    EXPECT_NE(std::find(oom->ranks.begin(), oom->ranks.end(), 3), oom->ranks.end());
}

TEST(Shapes, TorchrunSummaryDatesTheFailureAndPlacesEveryEntry) {
    const ImportResult r = test::importPaths({fixture("shapes/torchrun_summary_only.log")});
    ASSERT_FALSE(r.run.failures.empty());
    const Failure& f = r.run.failures.front();
    // 2024-03-08T10:12:04Z: the root cause's time, the earliest entry's.
    EXPECT_EQ(r.run.info.startEpochNs + f.time, 1'709'892'724LL * 1'000'000'000);
    EXPECT_EQ(f.ranks.size(), 3u);
    EXPECT_EQ(r.summary.hosts, 1u);
    ASSERT_EQ(r.run.topology.hosts.size(), 1u);
    EXPECT_EQ(r.run.topology.hosts.front().name, "gpu-node-17");
}

TEST(Shapes, HostAndRankPrefix) {
    const ImportResult r = test::importPaths({fixture("shapes/host_rank_prefix.log")});
    ASSERT_FALSE(r.run.failures.empty()) << importSummaryToText(r.summary);
    const Failure& f = r.run.failures.front();
    EXPECT_NE(std::find(f.ranks.begin(), f.ranks.end(), 1), f.ranks.end());
    std::string hosts;
    for (const Host& h : r.run.topology.hosts) hosts += h.name + " ";
    // Rank 1 on the host its prefix names; silent rank 0, which no line places, drawn apart.
    ASSERT_EQ(r.run.topology.hosts.size(), 2u) << hosts << importSummaryToText(r.summary);
    EXPECT_EQ(r.run.topology.hosts.front().name, "gpu187");
    EXPECT_EQ(r.run.topology.hosts.back().name, "unplaced ranks 0-7");
}

const Failure* failureWith(const Run& run, RootCause cause) {
    for (const Failure& f : run.failures)
        if (f.cause == cause) return &f;
    return nullptr;
}

bool hasRank(const Failure& f, std::int32_t rank) { return std::find(f.ranks.begin(), f.ranks.end(), rank) != f.ranks.end(); }

std::string hostNames(const Run& run) {
    std::string out;
    for (const Host& h : run.topology.hosts) out += (out.empty() ? "" : " ") + h.name;
    return out;
}

EpochNs absolute(const Run& run, const Failure& f) { return run.info.startEpochNs + f.time; }

// A log collector's JSON lines: each record's message read as the line, its time and host as
// the record gives them.
TEST(Shapes, CollectorRecordsAreReadAsTheLinesTheyHold) {
    const ImportResult r = test::importPaths({fixture("shapes/collector_records.jsonl")});
    ASSERT_EQ(r.summary.files.front().format, "training-log");
    const Failure* oom = failureNaming(r.run, "out of memory");
    ASSERT_NE(oom, nullptr) << importSummaryToText(r.summary);
    EXPECT_TRUE(hasRank(*oom, 2));
    EXPECT_EQ(formatEpochNs(absolute(r.run, *oom)), "2024-06-03T07:12:41.532000Z");
    EXPECT_NE(hostNames(r.run).find("trn-b07"), std::string::npos) << hostNames(r.run);
    EXPECT_TRUE(r.summary.files.front().unrecognised.empty()) << importSummaryToText(r.summary);
}

TEST(Shapes, DockerJsonFileRecords) {
    const ImportResult r = test::importPaths({fixture("shapes/docker_json_file.log")});
    const Failure* cuda = failureNaming(r.run, "illegal memory access");
    ASSERT_NE(cuda, nullptr) << importSummaryToText(r.summary);
    EXPECT_TRUE(hasRank(*cuda, 1));
    EXPECT_EQ(formatEpochNs(absolute(r.run, *cuda)), "2024-02-19T22:03:11.410356Z");
}

TEST(Shapes, JournaldJsonRecordsGiveTimeAndHost) {
    const ImportResult r = test::importPaths({fixture("shapes/journald_json.log")});
    const Failure* timeout = failureWith(r.run, RootCause::NcclWatchdogTimeout);
    ASSERT_NE(timeout, nullptr) << importSummaryToText(r.summary);
    EXPECT_TRUE(hasRank(*timeout, 9) && hasRank(*timeout, 10));
    // __REALTIME_TIMESTAMP counts microseconds.
    EXPECT_EQ(formatEpochNs(absolute(r.run, *timeout)), "2024-06-03T07:12:42.118000Z");
    EXPECT_NE(hostNames(r.run).find("trn-c11"), std::string::npos) << hostNames(r.run);
}

// CRI lines: "TIME STREAM TAG message"; a P record's line goes on in the next record.
TEST(Shapes, CriLinesAndPartialRecords) {
    const ImportResult r = test::importPaths({fixture("shapes/cri_partial_lines.log")});
    const FileReport& f = r.summary.files.front();
    for (const std::string& line : f.unrecognised) EXPECT_EQ(line.find("stderr F"), std::string::npos) << line;
    const Failure* nccl = failureNaming(r.run, "network error, NCCL version 2.20.5");
    ASSERT_NE(nccl, nullptr) << importSummaryToText(r.summary);
    EXPECT_TRUE(hasRank(*nccl, 11));
}

// A runner's label holds the host; the watchdog's messages broken over two lines are one each.
TEST(Shapes, RunnerLabelNamesTheHostAndBrokenWatchdogLinesRejoin) {
    const ImportResult r = test::importPaths({fixture("shapes/runner_stream_prefix_wrapped.log")});
    const FileReport& f = r.summary.files.front();
    const Failure* timeout = failureWith(r.run, RootCause::NcclWatchdogTimeout);
    ASSERT_NE(timeout, nullptr) << importSummaryToText(r.summary);
    EXPECT_TRUE(hasRank(*timeout, 5) && hasRank(*timeout, 6) && hasRank(*timeout, 7)) << timeout->detail;
    EXPECT_NE(timeout->detail.find("SeqNum 881"), std::string::npos) << timeout->detail;
    EXPECT_EQ(f.understoodByKind.count("watchdog-exception"), 1u) << importSummaryToText(r.summary);
    for (const std::string& line : f.unrecognised) {
        EXPECT_EQ(line.find("WorkNCCL("), std::string::npos) << line;
        EXPECT_EQ(line.find("by watchdog"), std::string::npos) << line;
    }
    EXPECT_EQ(hostNames(r.run), "gn-a017 unplaced ranks 0-7");  // the silent ranks no line places, apart
    for (const std::string& n : f.notes) EXPECT_EQ(n.find("no line has a date"), std::string::npos) << n;
}

// A log copied from a terminal 100 columns wide: each cut line is one line again.
TEST(Shapes, LinesCutAtATerminalsWidthRejoin) {
    const ImportResult r = test::importPaths({fixture("shapes/hard_wrapped_100_columns.log")});
    const FileReport& f = r.summary.files.front();
    const Failure* link = failureWith(r.run, RootCause::NetworkSwitchCable);
    ASSERT_NE(link, nullptr) << importSummaryToText(r.summary);
    EXPECT_NE(link->detail.find("with status=12 opcode=0 len=0 vendor err 129 (Recv) localGid ::ffff:10.20.1.44 remoteGids::ffff:10.20.1.17 hca mlx5_2"),
              std::string::npos)
        << link->detail;
    const Failure* watchdog = failureWith(r.run, RootCause::NcclWatchdogTimeout);
    ASSERT_NE(watchdog, nullptr) << importSummaryToText(r.summary);
    EXPECT_EQ(watchdog->ranks, std::vector<std::int32_t>{3});
    // The two comment lines, the step line, the three physical lines of the first message as
    // one, and the two of the second: its rest reads as an event of its own, and two lines
    // that each read as one are never joined (fixed-format lines are often equally long).
    EXPECT_EQ(f.linesRead, 6) << importSummaryToText(r.summary);
}

TEST(Shapes, DeepSpeedLauncherTeardownIsAnIncidentOnItsHost) {
    const ImportResult r = test::importPaths({fixture("shapes/deepspeed_launcher_teardown.log")});
    const Failure* exit = failureNaming(r.run, "exited with code -9 (SIGKILL)");
    ASSERT_NE(exit, nullptr) << importSummaryToText(r.summary);
    EXPECT_EQ(exit->cause, RootCause::Unknown);
    EXPECT_NE(exit->detail.find("local rank 1 on worker-3"), std::string::npos) << exit->detail;
    EXPECT_EQ(hostNames(r.run), "worker-3");
    EXPECT_EQ(exit->component.kind, ComponentKind::Host);
    EXPECT_EQ(formatEpochNs(absolute(r.run, *exit)), "2024-04-11T16:51:47.990000Z");
}

TEST(Shapes, ATracebackWhoseMessageIsCutIsACrashOfItsRank) {
    const ImportResult r = test::importPaths({fixture("shapes/traceback_message_cut.log")});
    ASSERT_EQ(r.run.failures.size(), 1u) << importSummaryToText(r.summary);
    const Failure& f = r.run.failures.front();
    EXPECT_EQ(f.cause, RootCause::SoftwareBug);
    EXPECT_EQ(f.ranks, std::vector<std::int32_t>{3});
    EXPECT_NE(f.detail.find("Python exception in DistributedDataParallel.__init__ (torch/nn/parallel/distributed.py:795) on rank 3"),
              std::string::npos)
        << f.detail;
    EXPECT_NE(f.detail.find("its message is cut"), std::string::npos) << f.detail;
}

// A wrapper that names its host and no rank (pdsh's "gpu187: ", syslog's host, a runner's label):
// the failure is that host's. An exception's name before "NCCL error" is no host (NCCL's own
// "host:pid:tid [dev] NCCL WARN" is).
TEST(Shapes, AHostOnlyWrapperPlacesTheFailureAndAnExceptionNameIsNoHost) {
    const test::ScratchDir dir;
    const std::string path = dir.file("pdsh.log");
    std::ofstream(path) << "gpu187: RuntimeError: CUDA error: uncorrectable ECC error encountered\n"
                           "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, unhandled system "
                           "error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5\n";
    const ImportResult r = test::importPaths({path});
    const Failure* ecc = failureWith(r.run, RootCause::GpuHbm3Memory);
    ASSERT_NE(ecc, nullptr) << importSummaryToText(r.summary);
    EXPECT_EQ(ecc->component.kind, ComponentKind::Host);
    EXPECT_EQ(hostNames(r.run), "gpu187");
}

// A line cut at a common terminal width (here 80 columns) inside its message, or inside a glog
// prefix's time, is read whole: its event, rank and time are the whole line's.
TEST(Shapes, ALineCutAtATerminalWidthInsideItsTimeOrMessageIsReadWhole) {
    const test::ScratchDir dir;
    const std::string path = dir.file("cut_glog.log"), other = dir.file("cut_message.log");
    std::ofstream(path) << "vitl-nodes.gpu187.nolog [stderr] [rank3]:[E0603 07:12:41.532000 4242 ProcessGrou\n"
                           "pNCCL.cpp:616] RuntimeError: CUDA error: an illegal memory access was encountere\n"
                           "d\n";
    std::ofstream(other) << "[rank3]:2024-06-03T07:12:42.532Z RuntimeError: CUDA error: uncorrectable ECC err\n"
                            "or encountered\n";
    ImportOptions options;
    options.year = 2024;
    const ImportResult r = test::importPaths({path}, options);
    const Failure* illegal = failureNaming(r.run, "illegal memory access was encountered");
    ASSERT_NE(illegal, nullptr) << importSummaryToText(r.summary);
    EXPECT_EQ(formatEpochNs(absolute(r.run, *illegal)), "2024-06-03T07:12:41.532000Z");
    EXPECT_TRUE(hasRank(*illegal, 3));
    EXPECT_TRUE(r.summary.files.front().unrecognised.empty()) << importSummaryToText(r.summary);
    // Its first part reads as a CUDA error, the rest says which: uncorrectable ECC, the GPU's memory.
    const ImportResult m = test::importPaths({other});
    const Failure* ecc = failureWith(m.run, RootCause::GpuHbm3Memory);
    ASSERT_NE(ecc, nullptr) << importSummaryToText(m.summary);
    EXPECT_TRUE(hasRank(*ecc, 3));
    EXPECT_EQ(formatEpochNs(absolute(m.run, *ecc)), "2024-06-03T07:12:42.532000Z");
    EXPECT_TRUE(m.summary.files.front().unrecognised.empty()) << importSummaryToText(m.summary);
}

}  // namespace
}  // namespace faultline
