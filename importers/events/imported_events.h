#pragma once
// What the importers read, before it is placed on a topology: every time is absolute (Unix
// epoch nanoseconds, UTC) and every place is named the way the file names it (a host name,
// a PCI bus id, a rank). The run builder turns these into a Run.
#include "model/flight_recorder.h"
#include "model/root_cause.h"
#include "model/run.h"
#include "importers/events/epoch.h"
#include "importers/events/imported_link_counters.h"
#include "importers/events/telemetry_accumulator.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace faultline {

// Ranks beyond this are not a job anyone runs; a bigger number in a file is corruption.
inline constexpr std::int64_t kMaxRank = 10'000'000;
// No node holds more GPUs than this; a bigger local index is a misread number, and laying
// out a host of it would take gigabytes.
inline constexpr std::int32_t kMaxGpusPerNode = 64;
// A host's GPUs where no file says how many: an HGX baseboard's eight.
inline constexpr std::int32_t kGpusPerHost = 8;

// Where something happened, as much as the file says: any of host + PCI bus id, host +
// local GPU index, or a rank.
struct GpuLocator {
    std::string host;
    std::string pciBusId;  // normalised "0000:38:00"; empty when unknown
    std::int32_t localGpu = -1;
    std::int32_t rank = -1;
};

// The launcher restarted the job's workers without leaving the job: torchrun's and NVIDIA
// Resiliency Extension ft_launcher's "[default] Worker group FAILED. 2/3 attempts left; will
// restart worker group". A downtime inside the job.
struct InJobRestart {
    EpochNs time = 0;
    std::string detail;  // the launcher's line
    std::string source;  // file:line
};

struct ImportedFailure {
    EpochNs time = 0;
    bool sinceBoot = false;  // raw /dev/kmsg: `time` counts from the host's boot, not the epoch
    RootCause cause = RootCause::Unknown;
    std::int32_t xid = 0;
    GpuLocator where;
    // The cable it names (a port counter's rise); `where.host` is then the host of its near end.
    std::optional<LinkLocator> link;
    std::vector<std::string> hosts;  // a job failure takes out these hosts (sacct NodeList)
    std::vector<std::int32_t> ranks;  // ranks that reported it (NCCL watchdog timeouts, every rank's copy of an error)
    // The ranks it points at: those of a timed-out collective's group that did not report it or
    // whose counters show them behind; a crash's root-cause rank (torchrun's summary, or the
    // first to report). Empty when the evidence names none.
    std::vector<std::int32_t> suspectRanks;
    std::int32_t world = 0;  // the ranks of the job (or group) the reporters were judged against; 0: unknown
    // The line had no time of its own: it took the last time seen before it (or the first after).
    bool timeInferred = false;
    bool yearAssumed = false;  // its time's year is not printed: the import took one (YearResolver)
    std::string detail;
    std::string job;  // sacct: the Slurm job whose end state this is; a chain's jobs say it themselves
    // Says why a job ended, but is no interruption on its own (a process's segfault: the
    // job may have been torn down already, or the process was not the training's).
    bool evidenceOnly = false;
    // Where it was read ("node07.dmesg:12"): an incident names its evidence.
    std::string source;
};

struct ImportedCollective {
    std::int32_t rank = 0;
    std::string group;                 // process group name as the file spells it
    std::vector<std::int32_t> groupRanks;
    std::string op;                    // "allreduce", "all_gather", ...
    std::string dtype;
    EpochNs enter = 0;
    EpochNs exit = 0;
    std::int64_t bytes = 0;
    std::int64_t seq = -1;             // the file's own sequence number, -1 when it has none
};

struct ImportedStep {
    std::int32_t rank = -1;
    std::int64_t step = 0;
    EpochNs end = 0;
    Nanos duration = 0;
};

struct ImportedCheckpoint {
    EpochNs begin = 0;
    EpochNs end = 0;
    std::int64_t step = 0;
    CheckpointKind kind = CheckpointKind::Save;
    std::int64_t bytes = 0;  // 0 when the log does not say
};

// A Slurm job as sacct reports it, or as a training log's banner (SLURM_JOB_ID=...) names it.
struct ImportedJob {
    std::string id;
    std::string parentId;  // a step ("123.0", "123.batch"): its job's id; empty for a job
    std::string name;
    std::string state;  // first word of sacct's State: COMPLETED, FAILED, NODE_FAIL, ...
    std::string stateText;  // the whole State ("CANCELLED by 0")
    std::string exitCode;   // "1:0"
    std::string reason;
    std::int32_t restarts = 0;
    std::int32_t gpus = 0;  // allocated GPUs (AllocTRES gres/gpu=N); 0 when unknown
    std::vector<std::string> nodes;
    // The node its batch script ran on, the first of its allocation, where only a log names
    // it (slurmstepd's "*** JOB 123 ON n1 CANCELLED ..."): rank 0's node.
    std::string batchHost;
    // The jobs its submission waited for (`sbatch --dependency=afterok:123`, from sacct's
    // SubmitLine): a job that depends on one of the run's jobs continues the run.
    std::vector<std::string> dependsOn;
    EpochNs submit = 0;
    EpochNs start = 0;
    EpochNs end = 0;  // 0 while still running
    bool fromLog = false;  // only a training log names it: no state or end is known
    EpochNs firstLogLine = 0;  // its training log's first dated line: the first sign of life
};

// Where a rank ran, when a file says so.
struct RankPlacement {
    std::int32_t rank = 0;
    std::string host;
    std::int32_t localGpu = -1;
};

struct ImportedEvents {
    std::vector<ImportedFailure> failures;
    std::vector<ImportedCollective> collectives;
    // Flight Recorder dumps, whole: their entries become collectives (flight_recorder_collectives.h)
    // and together they say who hung the job.
    std::vector<FlightRecorderDump> flightRecorderDumps;
    std::vector<ImportedStep> steps;
    std::vector<ImportedCheckpoint> checkpoints;
    std::vector<ImportedJob> jobs;
    std::vector<RankPlacement> placements;
    std::vector<InJobRestart> inJobRestarts;
    std::int32_t worldSize = 0;  // the largest world size any file states
    // Parallel sizes a training log printed ("tensor-model-parallel size: 8"); 0 when unsaid.
    std::int32_t tensorParallel = 0, pipelineParallel = 0, dataParallel = 0;
    std::int32_t gpusPerNode = 0;    // SLURM_GPUS_ON_NODE, torchrun's --nproc_per_node
    std::vector<std::string> rankHosts;  // the job's nodes in rank order (SLURM_JOB_NODELIST)
    // GPUs a host's kernel log enumerated at boot ("pci 0000:18:00.0: [10de:2330] ... class
    // 0x030200"): (host, bus id as "0000:18:00"); with all of them the bus order is exact.
    std::vector<std::pair<std::string, std::string>> gpuBusIds;
    std::optional<Topology> topology;  // from a topology file, when one was imported
    ImportedTelemetry telemetry;       // GPU metrics (DCGM, Prometheus, nvidia-smi), summarised as read
    ImportedLinkCounters linkCounters;  // InfiniBand link-down counters: cables that failed
    std::string topologySource;
};

}  // namespace faultline
