#pragma once
// How figures read, the same in the CLI and the GUI.
#include "time.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace faultline {

// "54 d 3 h", "2 h 05 min", "4 min 10 s", "6.2 s", "850 ms"; a zero second part is left out
// ("54 d", "2 h", "4 min") and no time at all is "0 s"
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
// "1 rack", "16,384 GPUs": a count and its noun, singular for one
std::string formatCounted(std::int64_t n, std::string_view one, std::string_view many);
// "2024-03-04 15:02:11 UTC" for a run-relative time
std::string formatWallTime(std::int64_t startEpochNs, Nanos t);

// Reads "90s", "10m", "1.5h", "2d", "250ms", compounds from the largest unit down ("1d6h",
// "1h30m", "1h 30m") or a plain number of seconds: the one reader of durations for the CLI
// (--from, --to, --at, what-if options) and the app.
std::optional<Nanos> parseDuration(std::string_view text);

}  // namespace faultline
