// Kernel logs with NVIDIA Xid lines (dmesg -T, dmesg --time-format iso [--decode], raw
// /dev/kmsg, journalctl). Each Xid becomes a failure of the GPU at that PCI bus id.
#include "importers/kernel/readers.h"
#include "importers/kernel/kernel_lines.h"
#include "importers/kernel/kernel_log_line.h"
#include "importers/text/pci_bus_id.h"
#include "importers/text/line_reader.h"
#include "importers/text/text_parse.h"
#include "importers/text/year_resolver.h"
#include "importers/text/text_encoding.h"
#include "model/time_notes.h"

#include <chrono>
#include <ctime>
#include <limits>
#include <map>
#include <tuple>

namespace faultline {

namespace {

// The driver often reports one fault as a burst of lines (17 Xid 13 lines in 2 ms in
// gpud's sample). Lines of the same code on the same GPU this close together are one failure.
constexpr EpochNs kKernelBurst = 60'000'000'000;

std::string hostFromFileName(const std::string& path) {
    std::string name = path.substr(path.find_last_of('/') + 1);
    return name.substr(0, name.find('.'));
}

std::string xidWhat(int xid) {
    switch (xid) {
        case 13: return "graphics engine exception";
        case 31: return "GPU memory page fault";
        case 43: return "GPU stopped processing";
        case 45: return "preemptive cleanup";
        case 48: return "double-bit ECC error";
        case 61: return "internal micro-controller breakpoint";
        case 62: return "internal micro-controller halt";
        case 63: return "ECC page retirement / row remapping event";
        case 64: return "ECC page retirement / row remapping failure";
        case 74: return "NVLink error";
        case 79: return "GPU has fallen off the bus";
        case 92: return "high single-bit ECC error rate";
        case 94: return "contained ECC error";
        case 95: return "uncontained ECC error";
        case 119: return "GSP RPC timeout";
        case 120: return "GSP error";
        default: return "";
    }
}

using OpenFailures = std::map<std::tuple<std::string, std::string, int>, std::size_t>;

// The kernel's PCI enumeration at boot names every NVIDIA GPU (vendor 10de, class 0300 VGA or
// 0302 3D controller): "pci 0000:18:00.0: [10de:2330] type 00 class 0x030200". NVSwitches
// (class 0680) are not GPUs.
std::optional<std::string> enumeratedGpu(std::string_view m) {
    if (!startsWith(m, "pci ") || !contains(m, ": [10de:")) return std::nullopt;
    if (!contains(m, "class 0x0302") && !contains(m, "class 0x0300")) return std::nullopt;
    const std::size_t end = m.find(": [", 4);
    if (end == std::string_view::npos) return std::nullopt;
    return normalisePciBusId(m.substr(4, end - 4));
}

// A journal date has no year: where the user named none, the failure's time carries a year
// the log does not print, and its evidence says so.
void noteAssumedYear(ImportedFailure& f, const KernelLogLine& entry, const ImportContext& ctx) {
    if (entry.form != KernelLogForm::Journal || ctx.options.year > 0) return;
    f.yearAssumed = true;
    f.detail += kYearAssumedNote;
}

// A host's hardware speaking in the kernel log without an Xid (a NIC's health, a cable, a
// disk, a machine check): a failure of that host, or of the GPU the line names.
void hostEvent(RootCause cause, const std::string& host, const KernelLogLine& entry, const std::string& where,
               OpenFailures& open, ImportContext& ctx) {
    const bool crash = cause == RootCause::SoftwareBug;
    const bool hung = cause == RootCause::Unknown;
    ctx.report.count(crash ? "segfault lines" : hung ? "hung task lines" : "hardware lines");
    // A training process dying in NCCL (or any of the job's Python processes) ended the job;
    // another process's segfault says only why a job may have ended.
    const bool jobCrash = crash && contains(entry.message, "segfault") &&
                          (contains(entry.message, "libnccl") || contains(entry.message, "pt_main_thread") || contains(entry.message, "python") ||
                           contains(entry.message, "libcuda") || contains(entry.message, "libtorch"));
    EpochNs t = entry.time;
    bool sinceBoot = entry.sinceBoot;
    if (sinceBoot && ctx.options.bootTime) {
        t += *ctx.options.bootTime;
        sinceBoot = false;
    }
    std::string pci;
    if (const std::size_t at = entry.message.find("PCI:"); at != std::string_view::npos && cause == RootCause::GpuThermalInterface)
        pci = normalisePciBusId(entry.message.substr(at + 4, entry.message.find(": ", at) - at - 4));
    const auto key = std::make_tuple(host, pci, -1 - static_cast<int>(cause));
    if (auto it = open.find(key); it != open.end() && t - ctx.events.failures[it->second].time <= kKernelBurst) return;
    ImportedFailure f;
    f.time = t;
    f.sinceBoot = sinceBoot;
    f.cause = cause;
    f.where.host = host;
    f.where.pciBusId = pci;
    f.detail = std::string(hung ? "Hung task" : rootCauseLabel(cause)) + " on " + host + ": " + std::string(trim(utf8Prefix(entry.message, 240)));
    f.source = where;
    noteAssumedYear(f, entry, ctx);
    f.evidenceOnly = crash && !jobCrash;
    const bool counted = !f.evidenceOnly;
    open[key] = ctx.events.failures.size();
    ctx.events.failures.push_back(std::move(f));
    if (counted) ctx.report.count("failures");
}

// The kernel's OOM killer: "Out of memory: Killed process 28123 (python) ...", "Memory cgroup out
// of memory: Killed process ...", "python invoked oom-killer: gfp_mask=...", "oom-kill:...,task=python,pid=..."
// ("oom_reaper: reaped process" comes after a kill already counted).
bool oomKillerLine(std::string_view m) {
    return contains(m, "invoked oom-killer") || contains(m, "out of memory: Kill") || contains(m, "Out of memory: Kill") || startsWith(m, "oom-kill:");
}

// The host ran out of memory: a failure of the host when the killer took (or was set off by) a
// training process, as the job then died with it; another process's kill is evidence only.
void hostOutOfMemory(const std::string& host, const KernelLogLine& entry, const std::string& where, OpenFailures& open, ImportContext& ctx) {
    ctx.report.count("oom-killer lines");
    const std::string_view m = entry.message;
    const bool training = contains(m, "python") || contains(m, "pt_main_thread") || contains(m, "torchrun");
    EpochNs t = entry.time;
    bool sinceBoot = entry.sinceBoot;
    if (sinceBoot && ctx.options.bootTime) {
        t += *ctx.options.bootTime;
        sinceBoot = false;
    }
    // One event of the killer is several lines (invoked, the kill, the summary, the reaper).
    const auto key = std::make_tuple(host, std::string(), std::numeric_limits<int>::min());
    if (auto it = open.find(key); it != open.end() && t - ctx.events.failures[it->second].time <= kKernelBurst) {
        ImportedFailure& f = ctx.events.failures[it->second];
        if (training && f.evidenceOnly) {
            f.evidenceOnly = false;
            f.detail = "Host out of memory on " + host + ": " + std::string(trim(utf8Prefix(m, 240)));
            f.source = where;
    noteAssumedYear(f, entry, ctx);
            ctx.report.count("failures");
        }
        return;
    }
    ImportedFailure f;
    f.time = t;
    f.sinceBoot = sinceBoot;
    f.cause = RootCause::SoftwareBug;  // the job outgrew the host's memory (sacct's OUT_OF_MEMORY too)
    f.where.host = host;
    f.detail = "Host out of memory on " + host + ": " + std::string(trim(utf8Prefix(m, 240)));
    f.source = where;
    noteAssumedYear(f, entry, ctx);
    f.evidenceOnly = !training;
    open[key] = ctx.events.failures.size();
    ctx.events.failures.push_back(std::move(f));
    if (training) ctx.report.count("failures");
}

// Lines with no time (dmesg -t, "kernel: NVRM: Xid ..." pasted from a journal): their failures
// are kept, marked "time unknown", and placed once the file is read: at the newest time the file
// dates (a line's place in a pasted excerpt does not prove its time, so "after the line before
// it" would claim more than the file says), else at the file's last write.
class UndatedFailures {
public:
    void add(std::size_t failure) { m_failures.push_back(failure); }
    void seen(EpochNs t, bool sinceBoot) {
        EpochNs& last = sinceBoot ? m_lastBoot : m_lastDated;
        last = std::max(last, t);
    }
    void place(std::optional<EpochNs> written, std::int64_t lines, ImportContext& ctx) const {
        if (lines == 0) return;
        ctx.report.count("undated lines", lines);
        const bool sinceBoot = m_lastDated == 0 && m_lastBoot > 0;
        // A file with no modification time (a pipe): the import's own time, the latest it can be.
        const EpochNs now = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
        const EpochNs at = m_lastDated > 0 ? m_lastDated : sinceBoot ? m_lastBoot : written.value_or(now);
        for (std::size_t i : m_failures) {
            ImportedFailure& f = ctx.events.failures[i];
            f.time = at;
            f.sinceBoot = sinceBoot;
            f.detail += m_lastDated > 0 || sinceBoot ? kTimeUnknownNote : kTimeUnknownAtWriteNote;
        }
        const std::string where = m_lastDated > 0 ? "at the newest time the file dates, " + formatEpochNs(at)
                                  : sinceBoot     ? "at the newest time since boot the file gives"
                                  : written       ? "at the file's modification time, " + formatEpochNs(at)
                                                  : "at the time of the import (the file has no modification time)";
        ctx.report.notes.push_back(std::to_string(lines) + " kernel line(s) have no time; their " + std::to_string(m_failures.size()) +
                                   " failure(s) are marked \"time unknown\" and placed " + where);
        if (!m_failures.empty() && m_lastDated == 0 && !sinceBoot) ctx.report.seen(at);
    }

private:
    std::vector<std::size_t> m_failures;
    EpochNs m_lastDated = 0, m_lastBoot = 0;
};

// An undated line's new failure: no time yet (UndatedFailures places it and says so).
void markUndated(ImportContext& ctx, std::size_t before, UndatedFailures& undated) {
    for (std::size_t i = before; i < ctx.events.failures.size(); ++i) {
        ctx.events.failures[i].timeInferred = true;
        undated.add(i);
    }
}

// "NVRM: Xid (PCI:0000:dc:00): 45, pid=1234, ..., caused by previous Xid 149": the code of the
// failure this one follows from, 0 when it names none.
int causingXid(std::string_view text) {
    const std::size_t at = text.find("caused by previous Xid ");
    if (at == std::string_view::npos) return 0;
    std::string_view rest = text.substr(at + 23);
    std::size_t n = 0;
    while (n < rest.size() && isDigit(rest[n])) ++n;
    const auto code = parseInt(rest.substr(0, n));
    return code && *code > 0 && *code <= 100000 ? static_cast<int>(*code) : 0;
}

// A line that is not an Xid: a hung task, an enumerated GPU, the OOM killer, or another message
// with a known cause.
void readOtherKernelMessage(const KernelLogLine& entry, const std::string& host, const std::string& where, OpenFailures& open,
                            ImportContext& ctx) {
    // "INFO: task python:280058 blocked for more than 120 seconds": the process hung in the
    // kernel (a file system, a driver): the job stops making progress.
    if (startsWith(entry.message, "INFO: task ") && contains(entry.message, "blocked for more than")) {
        hostEvent(RootCause::Unknown, host, entry, where, open, ctx);
        return;
    }
    if (const auto gpu = enumeratedGpu(entry.message)) {
        ctx.events.gpuBusIds.emplace_back(host, *gpu);
        ctx.report.count("gpus enumerated");
        return;
    }
    if (oomKillerLine(entry.message)) {
        hostOutOfMemory(host, entry, where, open, ctx);
        return;
    }
    if (const auto cause = rootCauseForKernelMessage(entry.message)) hostEvent(*cause, host, entry, where, open, ctx);
}

// An Xid line: a new failure of its GPU, or part of one already open (a burst of the same code,
// or a code "caused by previous Xid" of that GPU).
void readXidLine(const KernelLogLine& entry, const XidMessage& xid, const std::string& host, bool noTime, KernelLines& lines,
                 OpenFailures& open, ImportContext& ctx) {
    ctx.report.count("xid lines");
    EpochNs t = entry.time;
    bool sinceBoot = entry.sinceBoot;
    if (sinceBoot && ctx.options.bootTime) {
        if (__builtin_add_overflow(t, *ctx.options.bootTime, &t)) lines.fail("the boot time puts this line past 2262, the last year a run can hold");
        sinceBoot = false;
    }
    if (!sinceBoot && !noTime) ctx.report.seen(t);
    const auto key = std::make_tuple(host, xid.pciBusId, xid.xid);
    if (auto it = open.find(key); it != open.end()) {
        const ImportedFailure& f = ctx.events.failures[it->second];
        if (t - f.time <= kKernelBurst) return;
    }
    const std::string what = xidWhat(xid.xid);
    const std::string said = "Xid " + std::to_string(xid.xid) + (what.empty() ? "" : " (" + what + ")");
    // "caused by previous Xid 149": the same GPU's earlier failure, which this line follows
    // from; one chain, one failure (later lines of this code join it too).
    if (const int cause = causingXid(xid.text); cause > 0 && cause != xid.xid) {
        if (auto it = open.find(std::make_tuple(host, xid.pciBusId, cause)); it != open.end() && t >= ctx.events.failures[it->second].time) {
            ImportedFailure& first = ctx.events.failures[it->second];
            first.detail += "; then " + said + " caused by it (" + lines.where() + ")";
            open[key] = it->second;
            ctx.report.count("xid lines chained");
            return;
        }
    }
    ImportedFailure f;
    f.time = t;
    f.sinceBoot = sinceBoot;
    f.xid = xid.xid;
    f.cause = rootCauseForXid(xid.xid).value_or(RootCause::Unknown);
    f.where.host = host;
    f.where.pciBusId = xid.pciBusId;
    f.detail = said + " on " + host + " GPU " + xid.pciBusId + ": " + std::string(xid.text);
    f.source = lines.where();
    noteAssumedYear(f, entry, ctx);
    open[key] = ctx.events.failures.size();
    ctx.events.failures.push_back(std::move(f));
    ctx.report.count("failures");
}

}  // namespace

void importKernelLog(const std::string& path, ImportContext& ctx) {
    LineReader in(path, &ctx.report.notes);
    // Journal dates have no year: the one that puts them at or before the file's last write.
    const std::optional<EpochNs> written = fileModificationTime(path);
    const int year = ctx.options.year > 0 ? ctx.options.year : written ? utcYearOf(*written) : currentUtcYear();
    const std::string fallbackHost = !ctx.options.host.empty() ? ctx.options.host : hostFromFileName(path);
    // (host, bus id, xid) -> index of the failure a new line may belong to.
    OpenFailures open;
    // Undated lines have no time to tell bursts apart: per host, GPU and code, one failure.
    OpenFailures openUndated;
    UndatedFailures undated;
    std::int64_t undatedLines = 0;
    bool warnedBoot = false, warnedYear = false;
    KernelLines lines(in);
    std::string_view line;
    std::int64_t parsed = 0;
    while (lines.next(line)) {
        if ((in.lineNumber() & 0xfff) == 0) ctx.tick(in.progress());
        if (trim(line).empty() || line.front() == ' ' || line.front() == '\t') continue;  // kmsg continuation lines
        auto entry = [&](int y) {
            try {
                return parseKernelLogLine(line, y);
            } catch (const TimeOutOfRange& e) {
                lines.fail(e.what());
            }
        }(year);
        if (entry && entry->form == KernelLogForm::Journal && ctx.options.year <= 0 && written && entry->time > *written) {
            entry = parseKernelLogLine(line, year - 1);  // written last year: never a date after the file's last write
            if (!warnedYear) ctx.report.notes.push_back("journal dates after the file's last write took the year before, " + std::to_string(year - 1));
        }
        if (!entry) {
            ctx.report.skip(lines.where() + ": not a kernel log line (expected a dmesg, /dev/kmsg or journal timestamp)");
            continue;
        }
        ++parsed;
        const bool noTime = entry->form == KernelLogForm::Undated;
        const std::size_t failuresBefore = ctx.events.failures.size();
        OpenFailures& openHere = noTime ? openUndated : open;
        if (noTime) {
            ++undatedLines;
        } else {
            undated.seen(entry->sinceBoot && ctx.options.bootTime ? entry->time + *ctx.options.bootTime : entry->time,
                         entry->sinceBoot && !ctx.options.bootTime);
            if (entry->sinceBoot && !ctx.options.bootTime && !warnedBoot) {
                warnedBoot = true;
                ctx.report.warnings.push_back(lines.where() + ": times count from the host's boot; they are placed from the run's start (pass --boot-time to place them exactly)");
            }
            if (entry->form == KernelLogForm::Journal && ctx.options.year <= 0 && !warnedYear) {
                warnedYear = true;
                ctx.report.notes.push_back(lines.where() + ": the journal's dates have no year; took " + std::to_string(year) +
                                           (written ? " (at or before the file's modification time " + formatEpochNs(*written) + ")" : std::string()) +
                                           " (pass --year)");
            }
            // The run spans every line the log dates, not only its failures.
            if (!entry->sinceBoot || ctx.options.bootTime) ctx.report.seen(entry->sinceBoot ? entry->time + *ctx.options.bootTime : entry->time);
        }
        // The line's failure (an undated one gets its time once the file is read).
        const std::string host = entry->host.empty() ? fallbackHost : std::string(entry->host);
        if (const auto xid = parseXidMessage(entry->message)) readXidLine(*entry, *xid, host, noTime, lines, openHere, ctx);
        else readOtherKernelMessage(*entry, host, lines.where(), openHere, ctx);
        if (noTime) markUndated(ctx, failuresBefore, undated);
    }
    undated.place(written, undatedLines, ctx);
    if (lines.joined() > 0) ctx.report.count("cut lines rejoined", lines.joined());
    if (parsed == 0 && ctx.report.skippedLines > 0)
        throw Error(path + ":1: no line is a kernel log line (expected a dmesg, /dev/kmsg or journal timestamp)");
    if (parsed == 0) throw Error(path + ": the file is empty (expected kernel log lines)");
    ctx.report.count("kernel log lines", parsed);
}

}  // namespace faultline
