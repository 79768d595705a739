// Xid kernel logs: gpud's real `dmesg --decode --time-format iso` capture, and fixtures of
// the dmesg -T, /dev/kmsg and journalctl spellings.
#include "import_test_util.h"
#include "analysis/incidents.h"
#include "analysis/rank_places.h"
#include "model/time_notes.h"

#include "importers/events/import_report.h"
#include "importers/kernel/kernel_log_line.h"
#include "importers/text/pci_bus_id.h"
#include "importers/text/text_parse.h"
#include "test_runs.h"

#include <chrono>
#include <filesystem>
#include <fstream>

namespace faultline {
namespace {

using test::kGpudMemoryLog;
using test::fixture;
using test::importPaths;
using test::realData;

TEST(KernelLog, GpudIsoDecodeLogGivesItsXidsAsTwoFailuresOnOneGpu) {
    FAULTLINE_REQUIRE_REALDATA();
    ImportOptions options;
    options.host = "gpu-host-a";
    const ImportResult r = importPaths({realData(kGpudMemoryLog)}, options);
    const FileReport& f = r.summary.files.at(0);
    EXPECT_EQ(f.format, "kernel-log");
    EXPECT_EQ(f.counts.at("kernel log lines"), 24);  // 17 Xid 13/43 lines and 7 OOM lines
    EXPECT_EQ(f.counts.at("xid lines"), 17);
    // The 16 Xid 13 lines of one burst and the Xid 43 4 ms after them on the same GPU are one
    // event: one failure, its first symptom leading, the Xid 43 among its evidence. The OOM
    // killer taking a python process at 08:44:30 is the host's failure; its kills of httpd and
    // of a container's "node" are evidence only.
    ASSERT_EQ(r.run.failures.size(), 2u);
    const Failure& oom = r.run.failures[1];
    EXPECT_EQ(r.run.info.startEpochNs + oom.time, *parseIsoTime("2025-01-21T08:44:30.287197Z"));
    EXPECT_NE(oom.detail.find("Host out of memory on gpu-host-a: Out of memory: Kill process 456 (python)"), std::string::npos) << oom.detail;
    EXPECT_EQ(f.counts.at("oom-killer lines"), 6);  // the reaper's line follows a kill
    const Failure& first = r.run.failures[0];
    EXPECT_EQ(first.xid, 13);
    EXPECT_EQ(first.cause, RootCause::SoftwareBug);
    EXPECT_EQ(r.run.info.startEpochNs, *parseIsoTime("2025-01-21T04:41:44.283302Z"));
    EXPECT_EQ(first.time, 0);
    ASSERT_EQ(first.gpus.size(), 1u);
    const Gpu& gpu = r.run.topology.gpus[static_cast<std::size_t>(first.gpus[0])];
    EXPECT_EQ(r.run.topology.hosts[static_cast<std::size_t>(gpu.host)].name, "gpu-host-a");
    EXPECT_EQ(gpu.pciBusId, "0000:38:00.0");
    EXPECT_NE(first.detail.find("Xid 43"), std::string::npos) << first.detail;
    EXPECT_NE(first.detail.find("GPU stopped processing"), std::string::npos) << first.detail;
}

TEST(KernelLog, GpudKmsgWithoutXidIsReadAsAKernelLogWithNoFailures) {
    FAULTLINE_REQUIRE_REALDATA();
    const ImportResult r = importPaths({realData("xid_kernel_logs/gpud/pkg/kmsg/testdata/kmsg.2.peermem.log")});
    EXPECT_EQ(r.summary.files[0].format, "kernel-log");
    EXPECT_EQ(r.summary.files[0].counts.at("kernel log lines"), 8);
    EXPECT_TRUE(r.run.failures.empty());
}

TEST(KernelLog, GpudNcclSegfaultLogHasNoXid) {
    FAULTLINE_REQUIRE_REALDATA();
    const ImportResult r = importPaths({realData("xid_kernel_logs/gpud/components/accelerator/nvidia/nccl/testdata/dmesg.decode.iso.log")});
    EXPECT_EQ(r.summary.files[0].format, "kernel-log");
    EXPECT_EQ(r.summary.files[0].counts.at("kernel log lines"), 2);
    EXPECT_EQ(r.summary.files[0].counts.count("xid lines"), 0u);
    // A training process segfaulting in libnccl ended its job: a failure, and the run spans the log.
    ASSERT_EQ(r.run.failures.size(), 1u);
    EXPECT_EQ(r.run.failures[0].cause, RootCause::SoftwareBug);
    EXPECT_NE(r.summary.files[0].first, 0);
}

TEST(KernelLog, DmesgCtimeMapsXid79AndMemoryXidsToTheirCauses) {
    ImportOptions options;
    options.host = "node07";
    const ImportResult r = importPaths({fixture("xid_dmesg_ctime.log")}, options);
    // The Xid 48 and the Xid 63 of the same second on one GPU are one event with both as evidence.
    ASSERT_EQ(r.run.failures.size(), 2u);
    EXPECT_EQ(r.run.failures[0].xid, 79);
    EXPECT_EQ(r.run.failures[0].cause, RootCause::FaultyGpu);
    EXPECT_EQ(r.run.info.startEpochNs + r.run.failures[0].time, *parseIsoTime("2025-01-21T04:41:44Z"));
    EXPECT_EQ(r.run.failures[1].xid, 48);
    EXPECT_EQ(r.run.failures[1].cause, RootCause::GpuHbm3Memory);
    EXPECT_NE(r.run.failures[1].detail.find("Xid 63"), std::string::npos) << r.run.failures[1].detail;
    // Two PCI bus ids seen on node07: 0000:18:00 is its first GPU in bus order, 0000:9a:00 the second.
    const Topology& t = r.run.topology;
    EXPECT_EQ(t.gpuName(r.run.failures[0].gpus.at(0)), "node07-gpu1");
    EXPECT_EQ(t.gpuName(r.run.failures[1].gpus.at(0)), "node07-gpu0");
}

TEST(KernelLog, KmsgTimesCountFromBootAndBootTimePlacesThem) {
    ImportOptions options;
    options.host = "node01";
    options.bootTime = *parseIsoTime("2025-01-18T13:00:00Z");
    const ImportResult r = importPaths({fixture("xid_kmsg.log")}, options);
    // Two Xid 119 lines 6.4 ms apart and the Xid 120 a second later, all on one GPU: one
    // event, one failure, with the Xid 120 among its evidence.
    ASSERT_EQ(r.run.failures.size(), 1u);
    EXPECT_EQ(r.run.failures[0].xid, 119);
    EXPECT_EQ(r.run.failures[0].cause, RootCause::GpuSystemProcessor);
    EXPECT_EQ(r.run.info.startEpochNs + r.run.failures[0].time, *options.bootTime + 228'001'500'000);
    EXPECT_NE(r.run.failures[0].detail.find("Xid 120"), std::string::npos) << r.run.failures[0].detail;
    EXPECT_EQ(r.summary.files[0].counts.at("xid lines"), 3);
}

TEST(KernelLog, JournalLinesNameTheirHostsAndNvlinkXidIsAGpuFault) {
    ImportOptions options;
    options.year = 2025;
    const ImportResult r = importPaths({fixture("xid_journal.log")}, options);
    ASSERT_EQ(r.run.failures.size(), 3u);
    const Topology& t = r.run.topology;
    EXPECT_EQ(r.run.failures[0].xid, 74);
    EXPECT_EQ(r.run.failures[0].cause, RootCause::FaultyGpu);
    EXPECT_EQ(t.gpuName(r.run.failures[0].gpus.at(0)), "gpu-node-17-gpu0");
    EXPECT_EQ(t.gpus[static_cast<std::size_t>(r.run.failures[0].gpus[0])].pciBusId, "0000:ab:00.0");
    EXPECT_EQ(r.run.failures[1].xid, 94);
    EXPECT_EQ(r.run.failures[2].xid, 95);
    EXPECT_EQ(r.run.failures[2].cause, RootCause::GpuHbm3Memory);
    EXPECT_EQ(r.run.failures[1].gpus, r.run.failures[2].gpus);  // short and short-iso lines, same GPU
    EXPECT_EQ(r.run.info.startEpochNs + r.run.failures[2].time, *parseIsoTime("2025-01-21T05:10:33Z"));
    ASSERT_EQ(t.hosts.size(), 2u);
}

// Journal dates print no year: where --year names none, each such failure says "year assumed"
// beside its time (in its evidence, and so in the incident view and `incidents`); the ISO line
// with its year says nothing; with --year nothing is assumed.
TEST(KernelLog, AFailureOnAYearlessJournalDateSaysItsYearIsAssumed) {
    const ImportResult assumed = importPaths({fixture("xid_journal.log")});
    ASSERT_EQ(assumed.run.failures.size(), 3u);
    for (const Failure& f : assumed.run.failures) {
        // Xid 95 is the line with an ISO date and its year.
        const std::vector<std::string> want = f.xid == 95 ? std::vector<std::string>{} : std::vector<std::string>{"year assumed"};
        EXPECT_EQ(timeNotesOf(f.detail), want) << f.detail;
    }
    for (const Incident& inc : buildIncidents(assumed.run)) {
        const std::string when = incidentWhenText(inc, assumed.run);
        EXPECT_EQ(when.ends_with(" (year assumed)"), inc.xid != 95) << when;
    }
    ImportOptions options;
    options.year = 2025;
    const ImportResult named = importPaths({fixture("xid_journal.log")}, options);
    for (const Failure& f : named.run.failures) EXPECT_TRUE(timeNotesOf(f.detail).empty()) << f.detail;
}

// Kernel lines with no time at all ("kernel: NVRM: Xid ...", "host kernel: ...", dmesg -t's bare
// "NVRM: ..."): never refused. A file of only such lines puts its failures at the file's last
// write, each saying "time unknown" where the incident says when; one failure per GPU and code;
// an Xid "caused by previous Xid 149" joins the failure of that Xid on that GPU.
// A comment a person wrote above a pasted line ("# from node17 after the crash") is neither a
// kernel line nor a job's: one dmesg -T Xid under it is still a kernel log, not "unknown format".
TEST(KernelLog, ACommentAboveOneXidLineDoesNotHideTheKernelLog) {
    const test::ScratchDir dir;
    const std::string path = dir.file("node17.log");
    {
        std::ofstream out(path);
        out << "# from node17 after the crash, see the ticket\n"
               "[Sat Feb 17 03:48:31 2024] NVRM: Xid (PCI:0000:cb:00): 48, pid=2048, name=pt_main_thread, Ch 00000008\n";
    }
    const ImportResult r = importPaths({path});
    EXPECT_EQ(r.summary.files.at(0).format, "kernel-log");
    ASSERT_EQ(r.run.failures.size(), 1u) << importSummaryToText(r.summary);
    EXPECT_EQ(r.run.failures[0].xid, 48);
    EXPECT_EQ(r.run.failures[0].cause, RootCause::GpuHbm3Memory);
    EXPECT_EQ(r.run.info.startEpochNs + r.run.failures[0].time, *parseIsoTime("2024-02-17T03:48:31Z"));
}

TEST(KernelLog, UndatedLinesArePlacedAtTheFilesLastWriteAndSaySo) {
    const test::ScratchDir dir;
    const std::string path = dir.file("gpu-node-7.log");
    std::filesystem::copy_file(fixture("xid_undated.log"), path);
    const std::chrono::sys_seconds written{std::chrono::sys_days{std::chrono::year{2025} / 3 / 8} + std::chrono::hours{10}};
    std::filesystem::last_write_time(path, std::chrono::file_clock::from_sys(written));
    const ImportResult r = importPaths({path});
    const FileReport& f = r.summary.files.at(0);
    EXPECT_EQ(f.format, "kernel-log");
    EXPECT_EQ(f.skippedLines, 0);
    EXPECT_EQ(f.counts.at("undated lines"), 6);
    EXPECT_EQ(f.counts.at("xid lines chained"), 1);  // the second Xid 45 is the same burst
    ASSERT_EQ(r.run.failures.size(), 3u);
    const Topology& t = r.run.topology;
    std::vector<std::string> gpus;
    for (const Failure& x : r.run.failures) {
        EXPECT_EQ(r.run.info.startEpochNs + x.time, *parseIsoTime("2025-03-08T10:00:00Z")) << x.detail;
        EXPECT_EQ(timeNotesOf(x.detail), std::vector<std::string>{"time unknown"}) << x.detail;
        gpus.push_back(t.hosts[static_cast<std::size_t>(t.gpus[static_cast<std::size_t>(x.gpus.at(0))].host)].name + " " +
                       t.gpus[static_cast<std::size_t>(x.gpus.at(0))].pciBusId + " Xid " + std::to_string(x.xid));
    }
    std::sort(gpus.begin(), gpus.end());
    EXPECT_EQ(gpus, (std::vector<std::string>{"gpu-node-3 0000:1b:00.0 Xid 79", "gpu-node-7 0000:29:00.0 Xid 79", "gpu-node-7 0000:dc:00.0 Xid 149"}));
    const auto chain = std::find_if(r.run.failures.begin(), r.run.failures.end(), [](const Failure& x) { return x.xid == 149; });
    EXPECT_NE(chain->detail.find("then Xid 45 (preemptive cleanup) caused by it"), std::string::npos) << chain->detail;
    for (const Incident& inc : buildIncidents(r.run)) EXPECT_TRUE(incidentWhenText(inc, r.run).ends_with(" (time unknown)")) << incidentWhenText(inc, r.run);
    EXPECT_TRUE(std::any_of(f.notes.begin(), f.notes.end(), [](const std::string& n) {
        return n.find("6 kernel line(s) have no time; their 3 failure(s) are marked \"time unknown\" and placed at the file's modification time") !=
               std::string::npos;
    })) << importSummaryToText(r.summary);
}

// In a file with dated lines, an undated line's failure sits at the newest time the file dates
// (not after the line before it: a pasted excerpt's order proves no time), saying so.
TEST(KernelLog, UndatedLinesAmongDatedOnesTakeTheEndOfTheFilesSpan) {
    const ImportResult r = importPaths({fixture("xid_undated_mixed.log")});
    const FileReport& f = r.summary.files.at(0);
    EXPECT_EQ(f.format, "kernel-log");
    EXPECT_EQ(f.counts.at("undated lines"), 1);
    EXPECT_EQ(f.counts.at("kernel log lines"), 4);
    ASSERT_EQ(r.run.failures.size(), 2u);
    const Failure& dated = r.run.failures[0];
    const Failure& undated = r.run.failures[1];
    EXPECT_EQ(dated.xid, 13);
    EXPECT_TRUE(timeNotesOf(dated.detail).empty()) << dated.detail;
    EXPECT_EQ(undated.xid, 79);
    EXPECT_EQ(r.run.info.startEpochNs + undated.time, *parseIsoTime("2025-01-21T04:52:03Z"));
    EXPECT_EQ(timeNotesOf(undated.detail), std::vector<std::string>{"time unknown"}) << undated.detail;
    EXPECT_EQ(r.run.topology.gpus[static_cast<std::size_t>(undated.gpus.at(0))].pciBusId, "0000:3b:00.0");
}

TEST(KernelLog, LineFormsParse) {
    auto iso = parseKernelLogLine("kern  :warn  : 2025-01-21T04:41:44,283302+00:00 NVRM: Xid (PCI:0000:38:00): 13, x", 2025);
    ASSERT_TRUE(iso);
    EXPECT_EQ(iso->form, KernelLogForm::DmesgIso);
    EXPECT_EQ(iso->message, "NVRM: Xid (PCI:0000:38:00): 13, x");
    auto boot = parseKernelLogLine("[  227.996636] NVRM: hi", 2025);
    ASSERT_TRUE(boot);
    EXPECT_TRUE(boot->sinceBoot);
    EXPECT_EQ(boot->time, 227'996'636'000);
    EXPECT_FALSE(parseKernelLogLine("hello world", 2025));
    // No time: "kernel:", "host kernel:", dmesg -x -t's "kern  :warn  :", the driver's bare line.
    auto bare = parseKernelLogLine("gpu-node-3 kernel: NVRM: Xid (PCI:0000:dc:00): 45, pid=1234", 2025);
    ASSERT_TRUE(bare);
    EXPECT_EQ(bare->form, KernelLogForm::Undated);
    EXPECT_EQ(bare->host, "gpu-node-3");
    EXPECT_EQ(bare->message, "NVRM: Xid (PCI:0000:dc:00): 45, pid=1234");
    for (const char* l : {"kernel: NVRM: Xid (PCI:0000:dc:00): 45, x", "NVRM: Xid (PCI:0000:dc:00): 45, x", "kern  :warn  : NVRM: Xid (PCI:0000:dc:00): 45, x"}) {
        const auto u = parseKernelLogLine(l, 2025);
        ASSERT_TRUE(u) << l;
        EXPECT_EQ(u->form, KernelLogForm::Undated) << l;
        EXPECT_EQ(u->message, "NVRM: Xid (PCI:0000:dc:00): 45, x") << l;
    }
    EXPECT_FALSE(parseKernelLogLine("an oops in the kernel: words of a sentence", 2025));
    auto xid = parseXidMessage("NVRM: Xid (0000:3B:00): 79, GPU has fallen off the bus.");
    ASSERT_TRUE(xid);
    EXPECT_EQ(xid->pciBusId, "0000:3b:00");
    EXPECT_EQ(xid->xid, 79);
    EXPECT_EQ(normalisePciBusId("00000000:9A:00.0"), "0000:9a:00");
}

}  // namespace
}  // namespace faultline
