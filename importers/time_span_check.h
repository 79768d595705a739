#pragma once
// Files of one run were written over one stretch of time. Files whose spans lie years or
// weeks apart (a kernel log from 2025 beside an sacct dump from 2020) are not one run:
// merged, they make a run of "1526 d" with a nonsense MTBF. The import reports each file's
// span and refuses them unless the user says they belong together.
#include "importers/events/import_report.h"
#include "model/error.h"

#include <vector>

namespace faultline {

// Spans further apart than this are not one run's (a job chain restarts within hours).
inline constexpr std::int64_t kPlausibleGapNs = 2LL * 24 * 3600 * 1'000'000'000;

// The files with times, in groups whose spans overlap or lie within kPlausibleGapNs of one
// another; in time order. One group: the files agree.
struct SpanGroup {
    EpochNs first = 0, last = 0;
    std::vector<std::size_t> files;  // indices into the reports
};
std::vector<SpanGroup> timeSpanGroups(const std::vector<FileReport>& files);

// "the files cover 2 stretches of time, 1526 d 16 h apart, ..." with each file's span, and
// with `advice` what to do about it.
std::string disjointSpansText(const std::vector<SpanGroup>& groups, const std::vector<FileReport>& files, bool advice = true);

// Thrown by an import of files in more than one group without allowDisjoint.
class DisjointSpans : public Error {
public:
    using Error::Error;
};

}  // namespace faultline
