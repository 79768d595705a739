#pragma once
// Where each part of the cluster sits in the 3D fabric view, computed once from the
// topology. The floor is the x-y plane, z is up. Every GPU lies on the floor as a low box, so
// a top view or an oblique one sees all of them: GPUs in a 4-wide grid per host, hosts side
// by side in their rack's footprint, racks along rows, rows in zones (pods), zones in a grid.
// The switch tiers float above: rack switches over their racks, cluster switches over
// their zone, aggregation switches over the whole cluster. Links are line segments, one per
// cable where few enough to read, else aggregated (a rack's NIC cables become one line).
#include "model/topology.h"

#include <array>
#include <string>
#include <vector>

namespace faultline {

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

struct Label3 {
    std::string text;
    std::array<float, 3> at{};
};

struct FabricLayout {
    std::vector<Box3> gpus;      // one per GPU, by GPU index
    std::vector<Box3> hosts;     // a host's footprint (around its GPUs), by host index
    std::vector<Box3> racks;     // a rack's block, by rack index: what far views draw
    std::vector<Box3> switches;  // by switch index
    std::vector<Segment3> rackLinks;  // from racks and rack switches: too fine for far views
    std::vector<Segment3> links;      // between the upper tiers
    std::vector<Label3> labels;  // zone names and switch tiers, where they fit
    Box3 bounds;
    float gpuPitch = 1.0f;       // floor distance between neighbouring GPUs
};

FabricLayout layoutFabric(const Topology& topology);

}  // namespace faultline
