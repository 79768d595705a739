#pragma once
// An InfiniBand fat tree drawn as built, over racks already placed on the floor: leaves in a
// row above the racks they serve (a rack's own leaf over it; a scalable unit's rail leaves
// over the unit, in rail order, each labelled with its rail), spines in a row above the
// leaves and cores above the spines, all in the racks' plane like a network diagram. Cables
// go one line per rack-leaf and per leaf-spine pair, or one per unit and upper switch where
// pairs would be a blur; where rack-leaf lines are a wall from afar, one per unit and leaf
// stands in for them there (FabricLayout::farLinks).
#include "views/fabric/fabric_layout.h"

namespace faultline {

// Places the switches, cables and labels of a fat tree into `out`, whose racks, zones and
// floor bounds are already laid out; `rackHeight` is the tallest rack's.
void placeFatTree(const Topology& topology, float rackHeight, FabricLayout& out);

}  // namespace faultline
