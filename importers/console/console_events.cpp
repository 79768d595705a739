// The parser of each catalogue entry (console_catalogue.h): what a line of that kind says.
#include "importers/console/console_catalogue.h"

#include "importers/console/job_banner.h"
#include "importers/text/text_parse.h"
#include "importers/text/text_encoding.h"
#include "importers/console/training_log_line.h"

#include <string>

namespace faultline {

namespace {


// The (optionally negative) integer right after `key`, spaces skipped.
std::optional<std::int64_t> intAfter(std::string_view s, std::string_view key, std::size_t from = 0) {
    const std::size_t at = s.find(key, from);
    if (at == std::string_view::npos) return std::nullopt;
    std::size_t i = at + key.size();
    while (i < s.size() && s[i] == ' ') ++i;
    const std::size_t start = i;
    if (i < s.size() && s[i] == '-') ++i;
    while (i < s.size() && isDigit(s[i])) ++i;
    if (i == start || (i == start + 1 && s[start] == '-')) return std::nullopt;
    return parseInt(s.substr(start, i - start));
}

std::string_view tokenAfter(std::string_view s, std::string_view key, std::string_view stops = " ,;)]*") {
    const std::size_t at = s.find(key);
    if (at == std::string_view::npos) return {};
    std::string_view rest = s.substr(at + key.size());
    return rest.substr(0, rest.find_first_of(stops));
}

// What to show of a line: from `anchor` on when the line has it, cut to a readable length.
std::string_view shown(std::string_view text, std::string_view anchor = {}) {
    if (!anchor.empty())
        if (const std::size_t at = text.find(anchor); at != std::string_view::npos) text = text.substr(at);
    text = trim(text);
    return utf8Prefix(text, 300);
}

// "[Rank 3]", "[PG ID 0 PG GUID 0(default_pg) Rank 3]", "[PG 0 (default_pg) Rank 3]", "rank 3".
std::int32_t rankIn(std::string_view s) {
    for (std::string_view key : {std::string_view("Rank "), std::string_view("[rank"), std::string_view("rank ")})
        for (std::size_t at = s.find(key); at != std::string_view::npos; at = s.find(key, at + 1)) {
            // A word that ends in the key is another number: NCCL's "Connection closed by
            // localRank 0" names a local rank, "local_rank 3" too, not the global rank.
            const char before = at > 0 ? s[at - 1] : ' ';
            if ((before >= 'a' && before <= 'z') || (before >= 'A' && before <= 'Z') || (before >= '0' && before <= '9') || before == '_') continue;
            // "Connect from rank 9", "send to rank 3", "peer rank 5": the other end, not the rank
            // that reports.
            const std::string_view head = trim(s.substr(0, at));
            if (head.ends_with(" from") || head.ends_with(" to") || head.ends_with(" peer") || head.ends_with(" by")) continue;
            if (auto r = intAfter(s.substr(at), key); r && *r >= 0 && *r < kMaxRank) return static_cast<std::int32_t>(*r);
            break;
        }
    return -1;
}

// The process group a watchdog line names: "0(default_pg)" from "PG GUID 0(default_pg)", else "PG ID 3".
std::string_view groupIn(std::string_view s) {
    if (auto g = tokenAfter(s, "PG GUID ", " ]"); !g.empty()) return g;
    const std::size_t at = s.find("PG ID ");
    if (at == std::string_view::npos) return {};
    std::size_t end = at + 6;
    while (end < s.size() && isDigit(s[end])) ++end;
    return s.substr(at, end - at);
}

int signalNumber(std::string_view s) {
    static constexpr std::pair<std::string_view, int> kSignals[] = {{"SIGTERM", 15}, {"SIGKILL", 9}, {"SIGINT", 2}, {"SIGABRT", 6},
                                                                    {"SIGSEGV", 11}, {"SIGBUS", 7}, {"SIGILL", 4}, {"SIGHUP", 1}};
    for (const auto& [name, n] : kSignals)
        if (s.find(name) != std::string_view::npos) return n;
    if (auto n = intAfter(s, "Received ")) return static_cast<int>(*n);  // "Received 15 death signal"
    if (auto n = intAfter(s, "Signal ")) return static_cast<int>(*n);
    if (auto n = intAfter(s, "got signal:")) return static_cast<int>(*n);
    return 0;
}

// The host in NCCL's "host:pid:tid [dev] NCCL WARN ..." head.
std::string_view ncclHost(std::string_view s) {
    const std::size_t nccl = s.find(" NCCL ");
    if (nccl == std::string_view::npos) return {};
    const std::size_t colon = s.find(':');
    if (colon == std::string_view::npos || colon > nccl || s.substr(0, colon).find(' ') != std::string_view::npos) return {};
    // NCCL's own prefix, "host:pid:tid [dev] NCCL WARN": a pid after the host, not an exception's
    // name ("torch.distributed.DistBackendError: NCCL error in: ...").
    if (colon + 1 >= s.size() || !isDigit(s[colon + 1])) return {};
    return s.substr(0, colon);
}

// UCX's and Open MPI's "[host:pid :tid:pid] Caught signal 11 (...)" head: the process that
// crashed and its host.
bool processHead(std::string_view s, ConsoleEvent& e) {
    const std::string_view t = trim(s);
    if (t.empty() || t.front() != '[') return false;
    const std::size_t close = t.find(']');
    const std::size_t colon = t.find(':');
    if (close == std::string_view::npos || colon == std::string_view::npos || colon > close || colon == 1) return false;
    const std::string_view host = t.substr(1, colon - 1);
    if (host.find(' ') != std::string_view::npos) return false;
    std::size_t i = colon + 1;
    while (i < close && isDigit(t[i])) ++i;
    if (i == colon + 1) return false;
    e.host = host;
    e.pid = parseInt(t.substr(colon + 1, i - colon - 1)).value_or(-1);
    return e.pid >= 0;
}

// A tqdm bar's "N/M [": the step it has reached.
std::optional<std::int64_t> tqdmStep(std::string_view s) {
    if (s.find('|') == std::string_view::npos) return std::nullopt;
    for (std::size_t at = s.find(" ["); at != std::string_view::npos; at = s.find(" [", at + 1)) {
        std::size_t i = at;
        while (i > 0 && isDigit(s[i - 1])) --i;
        if (i == at || i == 0 || s[i - 1] != '/') continue;
        std::size_t j = i - 1;
        while (j > 0 && isDigit(s[j - 1])) --j;
        if (j == i - 1) continue;
        return parseInt(s.substr(j, i - 1 - j));
    }
    return std::nullopt;
}

std::optional<ConsoleEvent> parseStep(std::string_view s, ConsoleEvent e) {
    if (s.find("elapsed time per iteration (") != std::string_view::npos) {
        // Megatron: "(ms): 1617.2"; Megatron-DeepSpeed's later logs: "(s): 111.00".
        const auto iteration = intAfter(s, "iteration");
        auto ms = numberAfter(s, "elapsed time per iteration (ms):");
        if (!ms)
            if (auto secs = numberAfter(s, "elapsed time per iteration (s):")) ms = *secs * 1000;
        if (!iteration || !ms || *ms < 0) {
            e.malformed = true;
            return e;
        }
        e.stepNumber = *iteration;
        e.stepSeconds = *ms / 1000;
        return e;
    }
    if (auto n = intAfter(s, "global_step=")) e.stepNumber = *n;                       // NeMo / Lightning postfix
    else if (auto it = intAfter(s, "iteration:"); it && s.find('/') != std::string_view::npos) e.stepNumber = *it;  // m4
    else if (s.find("loss") != std::string_view::npos && (intAfter(s, "step:") || intAfter(s, "steps:")))
        e.stepNumber = intAfter(s, "step:") ? *intAfter(s, "step:") : *intAfter(s, "steps:");  // torchtitan, DeepSpeed
    else if (auto ds = intAfter(s, "step="); ds && s.find("skipped=") != std::string_view::npos) e.stepNumber = *ds;  // DeepSpeed
    else if (auto bar = tqdmStep(s)) e.stepNumber = *bar;                                // HF Trainer, Lightning, NeMo
    else if (s.find("{'loss'") == std::string_view::npos) return std::nullopt;          // HF / LlamaFactory loss dict: no step
    if (auto secs = numberAfter(s, "iter time (s):")) e.stepSeconds = *secs;
    return e;
}

std::optional<ConsoleEvent> parseElasticSummary(std::string_view s, ConsoleEvent e) {
    const std::string_view t = trim(s);
    const std::size_t colon = t.find(':');
    static constexpr std::string_view kFields[] = {"time", "host", "rank", "exitcode", "error_file", "traceback"};
    if (colon != std::string_view::npos && colon < 12) {
        const std::string_view name = trim(t.substr(0, colon));
        for (std::string_view f : kFields)
            if (name == f) {
                e.field = f;
                e.value = trim(t.substr(colon + 1));
                if (f == "rank") e.rank = static_cast<std::int32_t>(intAfter(e.value, "").value_or(-1)), e.localRank = static_cast<std::int32_t>(intAfter(e.value, "local_rank:").value_or(-1));
                if (f == "host") e.host = e.value;
                if (f == "exitcode") e.exitCode = static_cast<std::int32_t>(intAfter(e.value, "").value_or(0)), e.pid = intAfter(e.value, "pid:").value_or(-1);
                if (f == "traceback") e.signal = signalNumber(e.value);
                if (f == "time") {
                    // "2024-03-05_10:00:00": elastic writes '_' between date and time.
                    std::string iso(e.value.substr(0, 19));
                    if (iso.size() == 19 && iso[10] == '_') iso[10] = ' ';
                    if (auto at = parseIsoTime(iso)) e.time = *at;
                }
                return e;
            }
    }
    e.field = t.find("Root Cause") != std::string_view::npos ? "root" : t.find("Failures:") != std::string_view::npos ? "failures" : "header";
    if (e.field == "header") e.what = shown(s, "ChildFailedError");
    return e;
}

std::optional<ConsoleEvent> parseSlurmCancel(std::string_view s, ConsoleEvent e) {
    std::size_t at = s.find("*** JOB ");
    std::size_t skip = 8;
    if (at == std::string_view::npos) {
        at = s.find("*** STEP ");
        skip = 9;
        e.step = true;
    }
    if (at == std::string_view::npos) return std::nullopt;
    std::string_view rest = s.substr(at + skip);
    const std::size_t cancelled = rest.find(" CANCELLED AT ");
    if (cancelled == std::string_view::npos) return std::nullopt;
    // "JOB 7 ON node3 CANCELLED AT ...", or (older slurmstepd) "JOB 7 CANCELLED AT ... on node3".
    const std::size_t on = rest.substr(0, cancelled).find(" ON ");
    e.job = rest.substr(0, on == std::string_view::npos ? cancelled : on);
    if (on != std::string_view::npos) e.host = rest.substr(on + 4, cancelled - on - 4);
    std::string_view when = rest.substr(cancelled + 14);
    std::size_t used = 0;
    e.time = parseIsoTime(when, &used);
    if (!e.time) return std::nullopt;
    std::string_view reason = trim(when.substr(used));
    if (const std::size_t stars = reason.find("***"); stars != std::string_view::npos) reason = trim(reason.substr(0, stars));
    if (const std::size_t comma = reason.find(','); comma != std::string_view::npos) reason = reason.substr(0, comma);
    if (const std::size_t host = reason.rfind(" on "); on == std::string_view::npos && host != std::string_view::npos) {
        e.host = trim(reason.substr(host + 4));
        reason = trim(reason.substr(0, host));
    }
    if (e.host.empty() || e.host.find(' ') != std::string_view::npos) return std::nullopt;
    e.reason = reason;
    return e;
}

std::optional<ConsoleEvent> parseSlurmTaskExit(std::string_view s, ConsoleEvent e) {
    if (s.find("oom") != std::string_view::npos || s.find("OOM") != std::string_view::npos) return std::nullopt;  // the host-oom entry's
    const std::size_t err = s.find("error: ");
    if (err == std::string_view::npos) return std::nullopt;
    std::string_view rest = s.substr(err + 7);
    // "node7: task 12: Killed", "node7: tasks 0-7: Exited with exit code 1"
    if (const std::size_t task = rest.find(": task"); task != std::string_view::npos) {
        e.host = rest.substr(0, task);
        if (auto r = intAfter(rest, "task ", task)) e.rank = static_cast<std::int32_t>(*r);
        else if (auto r2 = intAfter(rest, "tasks ", task)) e.rank = static_cast<std::int32_t>(*r2);
        const std::size_t colon = rest.find(": ", task + 2);
        e.what = colon == std::string_view::npos ? rest : trim(rest.substr(colon + 2));
        e.exitCode = static_cast<std::int32_t>(intAfter(rest, "exit code").value_or(0));
        e.signal = e.what.find("Killed") != std::string_view::npos ? 9 : e.what.find("Segmentation") != std::string_view::npos ? 11 : 0;
        return e;
    }
    e.what = shown(rest);
    return e;
}

// The launcher tells which worker ended and how; the host is the line's (pdsh's prefix) unless
// the line names one.
std::optional<ConsoleEvent> parseLauncherExit(std::string_view s, ConsoleEvent e) {
    e.exitCode = static_cast<std::int32_t>(intAfter(s, "return code =").value_or(intAfter(s, "exit code").value_or(0)));
    e.signal = static_cast<std::int32_t>(intAfter(s, "exited on signal").value_or(0));
    if (e.signal == 0 && e.exitCode < 0) e.signal = -e.exitCode;
    e.localRank = static_cast<std::int32_t>(intAfter(s, "local_rank=").value_or(-1));
    e.rank = static_cast<std::int32_t>(intAfter(s, "process rank").value_or(-1));
    if (const std::size_t node = s.find(" on node "); node != std::string_view::npos) e.host = tokenAfter(s.substr(node), " on node ");
    else if (const std::size_t ssh = s.find(": ssh exited"); ssh != std::string_view::npos) {
        const std::size_t start = s.rfind(' ', ssh);
        e.host = s.substr(start == std::string_view::npos ? 0 : start + 1, ssh - (start == std::string_view::npos ? 0 : start + 1));
    }
    for (std::string_view anchor : {std::string_view("exits with"), std::string_view("ssh exited"), std::string_view("noticed that")})
        if (s.find(anchor) != std::string_view::npos) {
            e.what = shown(s, anchor);
            break;
        }
    return e;
}

// A watchdog's exception or its NCCL work counters: which collective the rank had queued and
// which it had finished.
std::optional<ConsoleEvent> parseWatchdogCounters(std::string_view s, ConsoleEvent e) {
    e.rank = rankIn(s);
    e.group = groupIn(s);
    e.seq = intAfter(s, "at work:").value_or(intAfter(s, "NCCL work:").value_or(-1));
    e.lastEnqueued = intAfter(s, "last enqueued NCCL work:").value_or(-1);
    e.lastCompleted = intAfter(s, "last completed NCCL work:").value_or(-1);
    e.what = shown(s, e.kind == ConsoleKind::WatchdogException ? "Exception" : "Timeout at");
    if (e.kind == ConsoleKind::NcclWorkCounters && e.lastEnqueued < 0 && e.lastCompleted < 0) return std::nullopt;
    return e;
}

std::optional<ConsoleEvent> parseJobShape(std::string_view s, ConsoleEvent e) {
    if (parseSlurmVariable(s) || parseParallelSizes(s) || parseTorchrunShape(s)) return e;
    // "--world-size 16", "world_size ........ 16" (DeepSpeed / Megatron argument dumps), "world_size=16"
    for (std::string_view key : {std::string_view("--world-size"), std::string_view("world_size")}) {
        const std::size_t at = s.find(key);
        if (at == std::string_view::npos) continue;
        std::size_t i = at + key.size();
        while (i < s.size() && (s[i] == ' ' || s[i] == '.' || s[i] == '=' || s[i] == ':')) ++i;
        const std::size_t start = i;
        while (i < s.size() && isDigit(s[i])) ++i;
        if (i > start && (i == s.size() || !std::isalnum(static_cast<unsigned char>(s[i])))) {
            e.world = static_cast<std::int32_t>(parseInt(s.substr(start, i - start)).value_or(0));
            if (e.world > 0 && e.world < kMaxRank) return e;
        }
    }
    return std::nullopt;
}

}  // namespace

std::optional<ConsoleEvent> parseConsoleEvent(ConsoleKind kind, std::string_view s) {
    ConsoleEvent e;
    e.kind = kind;
    auto has = [s](std::string_view what) { return s.find(what) != std::string_view::npos; };
    switch (kind) {
        case ConsoleKind::ElasticSummary: return parseElasticSummary(s, e);
        case ConsoleKind::ElasticFailure:
            e.exitCode = static_cast<std::int32_t>(intAfter(s, "exitcode:").value_or(0));
            e.localRank = static_cast<std::int32_t>(intAfter(s, "local_rank:").value_or(-1));
            e.pid = intAfter(s, "(pid:").value_or(-1);
            e.what = shown(s, "failed (exitcode:");
            return e;
        case ConsoleKind::LauncherExit: return parseLauncherExit(s, e);
        case ConsoleKind::WorkerGroupRestart: {
            const auto r = parseWorkerGroupRestart(s);
            e.what = r ? *r : shown(s, "Worker group");
            return e;
        }
        case ConsoleKind::SlurmCancel: return parseSlurmCancel(s, e);
        case ConsoleKind::SlurmNodeFailure:
            e.host = trim(tokenAfter(s, "Node failure on ", " ,;"));
            return e;
        case ConsoleKind::SlurmTaskExit: return parseSlurmTaskExit(s, e);
        case ConsoleKind::SlurmStepAborted: e.what = shown(s); return e;
        case ConsoleKind::CollectiveTimeout:
            e.rank = rankIn(s);
            e.seq = intAfter(s, "SeqNum=").value_or(-1);
            e.op = tokenAfter(s, "OpType=");
            e.numel = intAfter(s, "NumelIn=").value_or(-1);
            e.timeoutMs = intAfter(s, "Timeout(ms)=").value_or(0);
            e.group = groupIn(s);
            e.what = shown(s, "Watchdog caught");
            return e;
        case ConsoleKind::WatchdogException:
        case ConsoleKind::NcclWorkCounters: return parseWatchdogCounters(s, e);
        case ConsoleKind::HeartbeatTimeout:
        case ConsoleKind::NcclAbort:
            e.rank = rankIn(s);
            e.group = groupIn(s);
            e.what = shown(s);
            return e;
        case ConsoleKind::CudaOom:
            e.device = static_cast<std::int32_t>(intAfter(s, "GPU ").value_or(-1));
            e.what = shown(s, has("CUDA out of memory") ? "CUDA out of memory" : "OutOfMemoryError");
            return e;
        case ConsoleKind::CppTerminate: e.what = shown(s, "terminate called"); return e;
        case ConsoleKind::CudaError:
            // PyTorch's advice after the error is part of its report, not an error of its own.
            if (has("might be asynchronously reported") || has("CUDA_LAUNCH_BLOCKING") || has("TORCH_USE_CUDA_DSA")) {
                e.kind = ConsoleKind::StackFrame;
                return e;
            }
            e.rank = rankIn(s);
            e.what = shown(s, has("CUDA error") ? "CUDA error" : std::string_view());
            return e;
        case ConsoleKind::HostOom:
            if (has("MemoryError") && !has("oom") && trim(s).substr(0, 11) != "MemoryError" && !has(" MemoryError") && !has(".MemoryError")) return std::nullopt;
            e.what = shown(s);
            return e;
        case ConsoleKind::NcclError:
            e.rank = rankIn(s);
            e.host = ncclHost(s);
            e.what = shown(s, has("NCCL WARN") ? "NCCL WARN" : std::string_view());
            return e;
        case ConsoleKind::ProcessCrash:
            e.signal = has("SIGABRT") || has("Aborted") ? 6 : has("SIGBUS") || has("Bus error") ? 7 : has("SIGILL") || has("Illegal instruction") ? 4 : 11;
            processHead(s, e);
            e.what = shown(s);
            return e;
        case ConsoleKind::Signal:
            e.signal = signalNumber(s);
            e.what = shown(s);
            return e;
        case ConsoleKind::Traceback:
        case ConsoleKind::StackFrame: return e;
        case ConsoleKind::Step: return parseStep(s, e);
        case ConsoleKind::CheckpointTimer: {
            bool isSave = false;
            if (!parseCheckpointTimer(s, isSave)) return std::nullopt;
            return e;
        }
        case ConsoleKind::Checkpoint:
            if (!parseCheckpointLine(s)) return std::nullopt;
            return e;
        case ConsoleKind::CommInit:
            if (!parseNcclCommInit(s)) return std::nullopt;
            return e;
        case ConsoleKind::JobShape: return parseJobShape(s, e);
        case ConsoleKind::NcclInfo: return e;
        case ConsoleKind::Count: break;
    }
    return std::nullopt;
}

}  // namespace faultline
