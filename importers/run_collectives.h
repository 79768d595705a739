#pragma once
// The run's collectives from every file that has them: traces' ImportedCollectives and
// Flight Recorder dumps' entries, in one time order, their ops and process groups made tables.
#include "importers/events/imported_events.h"

#include "model/run.h"

#include <cstdint>
#include <vector>

namespace faultline {

// What the pass over a Flight Recorder dump's collectives saw, kept so that placing them
// (addCollectives) does not go over its entries again: how many, the span of their starts,
// and the entries that first name each of its groups and ops, in entry order.
struct DumpCollectivesSeen {
    std::size_t count = 0;
    EpochNs firstEnter = INT64_MAX, lastEnter = INT64_MIN;
    std::vector<std::uint32_t> firstOfGroup, firstOfOp;
};

// The earliest time a collective begins (0 when there is none), the latest it ends, and what
// the same pass saw of each dump (in events.flightRecorderDumps' order).
struct CollectiveSpan {
    EpochNs first = 0;
    EpochNs last = 0;
    std::vector<DumpCollectivesSeen> dumps;
};
CollectiveSpan collectiveSpan(const ImportedEvents& events);

// Fills run.collectives, run.collectiveOps and run.processGroups; times become Nanos since `base`.
// `span`: collectiveSpan(events). The Flight Recorder dumps are emptied as their entries become
// records (most of an import's memory is theirs); events.flightRecorderDumps keeps as many, empty.
void addCollectives(ImportedEvents& events, const CollectiveSpan& span, EpochNs base, Run& run);

}  // namespace faultline
