#pragma once
// The files a real cluster would have left behind for a simulated run: what `faultline-cli
// simulate --emit-logs DIR` writes, so that `faultline-cli import DIR` can be checked against
// the run it came from.
//
//   DIR/sacct.txt         sacct --parsable --duplicates (jobs and steps, `|` delimited)
//   DIR/sacct.json        sacct --json (Slurm 23.02 spelling)
//   DIR/topology.conf     Slurm topology.conf, tree form; for an InfiniBand fat tree instead
//   DIR/ibnetdiscover.out the fabric as ibnetdiscover prints it (rail leaves need it)
//   DIR/kernel/HOST.dmesg.log   dmesg --time-format iso, for every node a failure showed on
//   DIR/infiniband/HOST.prom    node_exporter's link-down counters around each failed cable
//                               of the host (link_counter_logs.h)
//   DIR/logs/NAME-JOBID.out     the training job's stdout: SLURM_* banner, Megatron's
//                               arguments, iteration and checkpoint lines, errors, NCCL
//                               watchdog timeouts; a requeued job appends to its file
#include "model/run.h"

#include <string>

namespace faultline {

struct ClusterLogSummary {
    int jobs = 0;         // job runs (requeues counted apart)
    int kernelLogs = 0;   // nodes with a kernel log
    std::int64_t bytes = 0;
};

// Throws Error when DIR cannot be created or written.
ClusterLogSummary writeClusterLogs(const Run& run, const std::string& dir, const std::string& jobName);

}  // namespace faultline
