#pragma once
// Small, allocation-free helpers the line-oriented importers share: splitting, numbers,
// and the timestamp spellings cluster tools use. Every parser returns nullopt on text it
// does not recognise, so the caller can say which line and what it expected.
#include "importers/events/epoch.h"

#include "model/error.h"

#include <optional>
#include <string_view>
#include <vector>

namespace faultline {

inline bool isDigit(char c) { return c >= '0' && c <= '9'; }
std::string_view trim(std::string_view s);
bool startsWith(std::string_view s, std::string_view prefix);
bool contains(std::string_view s, std::string_view needle);
// Splits on every occurrence of `delim` (which may be several bytes, as in sacct's "|#").
void splitBy(std::string_view s, std::string_view delim, std::vector<std::string_view>& out);

std::optional<std::int64_t> parseInt(std::string_view s);
std::optional<double> parseDouble(std::string_view s);
// The number written after the first `key` in `s` ("iter time (s): 1.25" -> 1.25), spaces skipped.
std::optional<double> numberAfter(std::string_view s, std::string_view key);

// Days since 1970-01-01 of a proleptic Gregorian date.
std::int64_t daysFromCivil(std::int64_t y, unsigned m, unsigned d);

// A time a run cannot hold: int64 nanoseconds since 1970 reach 2262-04-11. The line-based
// importers add the file and line to its message.
class TimeOutOfRange : public Error {
public:
    using Error::Error;
};
// A date and time of day (UTC, or at `offsetSec` east of it) as EpochNs; TimeOutOfRange
// ("year 9999 is outside 1970-2262") where it does not fit.
EpochNs epochFromCivil(std::int64_t year, unsigned month, unsigned day, std::int64_t secondOfDay, std::int64_t fracNs = 0,
                       std::int64_t offsetSec = 0);
// Seconds since 1970 (a Unix time) as EpochNs; TimeOutOfRange where it does not fit.
EpochNs epochFromSeconds(std::int64_t seconds, std::int64_t fracNs = 0);
// "Jan".."Dec" (case-sensitive, as date and dmesg write them) -> 1..12.
std::optional<unsigned> monthFromAbbrev(std::string_view s);
// This year (UTC), for log lines that leave the year out ("Mar  5 14:02:11").
int currentUtcYear();

// "2025-01-21T04:41:44,283302+00:00", "2023-04-16T16:52:27", "2024-05-01 10:00:00.123Z":
// date, 'T' or ' ', time, optional fraction after '.' or ',', optional zone (Z, +HH:MM,
// +HHMM). No zone means UTC. `consumed` gets how many characters were read.
std::optional<EpochNs> parseIsoTime(std::string_view s, std::size_t* consumed = nullptr);

// "HH:MM:SS" -> seconds since midnight.
std::optional<std::int64_t> parseClock(std::string_view s);

}  // namespace faultline
