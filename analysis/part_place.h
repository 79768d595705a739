#pragma once
// Where a part stands, for a caption a room reads at a glance (issue #38): in a fleet every
// rack looks like the next, so an incident's slide names the building, hall, cluster, zone,
// row and rack it happened in.
#include "analysis/incidents.h"
#include "model/run.h"

#include <string>

namespace faultline {

// "Building C · Hall C1 · c1-ib-32k · c1-zone03 row 2 · rack c1-r0026" in a fleet; without
// the building, hall and cluster in a run of one cluster ("zone03 row 2 · rack r0026"). A
// switch above the racks stands for its zone, or its cluster; "" for kind None or an index
// out of range.
std::string partPlace(const Topology& topology, const ComponentRef& part);
// In a fleet, where the incident's camera goes: its failed part, else the first GPU it took
// out; "" for an incident with no hardware (the whole cluster is its picture) and in a run of
// one cluster, whose close-ups differ and whose hall is the one in view.
std::string incidentPlace(const Run& run, const Incident& incident);

}  // namespace faultline
