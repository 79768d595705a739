#pragma once
// What a fat tree's leaf switches say about how it was built, from the host adapters cabled
// to each: which leaves serve one rail (the same NIC of many hosts, as in a rail-optimised
// DGX SuperPOD), and which leaves share hosts (one scalable unit).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace faultline {

// A leaf's host cables: (host name, NIC index), one per cable.
using LeafHostCables = std::vector<std::pair<std::string, std::int32_t>>;

// The NIC index the leaf serves on every host it reaches, or -1 when it is not a rail leaf:
// a rail leaf reaches at least 4 hosts, and 3 of 4 of its host cables land on one index (a
// few miscabled or renamed adapters do not undo a rail).
std::int32_t railOfLeaf(const LeafHostCables& cables);

// Leaves that share a host are one unit (the hosts' NICs spread over the unit's rail leaves).
// Units are numbered 0.. in the order of their first leaf, leaves in the given order.
std::vector<std::int32_t> leafUnits(const std::vector<LeafHostCables>& leaves);

}  // namespace faultline
