#pragma once
// How figures read, the same in the CLI and the GUI.
#include "time.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace faultline {

// "54 d 3 h", "2 h 05 min", "4 min 10 s", "6.2 s", "850 ms"
std::string formatDuration(Nanos d);
// A duration that may be under a second (a collective, a lateness): "850 µs", "3.25 ms",
// "12.5 ms", else as formatDuration.
std::string formatShortDuration(Nanos d);
// "92.4%"
std::string formatPercent(double fraction, int decimals = 1);
// "5.7 TB", "812 GB"
std::string formatBytes(std::int64_t bytes);
// "16,384"
std::string formatCount(std::int64_t n);
// "2024-03-04 15:02:11 UTC" for a run-relative time
std::string formatWallTime(std::int64_t startEpochNs, Nanos t);

// Reads "90s", "10m", "1.5h", "2d", "250ms" or a plain number of seconds.
std::optional<Nanos> parseDuration(std::string_view text);

}  // namespace faultline
