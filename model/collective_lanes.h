#pragma once
// Each rank's collectives in time order, and the ranks in the order a timeline shows them:
// the ranks that spent least time inside collectives (the ones the others waited for) first.
#include "run.h"

#include <vector>

namespace faultline {

struct CollectiveLane {
    std::int32_t rank = 0;
    std::size_t begin = 0;  // this rank's records are CollectiveLanes::records[begin, end)
    std::size_t end = 0;
};

struct CollectiveLanes {
    std::vector<std::uint32_t> records;  // indices into Run::collectives, by (rank, enter)
    std::vector<CollectiveLane> lanes;
    Nanos traceBegin = 0;
    Nanos traceEnd = 0;
};

CollectiveLanes buildCollectiveLanes(const Run& run);

}  // namespace faultline
