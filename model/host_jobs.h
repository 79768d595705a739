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
    // The jobs that ran on `host`, in start order.
    std::span<const std::int32_t> jobsOfHost(std::int32_t host) const;

private:
    const Run& m_run;
    std::vector<std::int32_t> m_first;  // host h's jobs are m_jobs[m_first[h], m_first[h + 1])
    std::vector<std::int32_t> m_jobs;
    std::vector<Nanos> m_starts;        // alongside m_jobs
};

}  // namespace faultline
