#pragma once
// The run builder's part for jobs: the jobs as the run keeps them, where ranks ran when only
// the job's nodes say, and GPU bus ids a topology file leaves out.
#include "importers/events/imported_events.h"
#include "importers/job_chain.h"

#include "model/run.h"

#include <functional>
#include <map>
#include <string>

namespace faultline {

// Appends the chain's jobs (steps after their job) to run.jobs: times through `toRun`, hosts
// through `findHost` (-1: not in the topology, left out).
void addJobs(const JobChain& chain, const std::function<std::int32_t(const std::string&)>& findHost,
             const std::function<Nanos(EpochNs)>& toRun, Run& run);

// Places the ranks no file placed on the job's nodes; returns the GPUs a derived host has,
// and sets `stated` when the files say it (not `defaultGpusPerHost` assumed).
std::int32_t placeRanksOnJobNodes(const ImportedEvents& events, const JobChain& chain, std::int32_t ranks,
                                  std::map<std::int32_t, RankPlacement>& placement, std::int32_t defaultGpusPerHost, bool& stated);

// A host whose placed ranks all sit at one offset from their local ranks (rank = base + local
// rank), seen at two ranks or more, holds ranks base .. base + its highest local rank: torchrun
// and srun's block distribution number a node's workers so (two ranks at one offset rule out a
// cyclic spread over several nodes). A rank in that range that no file placed is on that host at
// local rank `rank - base`, where that slot is free and no other host claims it. Returns the
// ranks placed so, each for a note: the log's own numbering, not an invented host.
std::vector<RankPlacement> placeRanksByLocalNumbering(std::int32_t ranks, std::map<std::int32_t, RankPlacement>& placement);

// Gives the GPUs of topology hosts without bus ids the ids their kernel logs name (the boot
// enumeration, else the Xid lines), in bus order.
void namePciBusIds(const ImportedEvents& events, Topology& topology);

}  // namespace faultline
