#include "importers/console/console_catalogue.h"

#include <array>
#include <cstring>
#include <memory>
#include <vector>

namespace faultline {

namespace {

struct Entry {
    ConsoleKind kind;
    std::string_view name;
    std::vector<std::string_view> phrases;  // any one of them makes the line a candidate
};

const std::vector<Entry>& entries() {
    // In ConsoleKind order. Phrases are short and distinctive: they only nominate a line, the
    // kind's parser decides.
    static const std::vector<Entry> kEntries = {
        {ConsoleKind::CollectiveTimeout, "nccl-timeout", {"ollective operation timeout"}},
        {ConsoleKind::WatchdogException, "watchdog-exception", {"detected by watchdog"}},
        {ConsoleKind::NcclWorkCounters, "nccl-work-counters", {"last completed NCCL work", "last enqueued NCCL work"}},
        {ConsoleKind::HeartbeatTimeout, "heartbeat-timeout", {"Heartbeat monitor timed out", "watchdog got stuck", "watchdog thread got stuck"}},
        {ConsoleKind::NcclAbort, "nccl-abort", {"ncclCommAbort", "NCCL operations have failed or timed out", "taking the entire process down",
                                                "watchdog thread terminated with exception", "Aborting NCCL comm", "Aborting communicators"}},
        {ConsoleKind::NcclError, "nccl-error", {"NCCL WARN", "Got completion with error", "ncclRemoteError", "ncclSystemError", "ncclInternalError",
                                                "ncclUnhandledCudaError", "ncclInvalidUsage", "NCCL error", "NCCL Error", "remote process exited",
                                                "Connection closed by", "socket closed", "Connection reset by peer"}},
        {ConsoleKind::CudaOom, "cuda-oom", {"CUDA out of memory", "OutOfMemoryError", "CUDA error: out of memory"}},
        {ConsoleKind::CppTerminate, "terminate", {"terminate called after throwing"}},
        {ConsoleKind::CudaError, "cuda-error", {"CUDA error", "cudaError", "CUDA_ERROR_", "device-side assert", "illegal memory access",
                                                "ECC error", "unspecified launch failure", "CUBLAS_STATUS_", "CUDNN_STATUS_", "CUDA kernel errors"}},
        {ConsoleKind::HostOom, "host-oom", {"oom-kill", "oom_kill", "Out of memory: Kill", "MemoryError", "Cannot allocate memory"}},
        {ConsoleKind::ProcessCrash, "crash", {"segfault at ", "Segmentation fault", "SIGSEGV", "Fatal Python error", "general protection fault",
                                             "core dumped", "Bus error", "SIGBUS", "SIGABRT", "Illegal instruction", "SIGILL"}},
        {ConsoleKind::ElasticFailure, "elastic-failure", {"failed (exitcode:"}},
        {ConsoleKind::LauncherExit, "launcher-exit", {"exits with return code", "ssh exited with exit code", "exited on signal", "noticed that process rank"}},
        {ConsoleKind::ElasticSummary, "elastic-summary", {"ChildFailedError", "Root Cause (first observed failure)", "exitcode  :", "rank      :",
                                                         "host      :", "time      :", "error_file:", "traceback :", "<NO_OTHER_FAILURES>", "Failures:"}},
        {ConsoleKind::WorkerGroupRestart, "worker-group-restart", {"will restart worker group", "Joining cluster restart", "Worker group FAILED"}},
        {ConsoleKind::SlurmCancel, "slurm-cancel", {"CANCELLED AT"}},
        {ConsoleKind::SlurmNodeFailure, "slurm-node-failure", {"Node failure on"}},
        {ConsoleKind::SlurmTaskExit, "slurm-task-exit", {"srun: error:", "slurmstepd: error:"}},
        {ConsoleKind::SlurmStepAborted, "slurm-step-aborted", {"Job step aborted", "forcing job termination", "Terminating StepId", "Terminating job step"}},
        {ConsoleKind::Signal, "signal", {"death signal", "SIGTERM", "SIGKILL", "SIGINT", "Killing subprocess", "SignalException", "closing signal"}},
        {ConsoleKind::Traceback, "traceback", {"Traceback (most recent call last)", "During handling of the above exception", "The above exception was the direct cause"}},
        {ConsoleKind::StackFrame, "stack-frame", {"  File \"", "frame #", "Exception raised from", "what():"}},
        {ConsoleKind::Step, "step", {"elapsed time per iteration", "iteration:", "step:", "step=", "steps:", "{'loss'", "it/s]", "s/it]", "it/s,", "s/it,"}},
        {ConsoleKind::CheckpointTimer, "checkpoint-timer", {"-checkpoint"}},
        {ConsoleKind::Checkpoint, "checkpoint", {"heckpoint", "ckpt", "saving model to", "'func_name'"}},
        {ConsoleKind::CommInit, "nccl-comm-init", {" NCCL INFO comm 0x"}},
        {ConsoleKind::JobShape, "job-shape", {"SLURM_", "WORLD_SIZE", "world size", "world_size", "nproc_per_node", "parallel size", "parallel-size", "--nnodes"}},
        {ConsoleKind::NcclInfo, "nccl-info", {"NCCL INFO", "NCCL version"}},
    };
    return kEntries;
}

// One pass over a line for every phrase: the phrases are bucketed by their first two bytes,
// so each position of the line costs one table look-up (a few hundred ns a line, where a
// search per phrase would cost microseconds).
class PhraseTable {
public:
    PhraseTable() {
        m_bucket = std::make_unique<std::array<std::uint16_t, 65536>>();
        m_bucket->fill(0);
        std::vector<std::vector<Phrase>> lists(1);
        for (const Entry& e : entries())
            for (std::string_view p : e.phrases) {
                const std::uint16_t key = keyOf(p[0], p[1]);
                m_present[key >> 6] |= std::uint64_t{1} << (key & 63);
                std::uint16_t& b = (*m_bucket)[key];
                if (b == 0) {
                    b = static_cast<std::uint16_t>(lists.size());
                    lists.emplace_back();
                }
                lists[b].push_back({p, load4(p.data()), static_cast<std::uint8_t>(e.kind)});
            }
        m_lists = std::move(lists);
    }

    ConsoleKinds match(std::string_view s) const {
        ConsoleKinds out;
        if (s.size() < 2) return out;
        const auto& bucket = *m_bucket;
        for (std::size_t i = 0; i + 1 < s.size(); ++i) {
            const std::uint16_t key = keyOf(s[i], s[i + 1]);
            if (!(m_present[key >> 6] & (std::uint64_t{1} << (key & 63)))) continue;
            const std::uint16_t b = bucket[key];
            // Two bytes are often shared ("he", "  "): four bytes reject almost every other start.
            const std::uint32_t head = i + 4 <= s.size() ? load4(s.data() + i) : 0;
            for (const Phrase& p : m_lists[b])
                if (p.head == head && s.compare(i, p.text.size(), p.text) == 0) out.set(p.kind);
        }
        return out;
    }

private:
    struct Phrase {
        std::string_view text;  // at least four bytes
        std::uint32_t head;     // its first four
        std::uint8_t kind;
    };
    static std::uint32_t load4(const char* p) {
        std::uint32_t v;
        std::memcpy(&v, p, 4);
        return v;
    }
    static std::uint16_t keyOf(char a, char b) {
        return static_cast<std::uint16_t>(static_cast<unsigned char>(a) | (static_cast<unsigned char>(b) << 8));
    }
    // Which byte pairs start a phrase: 8 KB that stay in the L1 cache, where the 128 KB of
    // buckets do not, and most pairs of a line start none.
    std::array<std::uint64_t, 1024> m_present{};
    std::unique_ptr<std::array<std::uint16_t, 65536>> m_bucket;
    std::vector<std::vector<Phrase>> m_lists;
};

const PhraseTable& phraseTable() {
    static const PhraseTable kTable;
    return kTable;
}

}  // namespace

std::string_view consoleKindName(ConsoleKind kind) {
    for (const Entry& e : entries())
        if (e.kind == kind) return e.name;
    return "unknown";
}

std::optional<ConsoleKind> consoleKindFromName(std::string_view name) {
    for (const Entry& e : entries())
        if (e.name == name) return e.kind;
    return std::nullopt;
}

bool isFailureKind(ConsoleKind kind) {
    return kind < ConsoleKind::Traceback && kind != ConsoleKind::ElasticSummary && kind != ConsoleKind::WorkerGroupRestart;
}

ConsoleKinds matchConsoleKinds(std::string_view text) { return phraseTable().match(text); }

std::optional<ConsoleEvent> recogniseConsoleLine(std::string_view text) {
    const ConsoleKinds kinds = matchConsoleKinds(text);
    if (kinds.none()) return std::nullopt;
    for (std::size_t k = 0; k < kConsoleKindCount; ++k)
        if (kinds.test(k))
            if (auto e = parseConsoleEvent(static_cast<ConsoleKind>(k), text)) return e;
    return std::nullopt;
}

}  // namespace faultline
