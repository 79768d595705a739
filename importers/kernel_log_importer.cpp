// Kernel logs with NVIDIA Xid lines (dmesg -T, dmesg --time-format iso [--decode], raw
// /dev/kmsg, journalctl). Each Xid becomes a failure of the GPU at that PCI bus id.
#include "formats.h"
#include "kernel_log_line.h"
#include "line_reader.h"
#include "text_parse.h"

#include <ctime>
#include <map>
#include <tuple>

namespace faultline {

namespace {

// The driver often reports one fault as a burst of lines (17 Xid 13 lines in 2 ms in
// gpud's sample). Lines of the same code on the same GPU this close together are one failure.
constexpr EpochNs kBurst = 60'000'000'000;

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

}  // namespace

void importKernelLog(const std::string& path, ImportContext& ctx) {
    LineReader in(path);
    const int year = ctx.options.year > 0 ? ctx.options.year : currentUtcYear();
    const std::string fallbackHost = !ctx.options.host.empty() ? ctx.options.host : hostFromFileName(path);
    // (host, bus id, xid) -> index of the failure a new line may belong to.
    std::map<std::tuple<std::string, std::string, int>, std::size_t> open;
    bool warnedBoot = false, warnedYear = false;
    std::string_view line;
    std::int64_t parsed = 0;
    while (in.next(line)) {
        if ((in.lineNumber() & 0xfff) == 0) ctx.tick(in.progress());
        if (trim(line).empty() || line.front() == ' ' || line.front() == '\t') continue;  // kmsg continuation lines
        const auto entry = [&] {
            try {
                return parseKernelLogLine(line, year);
            } catch (const TimeOutOfRange& e) {
                in.fail(e.what());
            }
        }();
        if (!entry) {
            ctx.report.skip(in.where() + ": not a kernel log line (expected a dmesg, /dev/kmsg or journal timestamp)");
            continue;
        }
        ++parsed;
        if (entry->sinceBoot && !ctx.options.bootTime && !warnedBoot) {
            warnedBoot = true;
            ctx.report.warnings.push_back(in.where() + ": times count from the host's boot; they are placed from the run's start (pass --boot-time to place them exactly)");
        }
        if (entry->form == KernelLogForm::Journal && ctx.options.year <= 0 && !warnedYear) {
            warnedYear = true;
            ctx.report.warnings.push_back(in.where() + ": the journal's dates have no year; took " + std::to_string(year) + " (pass --year)");
        }
        const auto xid = parseXidMessage(entry->message);
        if (!xid) continue;
        ctx.report.count("xid lines");
        EpochNs t = entry->time;
        bool sinceBoot = entry->sinceBoot;
        if (sinceBoot && ctx.options.bootTime) {
            if (__builtin_add_overflow(t, *ctx.options.bootTime, &t)) in.fail("the boot time puts this line past 2262, the last year a run can hold");
            sinceBoot = false;
        }
        if (!sinceBoot) ctx.report.seen(t);
        const std::string host = entry->host.empty() ? fallbackHost : std::string(entry->host);
        const auto key = std::make_tuple(host, xid->pciBusId, xid->xid);
        if (auto it = open.find(key); it != open.end()) {
            ImportedFailure& f = ctx.events.failures[it->second];
            if (t - f.time <= kBurst) continue;
        }
        ImportedFailure f;
        f.time = t;
        f.sinceBoot = sinceBoot;
        f.xid = xid->xid;
        f.cause = rootCauseForXid(xid->xid).value_or(RootCause::Unknown);
        f.where.host = host;
        f.where.pciBusId = xid->pciBusId;
        const std::string what = xidWhat(xid->xid);
        f.detail = "Xid " + std::to_string(xid->xid) + (what.empty() ? "" : " (" + what + ")") + " on " + host + " GPU " +
                   xid->pciBusId + ": " + std::string(xid->text);
        open[key] = ctx.events.failures.size();
        ctx.events.failures.push_back(std::move(f));
        ctx.report.count("failures");
    }
    if (parsed == 0 && ctx.report.skippedLines > 0)
        throw Error(path + ":1: no line is a kernel log line (expected a dmesg, /dev/kmsg or journal timestamp)");
    if (parsed == 0) throw Error(path + ": the file is empty (expected kernel log lines)");
    ctx.report.count("kernel log lines", parsed);
}

}  // namespace faultline
