#pragma once
// Round ticks for a time ruler, from microseconds to decades: a step of 1, 2 or 5 of a unit
// (10 ms, 30 s, 6 h, 7 d, 1 year...), and labels that say as much as the step needs.
#include "model/time.h"

#include <functional>
#include <string>
#include <vector>

namespace faultline {

// The round steps, shortest first.
const std::vector<Nanos>& timelineTickSteps();

// "Mar 04", "Mar 04 12:30", "12:30:05", "12:30:05.250", "12:30:05.250125"; with a year
// ("2025 Mar 04") where steps are a month or longer.
std::string timelineTickLabel(std::int64_t startEpochNs, Nanos t, Nanos step);

// The shortest step whose labels, `labelWidth(step)` pixels wide, leave a gap between them
// at `pixelsPerNano`.
Nanos chooseTimelineTick(double pixelsPerNano, const std::function<double(Nanos step)>& labelWidth);

// The first tick at or after `t`: steps of a day or more fall on UTC midnights, months and
// years on their first day, so labels read as dates.
Nanos firstTickAtOrAfter(std::int64_t startEpochNs, Nanos t, Nanos step);
Nanos nextTick(std::int64_t startEpochNs, Nanos t, Nanos step);

}  // namespace faultline
