#pragma once
// The fabric in one line: its kind and how many switches each tier has, named as that kind
// names them, and the rails its leaves serve. `faultline-cli summary`, the summary panel and
// the import report say it alike.
#include "model/topology.h"

#include <nlohmann/json_fwd.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace faultline {

struct FabricOutline {
    FabricKind kind = FabricKind::RoceClos;
    std::array<std::size_t, 3> switches{};  // by SwitchTier
    std::vector<std::int32_t> rails;        // the NIC indices rail leaves serve, ascending
};

FabricOutline outlineFabric(const Topology& topology);
// "InfiniBand fat tree: 31 leaves, 9 spines; rails 0, 1, 4, 5"; "RoCE two-stage Clos: 8 RTSW, ...".
std::string fabricOutlineText(const FabricOutline& outline);
// {"kind": "infiniband-fat-tree", "name": ..., "tiers": {"leaf": 31, ...}, "rails": [...]}
nlohmann::json fabricOutlineToJson(const FabricOutline& outline);

}  // namespace faultline
