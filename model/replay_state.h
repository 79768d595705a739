#pragma once
// The run replayed: what every GPU and the job were doing at any instant t.
//
// ReplayIndex is built once per run. It files the sparse per-GPU intervals (failed,
// straggling) into fixed-width time buckets and keeps job-wide intervals (downtimes,
// checkpoints) and steps sorted, so the state of every GPU at t costs one pass over the GPU
// array plus the few intervals filed in t's bucket: never a scan of the run's events.
#include "run.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace faultline {

// What a GPU is doing, in the order a view should let one state win over another.
enum class GpuState : std::uint8_t {
    Training,       // the job runs and this GPU keeps pace
    Straggling,     // the job runs but this GPU is slow; see GpuVisual::slowdown
    Checkpointing,  // the job saves or reloads a checkpoint
    Down,           // the job is down (detecting, restarting) and this GPU waits with it
    Failed,         // this GPU is broken or was cut off by the failure that stopped the job
    NoData,         // the job runs but no trace covers this GPU (Run::untracedGpus)
};
inline constexpr int kGpuStateCount = 6;
const char* gpuStateName(GpuState state);

// One GPU at one instant, packed into 4 bytes so a 100,000-GPU frame is 400 KB.
struct GpuVisual {
    GpuState state = GpuState::Training;
    // Straggling: the extra step time in percent, capped at 255 (1.25x slower -> 25).
    std::uint8_t slowdownPercent = 0;
    bool replaced = false;  // swapped for new hardware after an earlier failure
    std::uint8_t unused = 0;
};

// Where the job stands at an instant.
enum class JobPhase : std::uint8_t {
    Training,
    SavingCheckpoint,
    Stopped,            // stopped making progress; the failure is not yet detected
    Restarting,         // detected and torn down; the job is being relaunched
    LoadingCheckpoint,  // relaunched; reading the checkpoint back
};
const char* jobPhaseName(JobPhase phase);

struct JobStatus {
    JobPhase phase = JobPhase::Training;
    std::int32_t downtime = -1;  // index into Run::downtimes while down, else -1
    std::int32_t failure = -1;   // the failure behind that downtime, -1 if none (planned)
    Nanos sinceDown = 0;         // time since the downtime began, while down
    std::int64_t step = 0;       // the last step completed at or before t (0 before the first)
};

class ReplayIndex {
public:
    explicit ReplayIndex(const Run& run);

    const Run& run() const { return m_run; }
    std::size_t gpuCount() const { return m_replacedAt.size(); }

    // The state of every GPU at t; `out` must hold gpuCount() entries.
    void statesAt(Nanos t, std::span<GpuVisual> out) const;
    std::vector<GpuVisual> statesAt(Nanos t) const;
    JobStatus jobAt(Nanos t) const;

    // Navigation for the replay controls. Each returns nullopt where there is none.
    std::optional<Nanos> stepTime(std::int64_t step) const;  // first completion of `step`
    std::optional<Nanos> nextStep(Nanos t) const;            // the next step boundary after t
    std::optional<Nanos> previousStep(Nanos t) const;        // the last step boundary before t
    // Events: failures, downtime phase changes, checkpoint begin/end, straggler begin/end.
    std::optional<Nanos> nextEvent(Nanos t) const;
    std::optional<Nanos> previousEvent(Nanos t) const;
    // Incidents: the start of each interruption, unexpected or planned.
    std::optional<Nanos> nextIncident(Nanos t) const;
    std::optional<Nanos> previousIncident(Nanos t) const;
    // Failures with time in (from, to]: what a view flashes when replay moves across them.
    std::vector<std::int32_t> failuresBetween(Nanos from, Nanos to) const;

private:
    // A per-GPU interval: failed (slowdown 0) or straggling.
    struct GpuInterval {
        Nanos begin;
        Nanos end;
        std::int32_t gpu;
        std::uint8_t slowdownPercent;
        bool failed;
    };
    void fileInterval(const GpuInterval& interval);
    std::size_t bucketOf(Nanos t) const;

    const Run& m_run;
    std::vector<Nanos> m_replacedAt;  // per GPU: when it was first swapped; INT64_MAX if never
    std::vector<bool> m_untraced;     // per GPU: Run::untracedGpus
    Nanos m_bucketWidth = 1;
    std::vector<std::vector<GpuInterval>> m_buckets;
    std::vector<Checkpoint> m_checkpoints;  // sorted by begin
    std::vector<Nanos> m_events;            // sorted, unique
    std::vector<Nanos> m_incidents;         // sorted
    std::vector<std::int32_t> m_failuresByTime;  // failure indices sorted by time
};

// The status line: "training, step 1,204", "down: restart after GPU HBM3 Memory on
// r0412-h1-gpu3, 4 min 10 s".
std::string describeJob(const Run& run, const JobStatus& status);

}  // namespace faultline
