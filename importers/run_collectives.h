#pragma once
// The run's collectives from every file that has them: traces' ImportedCollectives and
// Flight Recorder dumps' entries, in one time order, their ops and process groups made tables.
#include "importers/events/imported_events.h"

#include "model/run.h"

namespace faultline {

// The earliest time a collective begins (0 when there is none), and the latest it ends.
struct CollectiveSpan {
    EpochNs first = 0;
    EpochNs last = 0;
};
CollectiveSpan collectiveSpan(const ImportedEvents& events);

// Fills run.collectives, run.collectiveOps and run.processGroups; times become Nanos since `base`.
// The Flight Recorder dumps are emptied as their entries become records (most of an import's
// memory is theirs); events.flightRecorderDumps keeps as many, empty.
void addCollectives(ImportedEvents& events, EpochNs base, Run& run);

}  // namespace faultline
