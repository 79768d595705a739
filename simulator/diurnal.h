#pragma once
// The day's heat cycle shared by the step times and the telemetry: Llama 3's training saw
// 1-2% throughput swing over the day as mid-day heat lowered the GPUs' clocks (DVFS). One
// curve, so that a slow step and a low SM clock in the same run agree.
#include "model/time.h"

#include <cmath>
#include <numbers>

namespace faultline {

// -1 at the coolest hour (03:00 UTC) to +1 at the hottest (15:00 UTC).
inline double diurnalHeat(std::int64_t epochNs) {
    const double secondsOfDay = std::fmod(static_cast<double>(epochNs) / kSecond, 86400.0);
    return std::sin(2.0 * std::numbers::pi * (secondsOfDay / 3600.0 - 9.0) / 24.0);
}

}  // namespace faultline
