#include "importers/console/console_failures.h"

#include "importers/events/import_report.h"
#include "importers/text/text_parse.h"
#include "importers/text/text_encoding.h"

#include "analysis/incidents.h"
#include "model/time_notes.h"

#include <algorithm>
#include <set>

namespace faultline {

namespace {

// Every rank prints its own copy of an error within seconds; a burst is one event.
constexpr EpochNs kConsoleBurst = 60'000'000'000;

bool has(std::string_view s, std::string_view what) { return s.find(what) != std::string_view::npos; }

std::string_view signalName(int n) {
    switch (n) {
        case 1: return "SIGHUP";
        case 2: return "SIGINT";
        case 4: return "SIGILL";
        case 6: return "SIGABRT";
        case 7: return "SIGBUS";
        case 9: return "SIGKILL";
        case 11: return "SIGSEGV";
        case 15: return "SIGTERM";
        default: return "";
    }
}

// A CUDA error that a watchdog or abort line carries ("watchdog thread terminated with
// exception: CUDA error: uncorrectable ECC error encountered"): the part that failed, which the
// line names more specifically than its kind does.
std::optional<RootCause> carriedCudaError(std::string_view text) {
    if (!has(text, "CUDA error") && !has(text, "cudaError")) return std::nullopt;
    if (has(text, "ECC")) return RootCause::GpuHbm3Memory;
    if (has(text, "fallen off") || has(text, "GPU is lost")) return RootCause::FaultyGpu;
    return std::nullopt;
}

// A fabric error that a watchdog or abort line carries, as a paste joins them on one line
// ("... timed out ... ncclRemoteError: ... Last error: NET/IB : Got completion from peer ...
// with error 12"): the network failed under the collective.
bool carriesNetworkError(std::string_view text) {
    return (has(text, "NET/IB") || has(text, "NET/Socket")) && (has(text, "completion") || has(text, "Connection") || has(text, "error"));
}

// The signals a process dies of when it crashes, not when it is stopped. SIGBUS is left out: in
// a job it is most often shared memory running out (a container's /dev/shm), not a bug.
bool isCrashSignal(int signal) {
    return signal == 11 || signal == 6 || signal == 4;
}

bool isCollectiveKind(ConsoleKind kind) {
    return kind == ConsoleKind::CollectiveTimeout || kind == ConsoleKind::WatchdogException || kind == ConsoleKind::NcclWorkCounters ||
           kind == ConsoleKind::HeartbeatTimeout || kind == ConsoleKind::NcclAbort;
}

// How much a kind says about why the job died: the most specific event of a burst names its cause.
int specificityOf(const ConsoleEvent& e, std::string_view text) {
    if (isCollectiveKind(e.kind) && carriedCudaError(text)) return 9;  // as the CUDA error line itself
    if (isCollectiveKind(e.kind) && carriesNetworkError(text)) return 5;  // as the NCCL error line itself
    switch (e.kind) {
        case ConsoleKind::CollectiveTimeout: return 5;
        case ConsoleKind::WatchdogException: return 4;
        case ConsoleKind::HeartbeatTimeout: return 3;
        case ConsoleKind::NcclAbort: return 2;
        case ConsoleKind::NcclWorkCounters: return 2;  // "Timeout at NCCL work: N": a timeout of its own
        case ConsoleKind::CudaError: return has(e.what, "ECC") ? 9 : 8;
        case ConsoleKind::CudaOom: return 7;
        case ConsoleKind::HostOom: return 6;
        case ConsoleKind::NcclError: return 5;
        case ConsoleKind::ProcessCrash: return 4;
        case ConsoleKind::CppTerminate: return 3;
        case ConsoleKind::ElasticFailure:
        case ConsoleKind::ElasticSummary:
        case ConsoleKind::LauncherExit: return 2;
        case ConsoleKind::SlurmNodeFailure: return 9;
        case ConsoleKind::SlurmCancel: return e.step ? 5 : 6;  // the job's own cancel says more than its step's
        case ConsoleKind::SlurmTaskExit: return 3;
        case ConsoleKind::SlurmStepAborted: return 1;  // the consequence of a stop, not its cause
        default: return 1;
    }
}

RootCause causeOf(const ConsoleEvent& e, std::string_view text) {
    if (isCollectiveKind(e.kind)) {
        if (const std::optional<RootCause> carried = carriedCudaError(text)) return *carried;
        if (carriesNetworkError(text)) return RootCause::NetworkSwitchCable;
    }
    switch (e.kind) {
        case ConsoleKind::CollectiveTimeout:
        case ConsoleKind::WatchdogException:
        case ConsoleKind::NcclWorkCounters:
        case ConsoleKind::HeartbeatTimeout:
        case ConsoleKind::NcclAbort: return RootCause::NcclWatchdogTimeout;
        case ConsoleKind::CudaError:
            if (has(text, "ECC")) return RootCause::GpuHbm3Memory;
            if (has(text, "unknown error") || has(text, "launch failure") || has(text, "fallen off") || has(text, "GPU is lost")) return RootCause::FaultyGpu;
            return RootCause::SoftwareBug;
        case ConsoleKind::NcclError:
            if (has(text, "completion with error") || has(text, "socket") || has(text, "Connection") || has(text, "NET/IB")) return RootCause::NetworkSwitchCable;
            return RootCause::SoftwareBug;
        case ConsoleKind::SlurmNodeFailure: return RootCause::HostMaintenance;
        case ConsoleKind::SlurmCancel:
            if (has(e.reason, "NODE FAIL")) return RootCause::HostMaintenance;
            // The scheduler's own stop, as sacct's TIMEOUT and PREEMPTED are: planned, no fault.
            if (has(e.reason, "TIME LIMIT") || has(e.reason, "PREEMPT")) return RootCause::PlannedMaintenance;
            return RootCause::Unknown;  // an operator or a script: who knows why
        case ConsoleKind::LauncherExit:
            // A worker that died of SIGSEGV, SIGABRT or SIGILL crashed; any other end
            // (SIGKILL, SIGTERM, SIGBUS, an exit code) says the worker ended, not why.
            return isCrashSignal(e.signal) ? RootCause::SoftwareBug : RootCause::Unknown;
        case ConsoleKind::ElasticFailure:
            // Killed (SIGKILL): by the OOM killer, the launcher or an operator; no cause given.
            if (e.exitCode == -9) return RootCause::Unknown;
            return rootCauseForLogLine(text).value_or(RootCause::SoftwareBug);
        case ConsoleKind::SlurmTaskExit:
        case ConsoleKind::SlurmStepAborted:
        case ConsoleKind::Signal: return RootCause::Unknown;
        default: return rootCauseForLogLine(text).value_or(RootCause::SoftwareBug);
    }
}

std::string describe(const ConsoleEvent& e) {
    switch (e.kind) {
        case ConsoleKind::CollectiveTimeout:
            return "NCCL watchdog timeout" + (e.op.empty() ? std::string() : " in " + std::string(e.op)) +
                   (e.seq >= 0 ? " (SeqNum " + std::to_string(e.seq) + ")" : std::string()) +
                   (e.timeoutMs > 0 ? " after " + std::to_string(e.timeoutMs / 1000) + " s" : std::string()) +
                   (e.numel >= 0 ? ", " + std::to_string(e.numel) + " elements" : std::string()) +
                   (e.group.empty() ? std::string() : ", process group " + std::string(e.group)) +
                   (e.rank >= 0 ? ", first reported by rank " + std::to_string(e.rank) : std::string());
        case ConsoleKind::SlurmCancel:
            return std::string("Slurm ") + (e.step ? "step " : "job ") + std::string(e.job) + " cancelled on " + std::string(e.host) +
                   (e.reason.empty() ? std::string() : " " + std::string(e.reason));
        case ConsoleKind::SlurmNodeFailure: return "Slurm: node failure on " + std::string(e.host);
        case ConsoleKind::SlurmTaskExit: return "Slurm task " + (e.rank >= 0 ? std::to_string(e.rank) + " " : std::string()) + "on " + std::string(e.host) + ": " + std::string(e.what);
        case ConsoleKind::LauncherExit:
            return "launcher: " +
                   (e.rank >= 0 ? "rank " + std::to_string(e.rank) : e.localRank >= 0 ? "local rank " + std::to_string(e.localRank) : std::string("a worker")) +
                   (e.host.empty() ? std::string() : " on " + std::string(e.host)) +
                   (e.exitCode != 0 ? " exited with code " + std::to_string(e.exitCode) : std::string(" exited")) +
                   (!signalName(e.signal).empty() ? " (" + std::string(signalName(e.signal)) + ")" : std::string());
        default: return std::string(e.what);
    }
}

}  // namespace

std::uint64_t ConsoleFailures::streamKey(const LineOrigin& at) const {
    std::uint64_t key = static_cast<std::uint64_t>(static_cast<std::uint32_t>(at.rank + 1)) << 32 |
                        static_cast<std::uint32_t>(at.localRank + 1);
    for (char c : at.host) key = key * 131 + static_cast<unsigned char>(c);
    return key;
}

ImportedFailure& ConsoleFailures::failureFor(Family family, const LineOrigin& at, bool& created) {
    created = false;
    auto it = m_open.find(family);
    if (it != m_open.end() && at.time - it->second.last <= kConsoleBurst) {
        it->second.last = std::max(it->second.last, at.time);
        return m_ctx->events.failures[it->second.failure];
    }
    created = true;
    ImportedFailure f;
    f.time = at.time;
    f.timeInferred = at.inferred;
    f.yearAssumed = at.yearAssumed;
    f.source = at.where();
    f.cause = RootCause::Unknown;
    Open open;
    open.failure = m_ctx->events.failures.size();
    open.last = at.time;
    m_open[family] = open;
    m_ctx->events.failures.push_back(std::move(f));
    m_ctx->report.count("failures");
    return m_ctx->events.failures.back();
}

void ConsoleFailures::report(ImportedFailure& f, const ConsoleEvent& e, const LineOrigin& at) {
    const std::int32_t rank = e.rank >= 0 && e.kind != ConsoleKind::SlurmTaskExit ? e.rank : at.rank;
    if (rank >= 0) {
        if (std::find(f.ranks.begin(), f.ranks.end(), rank) == f.ranks.end()) f.ranks.push_back(rank);
        const std::size_t index = static_cast<std::size_t>(&f - m_ctx->events.failures.data());
        m_firstReporter.try_emplace(index, rank);
        m_ctx->report.ranks.insert(rank);
    }
    // A line whose wrapper names its host and no rank (pdsh's "node3: ", a runner's label,
    // syslog's host): the failure is that host's, where nothing else places it.
    if (at.rank < 0 && !at.host.empty() && f.where.host.empty() && f.hosts.empty()) f.where.host = std::string(at.host);
    m_ctx->report.seen(at.time);
}

void ConsoleFailures::add(const ConsoleEvent& e, std::string_view text, const LineOrigin& at) {
    if (e.kind == ConsoleKind::Traceback) {
        Traceback& t = m_tracebacks[streamKey(at)];
        // A traceback chained to the one before ("During handling of the above exception")
        // goes on with it; a new one on a stream of its own means the one before was cut.
        const bool chained = has(text, "above exception");
        if (!chained && t.frames > 0 && (at.rank >= 0 || !at.host.empty())) cutTraceback(t);
        if (!chained || t.frames == 0) {
            t = Traceback{};
            t.time = at.time;
            t.inferred = at.inferred;
            t.rank = at.rank;
            t.localRank = at.localRank;
            t.host = std::string(at.host);
            t.file = at.file;
            t.line = at.line;
        }
        return;
    }
    m_tracebacks.erase(streamKey(at));  // an error line ends a traceback: it is the exception
    if (e.kind == ConsoleKind::ElasticSummary) return elastic(e, at);
    Family family = Family::Crash;
    switch (e.kind) {
        case ConsoleKind::CollectiveTimeout:
        case ConsoleKind::WatchdogException:
        case ConsoleKind::NcclWorkCounters:
        case ConsoleKind::HeartbeatTimeout:
        case ConsoleKind::NcclAbort: family = Family::Collective; break;
        case ConsoleKind::SlurmCancel:
        case ConsoleKind::SlurmNodeFailure:
        case ConsoleKind::SlurmTaskExit:
        case ConsoleKind::SlurmStepAborted:
        case ConsoleKind::LauncherExit:
        case ConsoleKind::Signal: family = Family::Scheduler; break;
        default: break;
    }
    // A signal, a worker's exit, srun's word on its task or a C++ terminate that follows a
    // crash or a collective's timeout is the job being torn down: evidence of that failure,
    // not one of its own.
    const bool teardown = e.kind == ConsoleKind::Signal || e.kind == ConsoleKind::LauncherExit || e.kind == ConsoleKind::SlurmTaskExit ||
                          e.kind == ConsoleKind::CppTerminate;
    if (teardown && !m_open.count(Family::Scheduler)) {
        for (const Family cause : {Family::Crash, Family::Collective}) {
            auto open = m_open.find(cause);
            if (open == m_open.end() || at.time - open->second.last > kConsoleBurst) continue;
            family = cause;
            break;
        }
    }
    bool created = false;
    ImportedFailure& f = failureFor(family, at, created);
    Open& open = m_open[family];
    const std::size_t index = open.failure;
    report(f, e, at);
    // srun names the host its failed task ran on: the failure's host, where nothing else places
    // the failure (a failure of ranks is where its ranks are).
    if (e.kind == ConsoleKind::SlurmTaskExit && family != Family::Scheduler && !e.host.empty() && f.where.host.empty() && f.hosts.empty() &&
        f.ranks.empty())
        f.where.host = std::string(e.host);
    const int specificity = specificityOf(e, text);
    const auto noteProcess = [&] {
        if (e.pid >= 0) m_firstProcess[index] = {std::string(e.host.empty() ? at.host : e.host), e.pid, e.localRank >= 0 ? e.localRank : at.localRank};
        else m_firstProcess.erase(index);
    };
    if (created) noteProcess();
    if (specificity > open.specificity) {
        // Signals and step aborts came first: the event they were the echo of sets the time.
        if (open.specificity <= 1 && !at.inferred) {
            f.time = at.time;
            f.yearAssumed = at.yearAssumed;
            f.source = at.where();
            noteProcess();
        }
        open.specificity = specificity;
        const RootCause cause = causeOf(e, text);
        if (cause != RootCause::Unknown || f.cause == RootCause::Unknown) f.cause = cause;
        f.detail = describe(e);
        if (e.kind == ConsoleKind::SlurmNodeFailure || e.kind == ConsoleKind::SlurmCancel) {
            f.hosts = {std::string(e.host)};
            if (e.kind == ConsoleKind::SlurmCancel && !e.step) f.job = std::string(e.job);
        }
        if (e.kind == ConsoleKind::NcclError && !e.host.empty()) f.where.host = std::string(e.host);
        if (e.kind == ConsoleKind::LauncherExit) {
            // The worker's host: the line's own words, else the launcher's prefix (pdsh's "node3: ").
            const std::string_view host = e.host.empty() ? at.host : e.host;
            if (!host.empty()) f.where.host = std::string(host);
            ConsoleEvent placed = e;
            placed.host = host;
            f.detail = describe(placed);
        }
    } else if (e.kind == ConsoleKind::SlurmCancel && !e.step && f.job.empty()) {
        f.job = std::string(e.job);  // the job's own cancel after its step's: the scheduler's record
    }
    // Signals alone are the launcher stopping workers: a symptom, not an interruption.
    f.evidenceOnly = open.specificity <= 1;
    if (e.kind == ConsoleKind::SlurmCancel && e.time) f.time = std::min(f.time, *e.time);
    // A dated line of the burst dates the failure only at its own time: a segfault printed with
    // no time, then torchrun's dated notice half a minute later, is still a time inferred.
    if (!at.inferred && at.time == f.time) f.timeInferred = false;
    if (family == Family::Collective) {
        const std::int32_t rank = e.rank >= 0 ? e.rank : at.rank;
        if (rank >= 0) {
            Counters& c = m_counters[index][rank];
            if (e.lastEnqueued >= 0) c.enqueued = std::max(c.enqueued, e.lastEnqueued);
            else if (e.kind == ConsoleKind::CollectiveTimeout && e.seq >= 0) c.enqueued = std::max(c.enqueued, e.seq);
            if (e.lastCompleted >= 0) c.completed = std::max(c.completed, e.lastCompleted);
        }
    }
    if (created) m_ctx->report.count(family == Family::Collective ? "collective timeouts" : family == Family::Crash ? "crashes" : "scheduler stops");
}

namespace {

// `path` from its package on ("torch/nn/parallel/distributed.py"), else its file name.
std::string shortPath(std::string_view path) {
    for (std::string_view root : {std::string_view("site-packages/"), std::string_view("dist-packages/")})
        if (const std::size_t at = path.rfind(root); at != std::string_view::npos) return std::string(path.substr(at + root.size()));
    return std::string(path.substr(path.find_last_of('/') + 1));
}

// A library's frame: installed packages and Python's own modules, not the job's code.
bool inLibrary(std::string_view path) {
    return has(path, "site-packages/") || has(path, "dist-packages/") || has(path, "/lib/python");
}

// The callable a line of code calls first: "model = DistributedDataParallel(model, ...)" ->
// "DistributedDataParallel", "x = torch.nn.parallel.DDP(m)" -> "DDP".
std::string_view calledIn(std::string_view code) {
    const std::size_t open = code.find('(');
    if (open == std::string_view::npos) return {};
    std::size_t start = open;
    while (start > 0 && (std::isalnum(static_cast<unsigned char>(code[start - 1])) || code[start - 1] == '_')) --start;
    const std::string_view name = code.substr(start, open - start);
    return name.empty() || isDigit(name.front()) ? std::string_view() : name;
}

}  // namespace

void ConsoleFailures::frame(std::string_view text, const LineOrigin& at) {
    auto it = m_tracebacks.find(streamKey(at));
    if (it == m_tracebacks.end()) return;
    // `File "/path/x.py", line 795, in __init__`
    const std::size_t file = text.find("File \"");
    if (file == std::string_view::npos) return;
    const std::size_t close = text.find('"', file + 6);
    if (close == std::string_view::npos) return;
    const std::string_view path = text.substr(file + 6, close - file - 6);
    const std::string_view line = trim(text.substr(close + 1));
    std::string_view number, function;
    if (startsWith(line, ", line ")) number = line.substr(7, line.find(',', 7) - 7);
    if (const std::size_t in = line.find(", in "); in != std::string_view::npos) function = trim(line.substr(in + 5));
    Traceback& t = it->second;
    ++t.frames;
    t.last = std::string(function);
    t.lastAt = shortPath(path) + (number.empty() ? std::string() : ":" + std::string(number));
    if (!t.libraryEntered && inLibrary(path)) {
        // Where the job's code called into a library: what a reader of the job's code knows.
        t.libraryEntered = true;
        t.entry = t.last;
        t.entryAt = t.lastAt;
        t.calledInto = t.called;
    }
    t.called.clear();
}

bool ConsoleFailures::other(std::string_view text, const LineOrigin& at) {
    auto it = m_tracebacks.find(streamKey(at));
    if (it == m_tracebacks.end()) return false;
    if (text.empty() || text.front() == ' ' || text.front() == '\t' || text.front() == '^' || text.front() == '~') {  // frames, code, carets
        if (const std::string_view call = calledIn(text); !call.empty()) it->second.called = std::string(call);
        return true;
    }
    // The exception: "RuntimeError: msg", "torch.distributed.DistBackendError: ...", "KeyboardInterrupt".
    std::size_t i = 0;
    while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_' || text[i] == '.')) ++i;
    if (i == 0 || (i < text.size() && text[i] != ':')) {
        // Something else on the stream: the exception was never printed.
        const Traceback t = it->second;
        m_tracebacks.erase(it);
        cutTraceback(t);
        return false;
    }
    m_tracebacks.erase(it);
    ConsoleEvent e;
    e.kind = ConsoleKind::CppTerminate;  // an uncaught exception ends the process as surely
    e.what = utf8Prefix(trim(text), 300);
    crash(e, text, at);
    return true;
}

void ConsoleFailures::cutTraceback(const Traceback& t) {
    if (t.frames == 0) return;
    const LineOrigin at{t.rank, t.localRank, t.host, t.time, t.inferred, t.file, t.line};
    bool created = false;
    ImportedFailure& f = failureFor(Family::Crash, at, created);
    Open& open = m_open[Family::Crash];
    ConsoleEvent e;
    e.kind = ConsoleKind::Traceback;
    report(f, e, at);
    if (open.specificity < 2) {
        // A worker's exception below any that says its message.
        open.specificity = 2;
        f.cause = RootCause::SoftwareBug;
        // A constructor is named by the class the code called ("DistributedDataParallel.__init__").
        const std::string& function = t.libraryEntered ? t.entry : t.last;
        const std::string& file = t.libraryEntered ? t.entryAt : t.lastAt;
        const bool constructor = t.libraryEntered && function == "__init__" && !t.calledInto.empty();
        f.detail = "Python exception in " + (constructor ? t.calledInto + "." : std::string()) + function + " (" + file + ")" +
                   (t.rank >= 0 ? " on rank " + std::to_string(t.rank) : std::string()) + "; its message is cut" +
                   (file != t.lastAt ? " (last frame: " + t.last + ", " + t.lastAt + ")" : std::string());
    }
    f.evidenceOnly = false;
    if (created) m_ctx->report.count("crashes");
}

void ConsoleFailures::crash(const ConsoleEvent& e, std::string_view text, const LineOrigin& at) {
    bool created = false;
    ImportedFailure& f = failureFor(Family::Crash, at, created);
    Open& open = m_open[Family::Crash];
    report(f, e, at);
    if (3 > open.specificity) {
        open.specificity = 3;
        f.cause = rootCauseForLogLine(text).value_or(RootCause::SoftwareBug);
        f.detail = "Python exception: " + std::string(e.what);
    }
    f.evidenceOnly = false;
    if (created) m_ctx->report.count("crashes");
}

// Every entry of the summary, not only the root cause: its time dates the failure where no
// line did, and its host and local rank place the rank.
void ConsoleFailures::elasticEntry(ImportedFailure& f, const ConsoleEvent& e) {
    if (e.field == "time" && e.time) {
        if (f.timeInferred || *e.time < f.time) {
            f.time = *e.time;
            f.timeInferred = false;
        }
        m_ctx->report.seen(*e.time);
    }
    if (e.field == "host") m_summary.entryHost = std::string(e.host);
    if (e.field == "rank") m_summary.entryRank = e.rank, m_summary.entryLocalRank = e.localRank;
    // "exitcode  : -11 (pid: 223)" after "rank      : 1 (local_rank: 1)": that process was rank 1.
    if (e.field == "exitcode" && e.pid >= 0 && m_summary.entryRank >= 0)
        m_pidRanks[e.pid] = {m_summary.entryHost, m_summary.entryRank, m_summary.entryLocalRank};
    if (e.field == "rank" && e.rank >= 0 && !m_summary.entryHost.empty() && e.localRank >= 0 && e.localRank < kMaxGpusPerNode) {
        m_ctx->events.placements.push_back({e.rank, m_summary.entryHost, e.localRank});
        m_ctx->report.count("rank placements");
    }
}

void ConsoleFailures::elastic(const ConsoleEvent& e, const LineOrigin& at) {
    if (e.field == "header") {
        m_summary = {};
        if (!m_open.count(Family::Crash) || at.time - m_open[Family::Crash].last > 30 * kConsoleBurst) {
            bool created = false;
            ImportedFailure& f = failureFor(Family::Crash, at, created);
            if (m_open[Family::Crash].specificity < 2) {
                m_open[Family::Crash].specificity = 2;
                f.cause = RootCause::SoftwareBug;
                f.detail = "torchrun: " + std::string(e.what);
            }
            if (created) m_ctx->report.count("crashes");
        }
        m_summary.failure = m_open[Family::Crash].failure;
        m_ctx->report.seen(at.time);
        return;
    }
    if (e.field == "root") {
        m_summary.inRoot = true;
        return;
    }
    if (e.field == "failures") {
        m_summary.inRoot = false;
        return;
    }
    if (m_summary.failure == SIZE_MAX) {
        // Fields without the header above them (a cut log): they still name a failed rank.
        bool created = false;
        ImportedFailure& f = failureFor(Family::Crash, at, created);
        if (created) {
            f.cause = RootCause::SoftwareBug;
            f.detail = "torchrun: a worker failed";
            m_ctx->report.count("crashes");
        }
        m_summary.failure = m_open[Family::Crash].failure;
        m_summary.inRoot = true;
    }
    ImportedFailure& f = m_ctx->events.failures[m_summary.failure];
    elasticEntry(f, e);
    if (e.field == "rank" && e.rank >= 0) {
        if (std::find(f.ranks.begin(), f.ranks.end(), e.rank) == f.ranks.end()) f.ranks.push_back(e.rank);
        m_ctx->report.ranks.insert(e.rank);
        if (!m_summary.inRoot) return;
        m_summary.rank = e.rank;
        m_summary.localRank = e.localRank;
    }
    if (!m_summary.inRoot) return;
    if (e.field == "host") m_summary.host = std::string(e.host);
    if (e.field == "exitcode") m_summary.exitCode = e.exitCode;
    if (e.field == "traceback" && e.signal) m_summary.signal = e.signal;
    if (e.field == "time" && e.time) {
        m_summary.time = e.time;
        if (f.timeInferred || *e.time < f.time) {
            f.time = *e.time;
            f.timeInferred = false;
        }
        m_ctx->report.seen(*e.time);
    }
    if (m_summary.rank >= 0) {
        f.suspectRanks = {m_summary.rank};
        f.where.rank = m_summary.rank;
    }
    if (!m_summary.host.empty()) {
        f.where.host = m_summary.host;
        // A local rank is its GPU on the host, where it is one a node can have.
        if (m_summary.localRank < kMaxGpusPerNode) f.where.localGpu = m_summary.localRank;
    }
    const int signal = m_summary.signal ? m_summary.signal : m_summary.exitCode < 0 ? -m_summary.exitCode : 0;
    // torchrun's word alone, and its root cause was killed (SIGKILL): by the OOM killer, the
    // launcher or an operator, which torchrun cannot tell; not a bug of the training code.
    if (signal == 9 && m_open[Family::Crash].specificity <= 2 && f.cause == RootCause::SoftwareBug) f.cause = RootCause::Unknown;
    std::string root = "torchrun's root cause: rank " + (m_summary.rank >= 0 ? std::to_string(m_summary.rank) : std::string("?")) +
                       (m_summary.host.empty() ? std::string() : " on " + m_summary.host) +
                       (m_summary.exitCode != 0 ? ", exit code " + std::to_string(m_summary.exitCode) : std::string()) +
                       (signal && !signalName(signal).empty() ? " (" + std::string(signalName(signal)) + ")" : std::string()) +
                       (m_summary.time ? " at " + formatEpochNs(*m_summary.time) : std::string());
    const std::size_t mark = f.detail.find("; torchrun's root cause:");
    f.detail = (mark == std::string::npos ? f.detail : f.detail.substr(0, mark)) + "; " + root;
}

void ConsoleFailures::placeOnFirstProcess(std::size_t failure, ImportedFailure& f) const {
    const auto first = m_firstProcess.find(failure);
    if (first == m_firstProcess.end()) return;
    const Process& p = first->second;
    const std::string process = "pid " + std::to_string(p.pid) + (p.localRank >= 0 ? " (local rank " + std::to_string(p.localRank) + ")" : std::string()) +
                                (p.host.empty() ? std::string() : " on " + p.host);
    const auto known = m_pidRanks.find(p.pid);
    if (known != m_pidRanks.end() && (p.host.empty() || known->second.host.empty() || known->second.host == p.host)) {
        const ProcessRank& r = known->second;
        f.where.rank = r.rank;
        f.where.host = r.host.empty() ? p.host : r.host;
        f.where.localGpu = r.localRank >= 0 && r.localRank < kMaxGpusPerNode ? r.localRank : -1;
        f.detail += "; first to fail: " + process + ", rank " + std::to_string(r.rank) +
                    (r.localRank >= 0 && p.localRank < 0 ? " (local rank " + std::to_string(r.localRank) + ")" : std::string());
        return;
    }
    // No line gives the process's rank: its host alone, never another rank's GPU in its place.
    f.where = {};
    f.where.host = p.host;
    if (!p.host.empty() && p.localRank < kMaxGpusPerNode) f.where.localGpu = p.localRank;  // a local rank is its GPU on the host
    f.detail += "; first to fail: " + process + ", rank unknown (no line gives its rank)";
}

void ConsoleFailures::shift(EpochNs by) {
    for (auto& [family, open] : m_open) open.last += by;
    for (auto& [key, t] : m_tracebacks) t.time += by;
}

void ConsoleFailures::finish() {
    for (const auto& [key, t] : m_tracebacks) cutTraceback(t);
    m_tracebacks.clear();
    for (std::size_t i = 0; i < m_ctx->events.failures.size(); ++i) {
        ImportedFailure& f = m_ctx->events.failures[i];
        if (f.job.empty() && f.hosts.empty() && f.cause == RootCause::NcclWatchdogTimeout) {
            std::set<std::int32_t> reporters(f.ranks.begin(), f.ranks.end());
            std::set<std::int32_t> suspects;
            std::string why;
            // Ranks of the group that said nothing: the one a collective waits for is often the
            // one that never got there. Only when most of the group reported, or it says little.
            const std::int32_t world = m_world;
            f.world = world;
            if (world > 0 && !reporters.empty() && static_cast<std::int32_t>(reporters.size()) < world &&
                static_cast<std::int32_t>(reporters.size()) * 2 >= world) {
                std::vector<std::int32_t> silent;
                for (std::int32_t r = 0; r < world; ++r)
                    if (!reporters.count(r)) silent.push_back(r);
                suspects.insert(silent.begin(), silent.end());
                why = "did not report";
            }
            // Ranks whose work counters lag the others' are behind.
            if (auto c = m_counters.find(i); c != m_counters.end() && c->second.size() > 1) {
                std::int64_t maxEnq = -1, maxDone = -1;
                for (const auto& [rank, n] : c->second) maxEnq = std::max(maxEnq, n.enqueued), maxDone = std::max(maxDone, n.completed);
                std::vector<std::int32_t> behind;
                for (const auto& [rank, n] : c->second)
                    if ((n.enqueued >= 0 && n.enqueued < maxEnq) || (n.completed >= 0 && n.completed < maxDone)) behind.push_back(rank);
                if (!behind.empty() && behind.size() < c->second.size()) {
                    suspects.insert(behind.begin(), behind.end());
                    why += std::string(why.empty() ? "" : "; ") + "rank(s) " + rankRanges(behind) + " behind (last enqueued/completed work " +
                           "lower than the others')";
                }
            }
            f.suspectRanks.assign(suspects.begin(), suspects.end());
            std::string who = "; reported by " + std::to_string(reporters.size()) + " rank(s)" +
                              (reporters.empty() ? std::string() : " (" + rankRanges(f.ranks) + ")") +
                              (world > 0 ? " of " + std::to_string(world) : std::string());
            if (!suspects.empty()) who += "; suspect rank(s) " + rankRanges(f.suspectRanks) + " (" + why + ")";
            f.detail += who;
        } else if (f.suspectRanks.empty() && !f.ranks.empty() && f.job.empty() && f.hosts.empty()) {
            // A crash: the first rank to report it, unless torchrun's summary said otherwise.
            if (auto first = m_firstReporter.find(i); first != m_firstReporter.end()) f.suspectRanks = {first->second};
            if (f.ranks.size() > 1) f.detail += "; reported by " + std::to_string(f.ranks.size()) + " ranks (" + rankRanges(f.ranks) + ")";
        }
        placeOnFirstProcess(i, f);
        if (f.yearAssumed) f.detail += kYearAssumedNote;
        if (f.timeInferred) f.detail += kTimeInferredNote;
    }
}

}  // namespace faultline
