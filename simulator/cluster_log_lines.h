#pragma once
// The text of the lines a cluster's tools write, as the simulator emits them: timestamps in
// the spellings of dmesg, sacct and Megatron, Slurm host lists, and the kernel or training-log
// line each root cause shows up as. Real tools' spellings, so that the importers read the
// simulator's files exactly as they read a real cluster's.
#include "model/run.h"

#include <string>
#include <vector>

namespace faultline {

// "2024-03-04T12:00:05" (sacct), "2024-03-04 12:00:05.123" (Megatron's prefix),
// "2024-03-04T12:00:05,123456+00:00" (dmesg --time-format iso).
std::string sacctTime(std::int64_t epochNs);
std::string logTime(std::int64_t epochNs);
std::string dmesgTime(std::int64_t epochNs);

// Slurm's compressed host list: "r[0000-0015]-h[0-1]" when the names form that grid, else
// the names joined by commas.
std::string slurmHostList(const std::vector<std::string>& hosts);

// The kernel message a failure of `cause` leaves on `host` (without the dmesg prefix);
// empty when the cause leaves none there (software, NCCL hangs).
std::string kernelEvidence(const Topology& topology, const Failure& failure, std::int32_t host);
// The hosts whose kernel logs show the failure.
std::vector<std::int32_t> evidenceHosts(const Topology& topology, const Failure& failure);
// The line the training job prints when the failure's cause shows in its own output (a
// traceback, a NaN check, a storage client error); empty otherwise.
std::string trainingLogEvidence(const Topology& topology, const Failure& failure, std::int64_t step);

}  // namespace faultline
