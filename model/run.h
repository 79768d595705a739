#pragma once
// A run: the cluster it trained on and what happened over time. Every time is Nanos since
// the run's start; events are kept sorted by time so that any instant is a binary search.
#include "hang.h"
#include "job_shape.h"
#include "root_cause.h"
#include "telemetry.h"
#include "time.h"
#include "topology.h"
#include "uninitialised_allocator.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace faultline {

struct RunInfo {
    std::string name;
    std::int64_t startEpochNs = 0;  // absolute start, Unix epoch nanoseconds (UTC)
    Nanos duration = 0;
    std::string source;             // what made it: "simulator llama3-405b seed 1", "import"
};

enum class ComponentKind : std::uint8_t { None, Gpu, Host, Nic, Switch, Link };

struct ComponentRef {
    ComponentKind kind = ComponentKind::None;
    std::int32_t index = -1;
    bool operator==(const ComponentRef&) const = default;
};

struct Failure {
    Nanos time = 0;
    RootCause cause = RootCause::Unknown;
    ComponentRef component;
    std::int32_t xid = 0;             // NVIDIA Xid code, 0 when none is known
    std::vector<std::int32_t> gpus;   // the GPUs it took out of the job
    std::string detail;               // the evidence, as a person would read it
    // Who, as the logs tell it: the ranks that reported it, and the ranks it points at (a
    // timed-out collective's silent or lagging ranks, a crash's root-cause rank). Empty when unsaid.
    std::vector<std::int32_t> ranks{};
    std::vector<std::int32_t> suspectRanks{};
    // The jobs it ended: those holding its GPUs when it struck (indices into Run::jobs).
    // Empty when no job is known (imports, runs of one job without a job table).
    std::vector<std::int32_t> jobs{};
};

// One interruption of the job, from stop to training resumed. A restart is the moment the
// relaunched job is up and starts loading its checkpoint.
struct Downtime {
    Nanos begin = 0;       // the job stopped making progress
    Nanos detected = 0;    // the failure was detected and the job torn down
    Nanos restarted = 0;   // the job was relaunched and initialised
    Nanos end = 0;         // the checkpoint was loaded; training resumes
    Nanos lostWork = 0;    // training since the last durable checkpoint, redone afterwards
    bool planned = false;
    RootCause cause = RootCause::Unknown;
    std::int32_t failure = -1;  // index into Run::failures; -1 for planned downtime
    std::int32_t job = -1;      // index into Run::jobs: the job that ended; -1 when unknown
};

// A scheduler job (or one of its steps) as Slurm accounted it. Times are on the run's clock
// and may be negative (a job submitted before the run's first event); unset when unknown.
struct Job {
    std::string id;              // "1234", "1234_7" (array task), "1234.0" (a step)
    std::string name;
    std::int32_t parent = -1;    // for a step: index of its job in Run::jobs
    std::int32_t restarts = 0;   // how often Slurm requeued it
    std::vector<std::int32_t> hosts;  // host indices it ran on
    std::int32_t gpus = 0;
    std::optional<Nanos> submit, start, end;
    std::string state;           // first word of sacct's State: COMPLETED, FAILED, NODE_FAIL, ...
    std::string exitCode;        // sacct's "code:signal", "1:0"; empty when unknown
    std::string reason;          // why it ended or waited, as Slurm or the operator put it
    bool inRun = false;          // one of the jobs that trained this run (the chain)
};

enum class CheckpointKind : std::uint8_t { Save, Load };

struct Checkpoint {
    Nanos begin = 0;
    Nanos end = 0;
    std::int64_t step = 0;
    std::int64_t bytes = 0;
    CheckpointKind kind = CheckpointKind::Save;
};

// One completed training step. After a restart, steps since the reloaded checkpoint are
// trained again, so step numbers can repeat.
struct Step {
    Nanos time = 0;      // when the step finished
    std::int64_t step = 0;
    Nanos duration = 0;
};

// One rank's training step, where the trace or log says per rank (e.g. ProfilerStep#N).
struct RankStep {
    std::int32_t rank = 0;
    std::int64_t step = 0;
    Nanos time = 0;      // when it finished, on the run's clock (0 when unknown)
    Nanos duration = 0;
};

struct StragglerEpisode {
    std::int32_t gpu = 0;
    Nanos begin = 0;
    Nanos end = 0;
    double slowdown = 1.0;  // the GPU's step takes this many times as long (1.25 = 25% slower)
    std::string cause;
};

struct ProcessGroup {
    std::string name;
    std::vector<std::int32_t> ranks{};
};

// One rank's part in one collective: ranks of a group share `seq` for the same collective.
struct CollectiveRecord {
    std::int32_t rank = 0;
    std::int32_t group = 0;  // index into Run::processGroups
    std::int32_t op = 0;     // index into Run::collectiveOps
    std::int64_t seq = 0;
    Nanos enter = 0;
    Nanos exit = 0;
    std::int64_t bytes = 0;
};
// A job's Flight Recorder dumps hold tens of millions of them: an import places each straight
// into its slot of a vector grown without first being zeroed (resize leaves them unset).
using CollectiveRecords = std::vector<CollectiveRecord, UninitialisedAllocator<CollectiveRecord>>;

struct Run {
    RunInfo info;
    JobShape jobShape;  // how the job split its ranks, where its logs said
    Topology topology;
    std::vector<Failure> failures;
    std::vector<Downtime> downtimes;
    std::vector<Job> jobs;  // steps after their job; the run's chain in start order
    std::vector<Checkpoint> checkpoints;
    std::vector<Step> steps;
    std::vector<StragglerEpisode> stragglers;
    std::vector<RankStep> rankSteps;
    std::vector<std::string> collectiveOps;
    std::vector<ProcessGroup> processGroups;
    CollectiveRecords collectives;
    std::vector<std::int32_t> rankToGpu;  // rank r ran on GPU rankToGpu[r]
    // The job's GPUs that no trace covers where traces cover others (two traced ranks of 128):
    // whether they kept pace is unknown, so they replay as "no data", never as training. Ascending.
    std::vector<std::int32_t> untracedGpus;
    // Who hung the job, from its Flight Recorder dumps; unset when the run has none.
    std::optional<HangReport> hang;
    Telemetry telemetry;                  // GPU metrics over time (telemetry.h)
};

// The stretches between downtimes, when the job was up.
struct TrainingSegment {
    Nanos begin = 0;
    Nanos end = 0;
};
std::vector<TrainingSegment> trainingSegments(const Run& run);

}  // namespace faultline
