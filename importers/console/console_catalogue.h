#pragma once
// The one catalogue of what a job's console line can say, whatever framework printed it.
// A line (its wrappers peeled, see console_line.h) is looked up once for every entry's
// phrases in one pass (matchConsoleKinds); the entries it names are then parsed in the
// order of ConsoleKind, most specific first, and the first that parses is what the line is.
// docs/formats.md lists each entry with the lines it reads.
#include "importers/events/imported_events.h"

#include <bitset>
#include <optional>
#include <string_view>

namespace faultline {

enum class ConsoleKind : std::uint8_t {
    // The launcher and the scheduler: first, as their lines quote the errors below.
    ElasticSummary,      // "ChildFailedError", "Root Cause (first observed failure):", "  rank      : 3 (local_rank: 3)"
    ElasticFailure,      // torch elastic: "failed (exitcode: -6) local_rank: 3 (pid: 1234) of binary: /usr/bin/python"
    LauncherExit,        // DeepSpeed "[launch.py:325:sigkill_handler] [...'--local_rank=1'] exits with return code = -9",
                         // pdsh "pdsh@login1: node3: ssh exited with exit code 137", mpirun "... exited on signal 9 (Killed)"
    WorkerGroupRestart,  // "Worker group FAILED. 2/3 attempts left; will restart worker group", "Joining cluster restart"
    SlurmCancel,         // "slurmstepd: error: *** JOB 123 ON n1 CANCELLED AT 2021-05-23T08:29:53 DUE TO TIME LIMIT ***"
    SlurmNodeFailure,    // "srun: error: Node failure on jean-zay-iam37"
    SlurmTaskExit,       // "srun: error: node7: task 12: Killed", "srun: error: node7: tasks 0-7: Exited with exit code 1"
    SlurmStepAborted,    // "srun: Job step aborted: Waiting up to 62 seconds for job step to finish."
    // A collective that did not finish, and what the watchdog says about it.
    CollectiveTimeout,   // "[Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=..."
    WatchdogException,   // "Exception (either an error or timeout) detected by watchdog at work: 12, last enqueued ..."
    NcclWorkCounters,    // "Timeout at NCCL work: 12, last enqueued NCCL work: 12, last completed NCCL work: 11."
    HeartbeatTimeout,    // "Heartbeat monitor timed out!", "ProcessGroupNCCL's watchdog got stuck for 480 seconds"
    NcclAbort,           // "ncclCommAbort", "Some NCCL operations have failed or timed out", "taking the entire process down"
    // The process or its GPU failed.
    CudaOom,             // "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has ..."
    CppTerminate,        // "terminate called after throwing an instance of 'c10::CUDAError'"
    CudaError,           // "CUDA error: an illegal memory access was encountered", ECC, launch failure, device-side assert
    HostOom,             // "Out of memory: Killed process 1234 (python)", "invoked oom-killer", Slurm's "oom_kill event"
    NcclError,           // "NCCL WARN ...", "NET/IB : Got completion with error", "ncclRemoteError", "remote process exited"
    ProcessCrash,        // "python[1234]: segfault at 0 ip ... in libnccl.so.2", "Segmentation fault (core dumped)"
    Signal,              // "Received 15 death signal, shutting down workers", "Main process received SIGTERM, exiting"
    Traceback,           // "Traceback (most recent call last):" and the chained-exception headers
    StackFrame,          // a traceback's or c10's frames: "  File \"x.py\", line 3, in f", "frame #0: ...", hints
    // Progress and what describes the job.
    Step,                // Megatron, DeepSpeed, torchtitan, m4, HF Trainer / LlamaFactory, Lightning, NeMo
    CheckpointTimer,     // Megatron "time (ms) | save-checkpoint: 1234.5"
    Checkpoint,          // save and load lines of Megatron, DeepSpeed, torchtitan, DCP, NVRx, HF, Lightning, NeMo
    CommInit,            // "node01:2345:2400 [3] NCCL INFO comm 0x55c4 rank 11 nranks 16 ..."
    JobShape,            // SLURM_* variables, WORLD_SIZE, "using world size:", torchrun's banner, --world-size
    NcclInfo,            // any other "NCCL INFO" line
    Count
};
inline constexpr std::size_t kConsoleKindCount = static_cast<std::size_t>(ConsoleKind::Count);
using ConsoleKinds = std::bitset<kConsoleKindCount>;

// "nccl-timeout", "cuda-oom", ...: the name reports, tests and fixtures use.
std::string_view consoleKindName(ConsoleKind kind);
std::optional<ConsoleKind> consoleKindFromName(std::string_view name);
// Kinds that show a job failed or was stopped (not progress or description).
bool isFailureKind(ConsoleKind kind);

// The entries whose phrases occur in `text`: one pass over the line.
ConsoleKinds matchConsoleKinds(std::string_view text);

// What a line of one kind says. Only the fields its kind has are set.
struct ConsoleEvent {
    ConsoleKind kind = ConsoleKind::Count;
    std::int32_t rank = -1;            // a rank the text names ("[Rank 3]", "task 3", "rank      : 3")
    std::string_view host;             // a host the text names ("ON r6i5n1", "Node failure on x")
    std::int64_t seq = -1;             // the collective's sequence number (SeqNum=, "at work: N")
    std::int64_t lastEnqueued = -1, lastCompleted = -1;
    std::int64_t numel = -1;
    std::int64_t timeoutMs = 0;
    std::string_view op;               // "ALLREDUCE"
    std::string_view group;            // "0(default_pg)", "PG ID 3"
    std::string_view what;             // the message worth showing (the exception, the error)
    std::string_view field, value;     // a field of torch elastic's failure summary
    std::int32_t exitCode = 0;         // a process's exit code (negative: killed by that signal)
    std::int32_t signal = 0;
    std::int32_t localRank = -1;
    std::int64_t pid = -1;             // the process the text names (UCX's "[host:pid:tid]", elastic's "(pid: 227)")
    std::int32_t device = -1;          // a CUDA device the text names ("GPU 0 has ...")
    std::int32_t world = 0;            // a world size the text states
    bool malformed = false;            // names its kind but cannot be read (kept to say so)
    std::string_view job;              // Slurm's job (or step) id
    std::string_view reason;           // "DUE TO TIME LIMIT"
    bool step = false;                 // a Slurm step, not the job
    std::int64_t stepNumber = -1;      // a progress line's step; -1 when it has none
    double stepSeconds = -1;           // the time per step a progress line states
    std::optional<EpochNs> time;       // a time the text states (Slurm's "CANCELLED AT ...")
};

// Parses `text` as `kind`; nullopt when the line only mentions its phrase.
std::optional<ConsoleEvent> parseConsoleEvent(ConsoleKind kind, std::string_view text);

// The first kind of `candidates` (in ConsoleKind order) that parses, and its event.
std::optional<ConsoleEvent> recogniseConsoleLine(std::string_view text);

}  // namespace faultline
