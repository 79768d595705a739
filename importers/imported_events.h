#pragma once
// What the importers read, before it is placed on a topology: every time is absolute (Unix
// epoch nanoseconds, UTC) and every place is named the way the file names it (a host name,
// a PCI bus id, a rank). The run builder turns these into a Run.
#include "model/root_cause.h"
#include "model/run.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace faultline {

using EpochNs = std::int64_t;

// Ranks beyond this are not a job anyone runs; a bigger number in a file is corruption.
inline constexpr std::int64_t kMaxRank = 10'000'000;

// Where something happened, as much as the file says: any of host + PCI bus id, host +
// local GPU index, or a rank.
struct GpuLocator {
    std::string host;
    std::string pciBusId;  // normalised "0000:38:00"; empty when unknown
    std::int32_t localGpu = -1;
    std::int32_t rank = -1;
};

struct ImportedFailure {
    EpochNs time = 0;
    bool sinceBoot = false;  // raw /dev/kmsg: `time` counts from the host's boot, not the epoch
    RootCause cause = RootCause::Unknown;
    std::int32_t xid = 0;
    GpuLocator where;
    std::vector<std::string> hosts;  // a job failure takes out these hosts (sacct NodeList)
    std::vector<std::int32_t> ranks;  // ranks that reported it (NCCL watchdog timeouts)
    std::string detail;
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
};

// A Slurm job as sacct reports it.
struct ImportedJob {
    std::string id;
    std::string name;
    std::string state;  // first word of sacct's State: COMPLETED, FAILED, NODE_FAIL, ...
    std::vector<std::string> nodes;
    EpochNs start = 0;
    EpochNs end = 0;  // 0 while still running
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
    std::vector<ImportedStep> steps;
    std::vector<ImportedCheckpoint> checkpoints;
    std::vector<ImportedJob> jobs;
    std::vector<RankPlacement> placements;
    std::int32_t worldSize = 0;  // the largest world size any file states
    std::optional<Topology> topology;  // from a topology file, when one was imported
    std::string topologySource;
};

}  // namespace faultline
