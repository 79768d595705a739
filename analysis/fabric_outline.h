#pragma once
// The fabric in one line: its kind and how many switches each tier has, named as that kind
// names them, and the rails its leaves serve. A fleet whose clusters have fabrics of different
// kinds is outlined kind by kind. `faultline-cli summary`, the summary panel and the import
// report say it alike.
#include "model/topology.h"

#include <nlohmann/json_fwd.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace faultline {

// The switches of one fabric kind: how many per tier, and the rails its leaves serve.
struct FabricOutlinePart {
    FabricKind kind = FabricKind::RoceClos;
    std::size_t clusters = 1;               // the clusters of this kind
    std::array<std::size_t, 3> switches{};  // by SwitchTier
    std::vector<std::int32_t> rails;        // the NIC indices rail leaves serve, ascending
};

struct FabricOutline {
    // One part per fabric kind with switches, in FabricKind order; empty when no file names a
    // switch. More than one: a fleet of mixed fabrics.
    std::vector<FabricOutlinePart> parts;

    bool known() const { return !parts.empty(); }
    bool mixed() const { return parts.size() > 1; }
};

FabricOutline outlineFabric(const Topology& topology);
// "InfiniBand fat tree: 31 leaves, 9 spines; rails 0, 1, 4, 5"; "RoCE two-stage Clos: 8 RTSW, ...";
// "mixed: RoCE two-stage Clos in 12 clusters (...) and InfiniBand fat tree in 4 clusters (...)".
std::string fabricOutlineText(const FabricOutline& outline);
// {"kind": "infiniband-fat-tree", "name": ..., "tiers": {"leaf": 31, ...}, "rails": [...]}; a
// mixed fleet: {"kind": "mixed", "name": "mixed", "fabrics": [one such object per kind]}.
nlohmann::json fabricOutlineToJson(const FabricOutline& outline);

}  // namespace faultline
