#pragma once
// The fleet's other jobs: a mix of sizes scheduled first come, first served onto aligned
// blocks of hosts, and the failures that end them (each requeued on the same hosts to run
// out its reservation, as Slurm's --requeue does).
#include "fleet_shape.h"
#include "random.h"
#include "model/run.h"

#include <vector>

namespace faultline {

// Jobs of `shape.jobMix` on every host of the fleet but the `reserved` ones, from
// -shape.warmUpDays until the hosts are booked to `until`. Jobs end COMPLETED, or RUNNING with
// no end when they outlast `until`; in start order; ids from `firstId`.
std::vector<Job> scheduleFleetJobs(const Topology& topology, const FleetShape& shape, const std::vector<char>& reserved, Nanos until,
                                   int firstId, Random& random);

// Ends the jobs a failure hits and requeues them, keeping which job holds which host at any
// time as the jobs change. Failures must come in time order.
class FleetJobLedger {
public:
    FleetJobLedger(const Topology& topology, std::vector<Job>& jobs);
    // The jobs holding these hosts at t, ascending.
    std::vector<std::int32_t> holding(const std::vector<std::int32_t>& hosts, Nanos t) const;
    // `job` was ended by a failure at t: it stops at t + detect (NODE_FAIL or FAILED with the
    // reason), and a requeued run starts `restart` later on the same hosts until its planned end.
    void fail(std::int32_t job, Nanos t, Nanos detect, Nanos restart, bool hardware, const std::string& reason);

private:
    std::vector<Job>& m_jobs;
    std::vector<std::vector<std::int32_t>> m_hostJobs;  // per host, in start order
    std::vector<char> m_failed;                          // per job: already ended by a failure
};

}  // namespace faultline
