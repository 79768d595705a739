#pragma once
// The tiny run (test_runs.h) with GPU telemetry of known values, for the views that show it:
// power, GPU temperature and SM clock sampled every minute on the first four hosts' GPUs and
// on the GPU of the run's first single-GPU failure, kept raw and in 10-minute and 1-hour
// summaries. Every other GPU has no readings.
#include "model/run.h"

namespace faultline::test {

const Run& telemetryTinyRun();

inline constexpr Nanos kTelemetrySampleEvery = kMinute;
// The readings' formulas: sample k (at k minutes) of GPU g.
inline float testPower(std::int32_t gpu, std::int64_t k) { return 100.0f + static_cast<float>(gpu % 32) * 15.0f + static_cast<float>(k % 10) * 2.0f; }
inline float testTemperature(std::int32_t gpu, std::int64_t k) { return 30.0f + static_cast<float>(gpu % 32) + static_cast<float>(k % 5); }
inline float testSmClock(std::int32_t gpu, std::int64_t) { return 1980.0f - static_cast<float>(gpu % 32) * 10.0f; }

// The failure whose GPU has readings, and a GPU without any.
const Failure& telemetryTestFailure(const Run& run);
std::int32_t gpuWithoutTelemetry(const Run& run);

}  // namespace faultline::test
