#pragma once
// A fleet laid out as its buildings: each cluster drawn as its own hall (layoutFabric of
// the cluster alone: a RoCE hall or a fat tree), a building's halls side by side in a row,
// buildings one behind another, each hall and building named on the floor in front of it.
#include "views/fabric/fabric_layout.h"

namespace faultline {

// Seen whole, each hall's upper-tier cables are merged on a grid this many cells across the
// hall (FabricLayout::fleetLinks).
inline constexpr float kFleetLinkCellsAcross = 32;

// The clusters' parts must lie in contiguous runs, cluster after cluster (as
// buildFleetTopology and the run file keep them); else the fleet is laid out as one hall.
FabricLayout layoutFleet(const Topology& fleet);

// One cluster of the fleet as a topology of its own, indices counted from its first part;
// nullopt when its parts are not contiguous.
std::optional<Topology> clusterTopology(const Topology& fleet, std::int32_t cluster);

}  // namespace faultline
