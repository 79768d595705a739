#pragma once
// Time in Faultline: int64 nanoseconds since the run's start. The absolute start of a run
// is stored once (RunInfo::startEpochNs), so every event fits in 64 bits for ~292 years.
#include <cstdint>

namespace faultline {

using Nanos = std::int64_t;

inline constexpr Nanos kMicrosecond = 1'000;
inline constexpr Nanos kMillisecond = 1'000'000;
inline constexpr Nanos kSecond = 1'000'000'000;
inline constexpr Nanos kMinute = 60 * kSecond;
inline constexpr Nanos kHour = 60 * kMinute;
inline constexpr Nanos kDay = 24 * kHour;

constexpr double toSeconds(Nanos t) { return static_cast<double>(t) / static_cast<double>(kSecond); }
constexpr Nanos fromSeconds(double s) { return static_cast<Nanos>(s * static_cast<double>(kSecond)); }

// Floor division: the bucket of `b` ns that time `a` falls in, also before 1970 (a negative
// bucket), where C++'s division would round towards zero.
constexpr std::int64_t floorDiv(std::int64_t a, std::int64_t b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }

}  // namespace faultline
