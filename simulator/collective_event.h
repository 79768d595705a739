#pragma once
// One collective of a run as the line a rank's event file (faultline-events, JSON Lines)
// holds: what the shard tests and the shard benchmark write to stand for a profiler's output.
#include "model/run.h"

#include <nlohmann/json.hpp>

namespace faultline {

inline nlohmann::json collectiveEvent(const Run& run, const CollectiveRecord& c) {
    return {{"kind", "collective"},
            {"rank", c.rank},
            {"op", run.collectiveOps[static_cast<std::size_t>(c.op)]},
            {"group", run.processGroups[static_cast<std::size_t>(c.group)].name},
            {"seq", c.seq},
            {"enter", run.info.startEpochNs + c.enter},
            {"exit", run.info.startEpochNs + c.exit},
            {"bytes", c.bytes}};
}

}  // namespace faultline::test
