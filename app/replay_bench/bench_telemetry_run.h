#pragma once
// For `--bench-replay` with FAULTLINE_BENCH_COLOUR_BY=power: a simulated run has no telemetry,
// so every GPU is given power readings in 10-minute buckets over the run's first day (the
// level a replay stepping 7 minutes a frame reads), each bucket a different value, so that
// colouring by power recolours most GPUs every frame: the worst case for View > Colour By.
#include "model/run.h"

namespace faultline {

// Adds the readings to `run`; returns the metric's index and the span they cover.
std::int32_t addBenchPowerReadings(Run& run, Nanos span = kDay);

}  // namespace faultline
