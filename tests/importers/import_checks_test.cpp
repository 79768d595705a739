// Imports that refuse nonsense: files from stretches of time far apart are refused (with each
// file's span) unless the user says they are one run; several records of one event become one
// failure with all its evidence; the run is named after its job or its folder.
#include "import_test_util.h"

#include "importers/events/failure_merge.h"
#include "importers/time_span_check.h"
#include "model/run_file.h"
#include "simulator/cluster_logs.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace faultline {
namespace {

using test::errorOf;
using test::importPaths;
using test::ScratchDir;

std::string write(const ScratchDir& dir, const std::string& name, const std::string& text) {
    const std::string path = dir.file(name);
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    std::ofstream(path) << text;
    return path;
}

ImportOptions year(int y) {
    ImportOptions o;
    o.year = y;
    return o;
}

const char* kXid79 = "Jan 21 04:41:44 gpu-node-17 kernel: NVRM: Xid (PCI:0000:ab:00): 79, pid=2924364, name=pt_main_thread, GPU has fallen off the bus.\n";
const char* kXid48 = "Jan 21 04:41:45 gpu-node-17 kernel: NVRM: Xid (PCI:0000:ab:00): 48, pid=2924364, name=pt_main_thread, An uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer at partition 6, subpartition 0.\n";

TEST(ImportChecks, FilesFromYearsApartAreRefusedWithEachFilesSpan) {
    ScratchDir dir;
    const std::string kernelA = write(dir, "node17.log", kXid79);
    const std::string kernelB = write(dir, "node18.log", "Jan 22 09:00:01 gpu-node-18 kernel: NVRM: Xid (PCI:0000:5d:00): 94, pid=77, name=python, Contained: SM (0x1).\n");
    const std::string sacct = test::fixture("sacct_snowman.txt");  // jobs of July 2021
    const std::string message = errorOf([&] { importPaths({kernelA, kernelB, sacct}, year(2025)); });
    EXPECT_NE(message.find("2 stretches of time"), std::string::npos) << message;
    EXPECT_NE(message.find(kernelA), std::string::npos) << message;
    EXPECT_NE(message.find(sacct), std::string::npos) << message;
    EXPECT_NE(message.find("2025-01-21T04:41:44"), std::string::npos) << message;  // a kernel log's span
    EXPECT_NE(message.find("2021-07-"), std::string::npos) << message;             // the sacct file's
    EXPECT_NE(message.find("--allow-disjoint"), std::string::npos) << message;
    try {
        importPaths({kernelA, sacct}, year(2025));
        ADD_FAILURE() << "imported";
    } catch (const DisjointSpans&) {
    }

    ImportOptions allow = year(2025);
    allow.allowDisjoint = true;
    const ImportResult r = importPaths({kernelA, kernelB, sacct}, allow);
    EXPECT_GT(r.run.info.duration, 365 * kDay) << "merged as asked";
    bool warned = false;
    for (const FileReport& f : r.summary.files)
        for (const std::string& w : f.warnings) warned |= w.find("merged into one run as asked") != std::string::npos;
    EXPECT_TRUE(warned);
}

TEST(ImportChecks, FilesOfOneStretchAreMergedWithoutAsking) {
    ScratchDir dir;
    const std::string a = write(dir, "node17.log", kXid79);
    const std::string b = write(dir, "node18.log", "Jan 22 09:00:01 gpu-node-18 kernel: NVRM: Xid (PCI:0000:5d:00): 94, pid=77, name=python, Contained: SM (0x1).\n");
    const ImportResult r = importPaths({a, b}, year(2025));
    EXPECT_EQ(r.run.failures.size(), 2u);
}

TEST(ImportChecks, TwoXidLinesOnOneGpuWithinSecondsAreOneFailureWithBothAsEvidence) {
    ScratchDir dir;
    const std::string log = write(dir, "node17.log", std::string(kXid79) + kXid48);
    const ImportResult r = importPaths({log}, year(2025));
    ASSERT_EQ(r.run.failures.size(), 1u);
    const Failure& f = r.run.failures.front();
    EXPECT_EQ(f.xid, 79) << "the first symptom leads";
    EXPECT_NE(f.detail.find("Xid 79"), std::string::npos) << f.detail;
    EXPECT_NE(f.detail.find("Xid 48"), std::string::npos) << f.detail;
    EXPECT_NE(f.detail.find("node17.log:2"), std::string::npos) << "names where each record was read: " << f.detail;
}

// Records of one event on one GPU: the most specific names the cause, whichever came first,
// and every other stays in the evidence.
TEST(ImportChecks, TheMostSpecificRecordOfAnEventNamesItsCause) {
    Failure nccl;
    nccl.time = 10 * kSecond;
    nccl.cause = RootCause::NetworkSwitchCable;
    nccl.component = {ComponentKind::Gpu, 3};
    nccl.gpus = {3};
    nccl.ranks = {3};
    nccl.detail = "NCCL WARN NET/IB : Got completion with error 12";
    Failure xid = nccl;
    xid.time = 12 * kSecond;
    xid.cause = RootCause::FaultyGpu;
    xid.xid = 79;
    xid.ranks = {};
    xid.detail = "Xid 79: GPU has fallen off the bus";
    std::vector<Failure> merged = mergeDuplicateFailures({{nccl, "rank3.log:40", false}, {xid, "node1.dmesg:7", false}});
    ASSERT_EQ(merged.size(), 1u);
    EXPECT_EQ(merged[0].cause, RootCause::FaultyGpu) << "the Xid beats the NCCL error it caused";
    EXPECT_EQ(merged[0].xid, 79);
    EXPECT_EQ(merged[0].time, 10 * kSecond) << "at the first symptom";
    EXPECT_EQ(merged[0].ranks, std::vector<std::int32_t>{3});
    EXPECT_EQ(merged[0].detail, "[2 records of one event] Xid 79: GPU has fallen off the bus (node1.dmesg:7); also NCCL WARN NET/IB : Got "
                                "completion with error 12 (rank3.log:40)");

    Failure watchdog = nccl;
    watchdog.cause = RootCause::NcclWatchdogTimeout;
    watchdog.detail = "NCCL watchdog timeout in ALLREDUCE";
    Failure ecc = watchdog;
    ecc.time = 11 * kSecond;
    ecc.cause = RootCause::GpuHbm3Memory;
    ecc.detail = "CUDA error: uncorrectable ECC error encountered";
    merged = mergeDuplicateFailures({{watchdog, "", false}, {ecc, "", false}});
    ASSERT_EQ(merged.size(), 1u);
    EXPECT_EQ(merged[0].cause, RootCause::GpuHbm3Memory) << "ECC beats the watchdog timeout it tripped";
    EXPECT_NE(merged[0].detail.find("also NCCL watchdog timeout"), std::string::npos) << merged[0].detail;
    // The other way round the watchdog adds its line and changes nothing.
    Failure later = watchdog;
    later.time = 13 * kSecond;
    merged = mergeDuplicateFailures({{ecc, "", false}, {later, "", false}});
    ASSERT_EQ(merged.size(), 1u);
    EXPECT_EQ(merged[0].cause, RootCause::GpuHbm3Memory);
    EXPECT_EQ(merged[0].time, 11 * kSecond);
}

TEST(ImportChecks, TheSameLogReadFromTwoFilesCountsOnce) {
    ScratchDir dir;
    const std::string a = write(dir, "a/node17.log", kXid79);
    const std::string b = write(dir, "b/node17-journal.log", kXid79);
    const ImportResult r = importPaths({a, b}, year(2025));
    EXPECT_EQ(r.run.failures.size(), 1u);
}

TEST(ImportChecks, KernelXidAndTheSlurmJobItEndedAreOneFailure) {
    ScratchDir dir;
    const std::string log = write(dir, "node17.log", kXid79);
    // The scheduler noticed the job's node fail two minutes later.
    const std::string sacct = write(dir, "sacct.txt",
                                    "JobID|JobName|State|Submit|Start|End|NodeList\n"
                                    "4411|llama|NODE_FAIL|2025-01-21T00:00:00|2025-01-21T00:10:00|2025-01-21T04:43:44|gpu-node-17\n");
    const ImportResult r = importPaths({log, sacct}, year(2025));
    ASSERT_EQ(r.run.failures.size(), 1u) << "one fault, one interruption";
    const Failure& f = r.run.failures.front();
    EXPECT_EQ(f.xid, 79);
    EXPECT_EQ(f.component.kind, ComponentKind::Gpu) << "the hardware's record is the more precise";
    EXPECT_NE(f.detail.find("Slurm job 4411"), std::string::npos) << f.detail;

    // A job that ended an hour later is another event.
    const std::string later = write(dir, "later/sacct.txt",
                                    "JobID|JobName|State|Submit|Start|End|NodeList\n"
                                    "4412|llama|NODE_FAIL|2025-01-21T00:00:00|2025-01-21T05:00:00|2025-01-21T05:41:44|gpu-node-17\n");
    EXPECT_EQ(importPaths({log, later}, year(2025)).run.failures.size(), 2u);
}

TEST(ImportChecks, TheRunIsNamedAfterItsFolderOrTheNameGiven) {
    ScratchDir dir;
    const std::string a = write(dir, "outage-0121/node17.log", kXid79);
    const std::string b = write(dir, "outage-0121/node18.log", "Jan 21 05:00:01 gpu-node-18 kernel: NVRM: Xid (PCI:0000:5d:00): 94, pid=77, name=python, Contained: SM (0x1).\n");
    EXPECT_EQ(importPaths({a, b}, year(2025)).run.info.name, "outage-0121");
    EXPECT_EQ(importPaths({dir.file("outage-0121")}, year(2025)).run.info.name, "outage-0121");
    ImportOptions named = year(2025);
    named.runName = "Jan 21 NVLink outage";
    EXPECT_EQ(importPaths({a, b}, named).run.info.name, "Jan 21 NVLink outage");
}

TEST(ImportChecks, TheRunIsNamedAfterItsTrainingJob) {
    ScratchDir dir;
    writeClusterLogs(test::tinyRun(), dir.file("cluster"), "llama-pretrain");
    const ImportResult r = importPaths({dir.file("cluster")});
    EXPECT_EQ(r.run.info.name.rfind("llama-pretrain (job ", 0), 0u) << r.run.info.name;
}

TEST(ImportChecks, SpanGroupsJoinOverlappingAndNearbyFiles) {
    std::vector<FileReport> files(4);
    files[0].path = "a";
    files[0].first = 10 * kDay, files[0].last = 12 * kDay;
    files[1].path = "b";
    files[1].first = 13 * kDay, files[1].last = 14 * kDay;  // a day after a: the same run
    files[2].path = "topology";                              // no times: no say
    files[3].path = "c";
    files[3].first = 400 * kDay, files[3].last = 401 * kDay;
    const auto groups = timeSpanGroups(files);
    ASSERT_EQ(groups.size(), 2u);
    EXPECT_EQ(groups[0].files, (std::vector<std::size_t>{0, 1}));
    EXPECT_EQ(groups[1].files, (std::vector<std::size_t>{3}));
}

}  // namespace
}  // namespace faultline
