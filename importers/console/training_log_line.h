#pragma once
// Recognisers for the lines of training logs that matter to a run: Megatron-LM iteration
// and checkpoint lines, torchtitan step and checkpoint lines, PyTorch's NCCL watchdog
// timeout, and slurmstepd's cancellation notice. Each returns nullopt for other lines.
#include "importers/events/imported_events.h"

#include <optional>
#include <string>
#include <string_view>

namespace faultline {

// The first "YYYY-MM-DD HH:MM:SS[,.]frac" (or with 'T') in the line: the time tools prefix
// their lines with ("[2024-05-01 10:00:00]", "[titan] 2025-10-30 14:32:58,897 - root",
// Megatron's "datetime: 2021-05-23 08:23:57"). Taken as UTC.
std::optional<EpochNs> timeInLine(std::string_view line);

// glog's "E1022 13:45:01.123456" prefix (PyTorch C++ warnings): month, day and time.
std::optional<EpochNs> glogTime(std::string_view line, int year);

struct MegatronIteration {
    std::int64_t iteration = 0;
    double elapsedMs = 0;  // "elapsed time per iteration (ms)": the mean over the log interval
};
// " iteration      200/    1000 | consumed samples: ... | elapsed time per iteration (ms): 1617.2 | ..."
// Throws nothing; a line that names the field but cannot be read gives `bad`.
std::optional<MegatronIteration> parseMegatronIteration(std::string_view line, bool& bad);

enum class CheckpointEvent : std::uint8_t { SaveBegin, SaveEnd, LoadBegin, LoadEnd, SaveFailed, LoadFailed };
struct CheckpointLine {
    CheckpointEvent event = CheckpointEvent::SaveBegin;
    std::int64_t step = -1;      // -1 when the line does not say
    double seconds = -1;         // how long it took, when the line says (torchtitan, DCP)
    std::int64_t bytes = 0;      // its size, when the line says ("(812.5 GB)", "size 3.2 TiB")
    EpochNs at = 0;              // the time the line's own text states (DCP's 'time': ns); 0: none
};
// Recognised, each by a phrase (see kCheckpointPhrases in the .cpp):
// Megatron: "saving checkpoint at iteration N to PATH", "successfully saved checkpoint at/from
// iteration N", "loading checkpoint from PATH at iteration N", "successfully loaded checkpoint
// from PATH ... at iteration N"; its async save: "scheduled an async checkpoint save at
// iteration N to PATH" begins it, the "successfully saved checkpoint" its finalisation prints
// ends it. torchtitan: "Saving the checkpoint", "Saving a full checkpoint at step N",
// "Finished saving the checkpoint ... in X seconds", "Loading the checkpoint at step N",
// "Finished loading the checkpoint in X seconds".
// PyTorch Distributed Checkpoint's background save process (async_save): "Received async
// checkpoint request with id=PATH", "Completed checkpoint save request for checkpoint_id=...",
// "Checkpoint save failed for checkpoint_id=PATH: ..."; its method logger's event dicts
// "{'checkpoint_id': 'PATH', ..., 'func_name': 'save', ..., 'event': 'start', 'time': NS}".
// NVIDIA Resiliency Extension's async checkpointing (debug lines): "rank: R, takes X to
// schedule async ckpt" begins a save, "finalize took Xs" is its finalisation.
// The step of lines without an iteration comes from the checkpoint's path ("step-1500",
// "iter_0001500"), else it is -1.
std::optional<CheckpointLine> parseCheckpointLine(std::string_view line);

// The step a checkpoint directory names: ".../step-1500", "iter_0001500", "global_step1500",
// "checkpoint-1500", "epoch=0-step=1500.ckpt"; -1 when none.
std::int64_t stepInCheckpointPath(std::string_view path);

// "812.5 GB", "3.2 TiB", "1048576 bytes" anywhere in the line -> bytes; 0 when none.
std::int64_t sizeInLine(std::string_view line);

// Megatron's timer lines: "time (ms) | save-checkpoint: 1234.5" or
// "    save-checkpoint ....: (1234.5, 1240.1)" -> milliseconds (the max when a range).
std::optional<double> parseCheckpointTimer(std::string_view line, bool& isSave);

// The rank a launcher's prefix names: torchrun's "[rank3]:" (global rank, PyTorch 2.2 on, also
// "[rank3]:[titan] ...") and "[default3]:" (--tee: local rank 3 of the node's agent, role
// "default"). `local` tells which. nullopt for lines without such a prefix.
struct RankPrefix {
    std::int32_t rank = 0;
    bool local = false;
};
std::optional<RankPrefix> rankPrefix(std::string_view line);

// NCCL's communicator init line (NCCL_DEBUG=INFO), which names the host a rank ran on:
// "node01:2345:2400 [3] NCCL INFO comm 0x55c4 rank 11 nranks 16 cudaDev 3 nvmlDev 3 busId
// 3d000 commId 0x1c6d - Init COMPLETE" (NCCL 2.1x) or "... [3] NCCL INFO comm 0x55c4 rank 11
// nRanks 16 nNodes 2 localRanks 8 localRank 3 MNNVL 0" (2.19 on), after any launcher prefix
// ("[default3]:", "[1,3]<stdout>:"). `rank` is the rank in that communicator: only a
// communicator of the whole world gives global ranks.
struct NcclCommInit {
    std::string host;
    std::int32_t rank = 0;
    std::int32_t ranks = 0;      // the communicator's size
    std::int32_t device = -1;    // the CUDA device in brackets (the local GPU)
    std::string pciBusId;        // "0000:3d:00" (the kernel's spelling, no function) from busId, when given
};
std::optional<NcclCommInit> parseNcclCommInit(std::string_view line);

// The launcher restarting the workers in the job (torchrun, NVRx ft_launcher): "[default]
// Worker group FAILED. 2/3 attempts left; will restart worker group" -> the text from "Worker
// group" on; ft_launcher on the healthy nodes: "[default] Joining cluster restart
// (group_rank=1)" -> the text from "Joining" on.
std::optional<std::string_view> parseWorkerGroupRestart(std::string_view line);

// torchtitan: "... - root - INFO - step:  1  loss: ..." or "step: 640/644 = 99.37%  loss: ...".
std::optional<std::int64_t> parseTitanStep(std::string_view line);

struct WatchdogTimeout {
    std::int32_t rank = -1;
    std::int64_t seq = -1;
    std::string op;
    std::int64_t timeoutMs = 0;
};
// "[Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=10240,
// OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600051 milliseconds"
std::optional<WatchdogTimeout> parseWatchdogTimeout(std::string_view line);

struct SlurmCancel {
    std::string job;
    std::string host;
    EpochNs time = 0;
    std::string reason;  // "DUE TO TIME LIMIT", "DUE TO NODE FAILURE", or empty
};
// "slurmstepd: error: *** JOB 1809562 ON r6i5n1 CANCELLED AT 2021-05-23T08:29:53 ***"
std::optional<SlurmCancel> parseSlurmCancel(std::string_view line);

}  // namespace faultline
