#pragma once
// Which job held each host when: every job's run filed per host in start order, so "who held
// this GPU at t" is a binary search, for the fleet's failures, View > Colour By job and the
// jobs list. Steps (jobs with a parent) are their job's; jobs without a start are left out.
#include "run.h"

#include <cstdint>
#include <span>
#include <vector>

namespace faultline {

class HostJobs {
public:
    explicit HostJobs(const Run& run);

    // The job holding `host` at t (start <= t < end; no end: still running), -1 when idle.
    std::int32_t jobAt(std::int32_t host, Nanos t) const;
    // The jobs holding any of these GPUs at t, ascending, each once.
    std::vector<std::int32_t> jobsHolding(std::span<const std::int32_t> gpus, Nanos t) const;
    // The job holding every GPU at t (-1 where idle); `out` holds one entry per GPU.
    void gpuJobsAt(Nanos t, std::span<std::int32_t> out) const;
    // `out`, gpuJobsAt(from) on entry, moved on to gpuJobsAt(to) for to >= from by writing
    // only the hosts of the jobs that start or end in between: a replay's frame touches the
    // few hosts whose job changed, not every host of a fleet. False, and `out` as it was,
    // where that would be more work than gpuJobsAt(to).
    bool advanceGpuJobs(Nanos from, Nanos to, std::span<std::int32_t> out) const;
    // The jobs that ran on `host`, in start order.
    std::span<const std::int32_t> jobsOfHost(std::int32_t host) const;

private:
    const Run& m_run;
    std::vector<std::int32_t> m_first;  // host h's jobs are m_jobs[m_first[h], m_first[h + 1])
    std::vector<std::int32_t> m_jobs;
    std::vector<Nanos> m_starts;        // alongside m_jobs
    // Every filed job's start and end, in time order, starts before ends at one instant and
    // jobs in their order within each: applied in turn they give what jobAt gives.
    struct Change {
        Nanos time;
        bool end;
        std::int32_t job;
        auto operator<=>(const Change&) const = default;
    };
    std::vector<Change> m_changes;
};

}  // namespace faultline
