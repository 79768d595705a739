#pragma once
// Which of a job's GPUs its traces cover. Two traced ranks of a 128-rank job say how those two
// kept pace and nothing of the other 126: those replay as "no data", never as training.
#include "model/run.h"

#include <cstdint>
#include <vector>

namespace faultline {

// The GPUs of `run` that no collective trace, per-rank step time, failure or straggler names,
// where traces cover some of its ranks (Run::untracedGpus); empty when nothing is traced
// rank by rank (a job's one log speaks for all its ranks) or every GPU is covered.
std::vector<std::int32_t> untracedGpus(const Run& run);

}  // namespace faultline
