#include "fleet_shape.h"

#include "model/error.h"

namespace faultline {

FleetShape fleet350kShape() {
    // docs/fabric-presets.md gives the sources and assumptions behind each figure.
    FleetShape s;
    using enum FabricKind;
    s.clusters = {
        // Meta's two 24,576-GPU clusters (2024), one RoCE, one InfiniBand; Llama 3 pre-trained on the first.
        {"a1-roce-24k", "Hall A1", "Building A", RoceClos, 24'576},
        {"a2-ib-24k", "Hall A2", "Building A", InfinibandFatTree, 24'576},
        // The rest of a ~350,000-H100 fleet: halls of several sizes and both fabrics.
        {"b1-roce-64k", "Hall B1", "Building B", RoceClos, 65'536},
        {"b2-roce-48k", "Hall B2", "Building B", RoceClos, 49'152},
        {"c1-ib-32k", "Hall C1", "Building C", InfinibandFatTree, 32'768},
        {"c2-roce-32k", "Hall C2", "Building C", RoceClos, 32'768},
        {"d1-roce-48k", "Hall D1", "Building D", RoceClos, 49'152},
        {"d2-ib-32k", "Hall D2", "Building D", InfinibandFatTree, 32'768},
        {"e1-roce-16k", "Hall E1", "Building E", RoceClos, 16'384},
        {"e2-roce-16k", "Hall E2", "Building E", RoceClos, 16'384},
        {"e3-roce-8k", "Hall E3", "Building E", RoceClos, 8'192},
    };
    s.pretrainingCluster = 0;
    s.pretrainingGpus = 16'384;
    // Most jobs are small; most GPU-hours go to the large ones (assumed, as on any shared fleet).
    s.jobMix = {
        {"eval", 8, 0.40, 4.0},          {"finetune", 64, 0.25, 10.0},    {"sft", 256, 0.15, 20.0},
        {"rlhf", 1'024, 0.10, 36.0},     {"ablation", 2'048, 0.05, 60.0}, {"pretrain-small", 4'096, 0.03, 96.0},
        {"pretrain-mid", 8'192, 0.02, 144.0},
    };
    return s;
}

namespace {

// Appends one cluster's fabric, its names prefixed and its indices moved past what is there.
void appendCluster(Topology& into, const Topology& c, const std::string& prefix, std::int32_t cluster) {
    const auto zoneOff = static_cast<std::int32_t>(into.zones.size()), rackOff = static_cast<std::int32_t>(into.racks.size());
    const auto hostOff = static_cast<std::int32_t>(into.hosts.size()), gpuOff = static_cast<std::int32_t>(into.gpus.size());
    const auto nicOff = static_cast<std::int32_t>(into.nics.size()), switchOff = static_cast<std::int32_t>(into.switches.size());
    for (const Zone& z : c.zones) into.zones.push_back({prefix + z.name, cluster});
    for (const Rack& r : c.racks) into.racks.push_back({prefix + r.name, r.zone + zoneOff, r.row, r.position});
    for (const Host& h : c.hosts) into.hosts.push_back({prefix + h.name, h.rack + rackOff, h.firstGpu + gpuOff, h.gpuCount, h.firstNic + nicOff, h.nicCount});
    for (const Gpu& g : c.gpus) into.gpus.push_back({g.host + hostOff, g.index, g.pciBusId});
    for (const Nic& n : c.nics) into.nics.push_back({n.host + hostOff, n.index});
    for (const Switch& s : c.switches)
        into.switches.push_back({prefix + s.name, s.tier, s.zone >= 0 ? s.zone + zoneOff : -1, s.rack >= 0 ? s.rack + rackOff : -1, s.rail, cluster});
    auto moved = [&](LinkEnd e) { return LinkEnd{e.kind, e.index + (e.kind == NodeKind::Nic ? nicOff : switchOff)}; };
    for (const Link& l : c.links) into.links.push_back({moved(l.lower), moved(l.upper)});
}

}  // namespace

std::string fleetNamePrefix(const FleetClusterShape& c) { return c.name.substr(0, c.name.find('-')) + "-"; }

Topology buildClusterFabric(const FleetClusterShape& c, int gpus) {
    if (c.fabric == FabricKind::InfinibandFatTree) {
        FatTreeShape shape;
        shape.gpus = gpus;
        return buildFatTree(shape);
    }
    FabricShape shape;
    shape.gpus = gpus;
    return buildFabric(shape);
}

Topology buildFleetTopology(const FleetShape& shape) {
    if (shape.clusters.empty()) throw Error("fleet: no clusters");
    Topology t;
    t.fabric = shape.clusters.front().fabric;
    for (const FleetClusterShape& c : shape.clusters) {
        t.clusters.push_back({c.name, c.hall, c.building, c.fabric});
        appendCluster(t, buildClusterFabric(c, c.gpus), fleetNamePrefix(c), static_cast<std::int32_t>(t.clusters.size() - 1));
    }
    return t;
}

}  // namespace faultline
