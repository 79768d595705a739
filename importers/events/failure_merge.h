#pragma once
// One event, several records: a GPU's Xid repeated within seconds (or two Xid codes for one
// fault), the same host's log read from two files, or a kernel Xid and the Slurm job it
// ended. Each such group becomes one failure whose detail lists all of its evidence, so
// one fault counts as one interruption.
#include "model/run.h"

#include <string>
#include <vector>

namespace faultline {

struct FailureRecord {
    Failure failure;     // in run time, placed on the topology
    std::string source;  // where it was read ("node07.dmesg:12"); may be empty
    bool fromJob = false;  // a scheduler's record of a job's end (sacct), not the hardware's
};

// Records on the same GPUs within this of each other are one event.
inline constexpr Nanos kSameEventWindow = 10 * kSecond;
// A scheduler notices a job's end up to this long after the hardware fault that ended it.
inline constexpr Nanos kJobEndLag = 10 * kMinute;

// `records` in time order; returns the failures, one per event, in time order. A group keeps
// its earliest time and the most specific record's cause, component and Xid (the hardware's
// over the scheduler's; causeSpecificity among the others), every other record in its detail.
std::vector<Failure> mergeDuplicateFailures(const std::vector<FailureRecord>& records);

}  // namespace faultline
