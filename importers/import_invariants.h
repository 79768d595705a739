#pragma once
// What every import holds, whatever its files said: checked once, at its end, on every event
// that reaches the run file, so that no reader's slip can give a confident wrong answer.
// - No event after the files were written: a time past the newest modification time (plus
//   the widest time zone, for local times read as UTC) is re-resolved (a yearless date moved
//   to the year before) or kept as undated, and the file's report says which.
// - No event before 1990: no training log of a cluster is older.
// - A group-wide timeout reported by log lines from ranks up to N has ranks 0..N in its
//   world; those that said nothing are its suspects. (A Flight Recorder hang, built after
//   this step by hang_incident.cpp, names its culprits from the dumps' own analysis.)
#include "importers/events/import_report.h"
#include "importers/events/imported_events.h"

#include <cstdint>

namespace faultline {

// 1990-01-01T00:00:00Z.
inline constexpr EpochNs kEarliestPlausibleTime = 631'152'000LL * 1'000'000'000;
// A local time read as UTC lies up to 14 h ahead of the clock that wrote it (UTC+14).
inline constexpr EpochNs kLocalTimeSlackNs = 14LL * 3600 * 1'000'000'000;

// The file's modification time, 0 when it cannot be read.
EpochNs fileWriteTime(const std::string& path);

// Applies the time rules to one file's events; `newestWrite` is the newest modification time
// of all the import's files (0: unknown, then only the 1990 floor holds). The report's span
// and notes follow.
void enforceTimeBounds(ImportedEvents& events, FileReport& report, EpochNs newestWrite);
// Whether every time the rules check lies within them: enforceTimeBounds would change nothing.
bool withinTimeBounds(const ImportedEvents& events, EpochNs newestWrite);

// Names the silent ranks of every group-wide timeout (`worldSize` > 0: the world given by the
// user, which wins over what the files imply). Returns one note per failure changed.
std::vector<std::string> nameSilentRanks(ImportedEvents& events, std::int32_t worldSize);

}  // namespace faultline
