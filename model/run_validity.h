#pragma once
// What every run file obeys. One set of rules, used by the writer (a run that breaks one is
// never renamed into place) and by every reader (a file that breaks one is "corrupt"), so
// what an import writes, every reader reads.
#include "run.h"

#include <cstdint>
#include <optional>
#include <string>

namespace faultline {

// No training run lasts ten years; events may lie up to that far outside it (evidence from
// before the first step), and no further.
inline constexpr Nanos kLongestRun = 10LL * 365 * 24 * 3600 * kSecond;

// The first rule a run breaks: the table and row (the row's position, which is its id in a
// file Faultline wrote; -1 for the run as a whole) and what is wrong there.
struct RunViolation {
    std::string table;  // "collectives", "meta", ...
    std::int64_t row = -1;
    std::string what;
    std::string text() const;  // "collectives row 3: rank 1000000 is not one of the run's 16 ranks"
};

// Times first, then references between tables; each pass is linear in the rows.
std::optional<RunViolation> findRunViolation(const Run& run);

// What telemetry series may refer to: the run's metrics and GPUs, and its start (buckets
// are on the epoch clock).
struct TelemetryBounds {
    std::size_t metrics = 0;
    std::size_t gpus = 0;
    std::int64_t startEpochNs = 0;
    std::size_t levels = 0;  // a raw series' levelsFrom is at most this
};
// The telemetry rules alone, for a run file's telemetry read when a view first asks for it:
// rows are counted from `firstRow`, the level's first row among all levels' rows.
std::optional<RunViolation> findTelemetryRawViolation(const std::vector<TelemetryRawSeries>& raw, const TelemetryBounds& bounds);
std::optional<RunViolation> findTelemetryLevelViolation(const TelemetryLevel& level, const TelemetryBounds& bounds, std::size_t firstRow);

}  // namespace faultline
