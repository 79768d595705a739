#pragma once
// Where each part of the cluster sits in the 3D fabric view, computed once from the
// topology: a data hall. The floor is the x-y plane, z is up. Racks stand as cabinets in
// rows, their fronts facing -y (towards the default camera), rows in zones (pods) laid out
// as a grid of floor areas. Hosts are trays stacked in their rack, the top host highest;
// each GPU a small box on its tray's front, where an oblique view sees it. Rack switches
// sit on top of their racks; cluster switches float as a layer over their zone and the
// aggregation switches over the whole hall. Links are line segments, one per cable where
// few enough to read, else aggregated (a row's uplinks become one line).
#include "model/topology.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace faultline {

// Switches of a tier are named in the scene only when there are at most this many.
inline constexpr std::size_t kMaxNamedSwitches = 16;

struct Box3 {
    std::array<float, 3> min{};
    std::array<float, 3> max{};
    std::array<float, 3> centre() const {
        return {(min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2};
    }
};

struct Segment3 {
    std::array<float, 3> a{};
    std::array<float, 3> b{};
};

// What a label names; where labels would overlap, the earlier kinds are kept.
enum class LabelKind : std::uint8_t { Hall, Tier, Switch, Zone, Row };  // Hall: a fleet's halls and buildings

struct Label3 {
    std::string text;
    std::array<float, 3> at{};
    bool onFloor = false;  // anchored on the floor in front of its area (zone names), not in the air
    LabelKind kind = LabelKind::Zone;
};

struct FabricLayout {
    std::vector<Box3> gpus;      // one per GPU, by GPU index
    std::vector<Box3> hosts;     // a host's tray (under its GPUs), by host index
    std::vector<Box3> racks;     // a rack's whole cabinet, by rack index: what far views draw
    std::vector<Box3> cabinets;  // a rack's shell behind its GPUs, by rack index
    std::vector<Box3> rackTops;  // a thin strip along each rack's lid front, coloured by its worst GPU
    std::vector<Box3> zones;     // a zone's floor area, by zone index
    std::vector<Box3> switches;  // by switch index
    std::vector<Segment3> rackLinks;  // from racks and rack switches: too fine for far views
    std::vector<Segment3> links;      // between the upper tiers
    // A fat tree's rack-to-leaf cables where one line per rack and leaf would be a wall from
    // afar (8 rail leaves a rack): nearLinks (one per rack and leaf) are drawn only nearer
    // than the farthest level of detail, farLinks (one per unit and leaf) in their stead there.
    std::vector<Segment3> nearLinks;
    std::vector<Segment3> farLinks;
    // A fleet's halls seen all at once (the farthest level of detail): each hall's links and
    // farLinks whose two ends fall in the same cells of a coarse grid over the hall drawn as one
    // line, in their stead. Thousands of long lines cost a software rasteriser a quarter of a
    // frame, and from that far the lines a cell holds are one line on screen anyway. Empty for
    // a single hall, whose own cables are drawn at every level of detail.
    std::vector<Segment3> fleetLinks;
    std::vector<Label3> labels;  // zone names and switch tiers, where they fit
    Box3 bounds;
    float gpuPitch = 1.0f;       // floor distance between neighbouring GPUs
};

// A fleet (more than one cluster) is laid out as buildings of halls (fleet_layout.h).
FabricLayout layoutFabric(const Topology& topology);

}  // namespace faultline
