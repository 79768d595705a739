#pragma once
// A traced window of collectives for a simulated run, as a profiler would have recorded it:
// each step's work split into gradient buckets, each bucket ending in an all-reduce that
// every rank waits in until the slowest arrives. Straggling GPUs arrive late by their
// slowdown; each host's clock is off by a little, as real hosts' clocks are.
#include "random.h"
#include "model/run.h"

namespace faultline {

struct CollectiveTraceParams {
    int ranks = 0;               // rank r runs on GPU r; 0 traces nothing
    int steps = 200;             // consecutive training steps traced
    Nanos begin = 0;             // the window starts at the first step after this
    int bucketsPerStep = 4;
    double computeJitter = 0.005;     // per-rank relative noise of each compute segment
    Nanos hostClockSpread = 2 * kMillisecond;
};

void addSimulatedCollectives(Run& run, const CollectiveTraceParams& params, Random& random);

}  // namespace faultline
