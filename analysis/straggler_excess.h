#pragma once
// What stragglers cost a run: the slowest straggler active at each kept step sets how long the
// step took, and what it added is straggler slowdown. One walk for the goodput ledger and for
// the comparison's split of that slowdown by cause (the network's and the rest).
#include "model/run.h"

#include <functional>

namespace faultline {

// For each kept step (not redone after a failure) a straggler slowed: the step's span, the
// share of it spent waiting (1 - 1/slowdown), and the slowest straggler then.
void forEachStragglerExcess(const Run& run, const std::function<void(Nanos begin, Nanos end, double share, const StragglerEpisode& worst)>& add);

}  // namespace faultline
