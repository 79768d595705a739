// Tested by generation, not by example (issue #36, item 5): from a small catalogue of event lines,
// every combination of wrapper (what a launcher, collector, runtime or viewer puts around a line)
// x date style (what the program prints before its message, yearless ones included) x hard wrap
// (a terminal's width: none, 80, 120, 160 columns) x line ending (LF, CRLF) is written to a file,
// imported through the CLI's entry point (importFiles), and its event checked: kind, rank, host
// and time, and the import's invariants. The catalogue's event for a combination goes round in
// turn, so every event meets every wrapper and date style.
//
// Records a program writes to a file (Docker json-file, journald JSON, a collector's JSON, CRI)
// are never cut by a terminal: their hard-wrap combinations are the unwrapped file.
#include "import_invariant_checks.h"
#include "import_test_util.h"

#include "importers/import_invariants.h"
#include "importers/text/text_parse.h"
#include "model/time_notes.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>

namespace faultline {
namespace {

namespace fs = std::filesystem;

// Every event happened at 2024-06-03T07:12:41.532Z, on rank 3 (global), host gpu187 where a
// wrapper names one. The files are written 2024-06-10: a yearless date is in 2024.
constexpr std::int64_t kEventSecond = 1'717'398'761;
constexpr EpochNs kEventNs = kEventSecond * 1'000'000'000 + 532'000'000;
constexpr std::int32_t kRank = 3;
const std::string kHost = "gpu187";

struct CatalogueEvent {
    const char* name;
    std::string message;  // as the program printed it
    RootCause cause;
    bool rankInText;  // the message names its rank (the watchdog's "[Rank 3]")
};

const std::vector<CatalogueEvent>& catalogue() {
    static const std::vector<CatalogueEvent> kEvents = {
        {"watchdog",
         "[Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=881, OpType=ALLREDUCE, NumelIn=262144, NumelOut=262144, "
         "Timeout(ms)=600000) ran for 600023 milliseconds before timing out.",
         RootCause::NcclWatchdogTimeout, true},
        {"cuda-oom",
         "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 3 has a total capacity of 79.15 GiB of which 1.23 GiB "
         "is free. Including non-PyTorch memory, this process has 77.90 GiB memory in use.",
         RootCause::SoftwareBug, false},
        {"ecc", "RuntimeError: CUDA error: uncorrectable ECC error encountered", RootCause::GpuHbm3Memory, false},
        {"illegal-access", "RuntimeError: CUDA error: an illegal memory access was encountered", RootCause::SoftwareBug, false},
    };
    return kEvents;
}

// What the program prints before its message.
struct DateStyle {
    const char* name;
    std::string prefix;  // "" for none
};

const std::vector<DateStyle>& dateStyles() {
    static const std::vector<DateStyle> kStyles = {
        {"none", ""},
        {"iso-z", "2024-06-03T07:12:41.532Z "},
        {"iso-offset", "2024-06-03T09:12:41.532+02:00 "},
        {"iso-space", "2024-06-03 07:12:41 "},
        {"bracketed", "[2024-06-03 07:12:41] "},
        {"python-logging", "2024-06-03 07:12:41,532 - train - ERROR - "},
        {"titan", "[titan] 2024-06-03 07:12:41,532 - root - ERROR - "},
        {"glog-bracketed-yearless", "[E0603 07:12:41.532000 4242 ProcessGroupNCCL.cpp:616] "},
        {"glog-yearless", "E0603 07:12:41.532000 4242 train.py:88] "},
    };
    return kStyles;
}

// What a launcher, collector, runtime or viewer puts around the line.
struct Wrapper {
    const char* name;
    std::function<std::string(const std::string&)> wrap;
    bool givesRank = false;
    bool givesHost = false;
    bool givesTime = false;
    bool fileRecord = false;  // written to a file by a program: no terminal cuts it
};

std::string jsonEscaped(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out;
}

const std::vector<Wrapper>& wrappers() {
    static const std::vector<Wrapper> kWrappers = {
        {"bare", [](const std::string& l) { return l; }},
        {"torchrun-rank", [](const std::string& l) { return "[rank3]:" + l; }, true},
        {"torchrun-default-rank", [](const std::string& l) { return "[default3]:[rank3]:" + l; }, true},
        {"host-rank", [](const std::string& l) { return "[gpu187:3]: " + l; }, true, true},
        {"srun-l", [](const std::string& l) { return "3: " + l; }, true},
        {"srun-l-torchrun", [](const std::string& l) { return "3: [rank3]:" + l; }, true},
        {"mpirun-tag", [](const std::string& l) { return "[1,3]<stderr>:" + l; }, true},
        {"pdsh", [](const std::string& l) { return "gpu187: " + l; }, false, true},
        {"pdsh-torchrun", [](const std::string& l) { return "gpu187: [rank3]:" + l; }, true, true},
        {"runner", [](const std::string& l) { return "vitl-nodes.gpu187.nolog [stderr] " + l; }, false, true},
        {"runner-torchrun", [](const std::string& l) { return "vitl-nodes.gpu187.nolog [stderr] [rank3]:" + l; }, true, true},
        {"kubectl-prefix", [](const std::string& l) { return "[pod/trainer-3/pytorch] " + l; }},
        {"collector-iso", [](const std::string& l) { return "2024-06-03T07:12:41.532Z " + l; }, false, false, true},
        {"collector-bracketed", [](const std::string& l) { return "[2024-06-03 07:12:41] [rank3]:" + l; }, true, false, true},
        {"syslog", [](const std::string& l) { return "Jun  3 07:12:41 gpu187 python[4242]: " + l; }, false, true, true},
        {"viewer-tab", [](const std::string& l) { return "  1207\t" + l; }},
        {"viewer-pipe", [](const std::string& l) { return "1207 | " + l; }},
        {"docker-json",
         [](const std::string& l) { return "{\"log\":\"" + jsonEscaped(l) + "\\n\",\"stream\":\"stderr\",\"time\":\"2024-06-03T07:12:41.532000000Z\"}"; },
         false, false, true, true},
        {"journald-json",
         [](const std::string& l) {
             return "{\"__REALTIME_TIMESTAMP\":\"1717398761532000\",\"_HOSTNAME\":\"gpu187\",\"SYSLOG_IDENTIFIER\":\"python\",\"MESSAGE\":\"" + jsonEscaped(l) +
                    "\"}";
         },
         false, true, true, true},
        {"collector-json",
         [](const std::string& l) {
             return "{\"@timestamp\":\"2024-06-03T07:12:41.532Z\",\"@message\":\"[rank3]:" + jsonEscaped(l) + "\",\"@logStream\":\"trainer-3\",\"host\":\"gpu187\"}";
         },
         true, true, true, true},
        {"cri", [](const std::string& l) { return "2024-06-03T07:12:41.532000000Z stderr F [rank3]:" + l; }, true, false, true, true},
    };
    return kWrappers;
}

// A terminal `width` columns wide cuts the line into pieces of that many bytes (0: no cut).
std::vector<std::string> hardWrapped(const std::string& line, std::size_t width) {
    if (width == 0 || line.size() <= width) return {line};
    std::vector<std::string> out;
    for (std::size_t at = 0; at < line.size(); at += width) out.push_back(line.substr(at, width));
    return out;
}

struct Combination {
    const Wrapper* wrapper;
    const DateStyle* date;
    std::size_t width;
    bool crlf;
    const CatalogueEvent* event;

    std::string name() const {
        return std::string(wrapper->name) + " x " + date->name + " x " + (width ? std::to_string(width) + " columns" : "no wrap") + " x " +
               (crlf ? "CRLF" : "LF") + ": " + event->name;
    }
};

std::string fileText(const Combination& c) {
    const std::string physical = c.wrapper->wrap(c.date->prefix + c.event->message);
    std::string out;
    for (const std::string& piece : hardWrapped(physical, c.wrapper->fileRecord ? 0 : c.width)) out += piece + (c.crlf ? "\r\n" : "\n");
    return out;
}

// What is wrong with the combination's import, "" when nothing is.
std::string checkImport(const Combination& c, const std::string& path) {
    ImportResult r;
    try {
        r = importFiles({path}, {});
    } catch (const std::exception& e) {
        return std::string("refused: ") + e.what();
    }
    const std::string invariants = test::importInvariantViolations(r, fileWriteTime(path));
    if (!invariants.empty()) return "invariant: " + invariants;
    const Failure* found = nullptr;
    for (const Failure& f : r.run.failures)
        if (f.cause == c.event->cause && !found) found = &f;
    if (!found) return "no " + std::string(c.event->name) + " failure: " + importSummaryToText(r.summary);
    const Failure& f = *found;
    if (c.wrapper->givesRank || c.event->rankInText) {
        if (std::find(f.ranks.begin(), f.ranks.end(), kRank) == f.ranks.end()) return "rank 3 not among the failure's ranks: " + f.detail;
    }
    if (c.wrapper->givesHost && !r.run.topology.findHost(kHost)) return "host gpu187 not in the run";
    const bool dated = c.wrapper->givesTime || !std::string(c.date->prefix).empty();
    if (dated) {
        const EpochNs t = r.run.info.startEpochNs + f.time;
        if (t / 1'000'000'000 != kEventSecond) return "time " + formatEpochNs(t) + ", expected 2024-06-03T07:12:41";
    }
    return {};
}

std::vector<Combination> combinations() {
    std::vector<Combination> out;
    std::size_t n = 0;
    for (const Wrapper& w : wrappers())
        for (const DateStyle& d : dateStyles())
            for (const std::size_t width : {std::size_t{0}, std::size_t{80}, std::size_t{120}, std::size_t{160}})
                for (const bool crlf : {false, true}) out.push_back({&w, &d, width, crlf, &catalogue()[n++ % catalogue().size()]});
    return out;
}

TEST(GeneratedShapes, EveryWrapperDateStyleWrapAndLineEndingGivesTheEvent) {
    ASSERT_GE(wrappers().size(), 20u);
    ASSERT_GE(dateStyles().size(), 8u);
    const test::ScratchDir dir;
    const auto written = std::chrono::file_clock::from_sys(std::chrono::sys_seconds{std::chrono::sys_days{std::chrono::year{2024} / 6 / 10}});
    std::map<std::string, int> failuresBy;
    int failed = 0, n = 0;
    const std::vector<Combination> all = combinations();
    for (const Combination& c : all) {
        const std::string path = dir.file("combination" + std::to_string(n++) + ".log");
        {
            std::ofstream out(path, std::ios::binary);
            out << fileText(c);
        }
        fs::last_write_time(path, written);
        const std::string wrong = checkImport(c, path);
        if (wrong.empty()) continue;
        ++failed;
        ++failuresBy[std::string("wrapper ") + c.wrapper->name];
        ++failuresBy[std::string("date ") + c.date->name];
        ++failuresBy["width " + std::to_string(c.width)];
        ++failuresBy[std::string("event ") + c.event->name];
        ADD_FAILURE() << c.name() << "\n" << fileText(c) << wrong;
    }
    std::string tally;
    for (const auto& [what, count] : failuresBy) tally += "  " + what + ": " + std::to_string(count) + "\n";
    EXPECT_EQ(failed, 0) << "of " << all.size() << " combinations\n" << tally;
}

// Kernel lines: every form a kernel log is written in (dated, since boot, or with no time at all)
// x hard wrap x line ending, with an Xid 79 on GPU 0000:dc:00 of host gpu187 (the file's name, or
// the journal's host). A dated form gives the line's time; a boot-relative one, the time with
// --boot-time; an undated one, the file's last write, said "time unknown".
struct KernelForm {
    const char* name;
    std::string prefix;
    enum { Dated, SinceBoot, Undated } time;
};

const std::vector<KernelForm>& kernelForms() {
    static const std::vector<KernelForm> kForms = {
        {"dmesg-iso", "2024-06-03T07:12:41,532000+00:00 ", KernelForm::Dated},
        {"dmesg-iso-decode", "kern  :err   : 2024-06-03T07:12:41,532000+00:00 ", KernelForm::Dated},
        {"dmesg-T", "[Mon Jun  3 07:12:41 2024] ", KernelForm::Dated},
        {"dmesg-boot", "[  761.532000] ", KernelForm::SinceBoot},
        {"kmsg", "3,4711,761532000,-;", KernelForm::SinceBoot},
        {"journal", "Jun  3 07:12:41 gpu187 kernel: ", KernelForm::Dated},
        {"journal-iso", "2024-06-03T07:12:41+0000 gpu187 kernel: ", KernelForm::Dated},
        {"undated-kernel", "kernel: ", KernelForm::Undated},
        {"undated-host-kernel", "gpu187 kernel: ", KernelForm::Undated},
        {"undated-decode", "kern  :err   : ", KernelForm::Undated},
        {"dmesg-t", "", KernelForm::Undated},
    };
    return kForms;
}

TEST(GeneratedShapes, EveryKernelLineFormWrapAndLineEndingGivesTheXid) {
    const test::ScratchDir dir;
    const auto written = std::chrono::sys_seconds{std::chrono::sys_days{std::chrono::year{2024} / 6 / 10}};
    const std::string xid = "NVRM: Xid (PCI:0000:dc:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.";
    ImportOptions options;
    options.bootTime = kEventNs - 761'532'000'000;
    int failed = 0, n = 0;
    for (const KernelForm& form : kernelForms())
        for (const std::size_t width : {std::size_t{0}, std::size_t{80}, std::size_t{120}, std::size_t{160}})
            for (const bool crlf : {false, true}) {
                const std::string what = std::string(form.name) + " x " + (width ? std::to_string(width) + " columns" : "no wrap") + " x " + (crlf ? "CRLF" : "LF");
                const std::string folder = dir.file("k" + std::to_string(n++));
                fs::create_directory(folder);
                const std::string path = folder + "/gpu187.log";
                {
                    std::ofstream out(path, std::ios::binary);
                    for (const std::string& piece : hardWrapped(form.prefix + xid, width)) out << piece << (crlf ? "\r\n" : "\n");
                }
                fs::last_write_time(path, std::chrono::file_clock::from_sys(written));
                const auto wrong = [&]() -> std::string {
                    ImportResult r;
                    try {
                        r = importFiles({path}, options);
                    } catch (const std::exception& e) {
                        return std::string("refused: ") + e.what();
                    }
                    const std::string invariants = test::importInvariantViolations(r, fileWriteTime(path));
                    if (!invariants.empty()) return "invariant: " + invariants;
                    if (r.run.failures.size() != 1) return std::to_string(r.run.failures.size()) + " failures: " + importSummaryToText(r.summary);
                    const Failure& f = r.run.failures.front();
                    if (f.xid != 79 || f.cause != RootCause::FaultyGpu) return "not the Xid 79: " + f.detail;
                    const Topology& t = r.run.topology;
                    const Gpu& gpu = t.gpus[static_cast<std::size_t>(f.gpus.at(0))];
                    if (t.hosts[static_cast<std::size_t>(gpu.host)].name != kHost || gpu.pciBusId != "0000:dc:00.0") return "not gpu187's GPU 0000:dc:00: " + f.detail;
                    const EpochNs at = r.run.info.startEpochNs + f.time;
                    const bool undated = form.time == KernelForm::Undated;
                    const EpochNs expected = undated ? std::chrono::duration_cast<std::chrono::nanoseconds>(written.time_since_epoch()).count() : kEventNs;
                    // dmesg -T and the journal print whole seconds.
                    if (at / 1'000'000'000 != expected / 1'000'000'000) return "time " + formatEpochNs(at) + ", expected " + formatEpochNs(expected);
                    if (undated != (timeNotesOf(f.detail) == std::vector<std::string>{"time unknown"})) return "time notes: " + f.detail;
                    return {};
                }();
                if (wrong.empty()) continue;
                ++failed;
                ADD_FAILURE() << what << "\n" << wrong;
            }
    EXPECT_EQ(failed, 0) << "of " << n << " combinations";
}

}  // namespace
}  // namespace faultline
