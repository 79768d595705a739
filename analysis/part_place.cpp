#include "analysis/part_place.h"

#include "analysis/blast_radius.h"

namespace faultline {

namespace {

// The rack, zone and cluster a part belongs to (-1 where it has none).
struct Where {
    std::int32_t rack = -1, zone = -1, cluster = -1;
};

Where whereOf(const Topology& t, const ComponentRef& part) {
    Where w;
    std::int32_t host = -1;
    switch (part.kind) {
        case ComponentKind::Gpu:
            if (inRange(part.index, t.gpus.size())) host = t.gpus[static_cast<std::size_t>(part.index)].host;
            break;
        case ComponentKind::Host: host = part.index; break;
        case ComponentKind::Nic:
            if (inRange(part.index, t.nics.size())) host = t.nics[static_cast<std::size_t>(part.index)].host;
            break;
        case ComponentKind::Link:
            // A cable is where its lower end is: the NIC's rack, or the lower switch.
            if (inRange(part.index, t.links.size())) {
                const Link& l = t.links[static_cast<std::size_t>(part.index)];
                return whereOf(t, {l.lower.kind == NodeKind::Nic ? ComponentKind::Nic : ComponentKind::Switch, l.lower.index});
            }
            return w;
        case ComponentKind::Switch:
            if (!inRange(part.index, t.switches.size())) return w;
            {
                const Switch& s = t.switches[static_cast<std::size_t>(part.index)];
                w.rack = inRange(s.rack, t.racks.size()) ? s.rack : -1;
                w.zone = inRange(s.zone, t.zones.size()) ? s.zone : -1;
                w.cluster = s.cluster;
            }
            return w;
        case ComponentKind::None: return w;
    }
    if (!inRange(host, t.hosts.size())) return w;
    w.rack = t.hosts[static_cast<std::size_t>(host)].rack;
    if (!inRange(w.rack, t.racks.size())) return Where{};
    w.zone = t.racks[static_cast<std::size_t>(w.rack)].zone;
    if (inRange(w.zone, t.zones.size())) w.cluster = t.zones[static_cast<std::size_t>(w.zone)].cluster;
    return w;
}

}  // namespace

std::string partPlace(const Topology& t, const ComponentRef& part) {
    const Where w = whereOf(t, part);
    std::string out;
    auto add = [&](const std::string& s) {
        if (s.empty()) return;
        if (!out.empty()) out += " · ";
        out += s;
    };
    if (t.clusters.size() > 1 && inRange(w.cluster, t.clusters.size())) {
        const Cluster& c = t.clusters[static_cast<std::size_t>(w.cluster)];
        add(c.building);
        add(c.hall);
        add(c.name);
    }
    if (w.zone >= 0) {
        std::string zone = t.zones[static_cast<std::size_t>(w.zone)].name;
        if (w.rack >= 0) zone += (zone.empty() ? "row " : " row ") + std::to_string(t.racks[static_cast<std::size_t>(w.rack)].row);
        add(zone);
    }
    if (w.rack >= 0) add("rack " + t.racks[static_cast<std::size_t>(w.rack)].name);
    return out;
}

std::string incidentPlace(const Run& run, const Incident& incident) {
    if (run.topology.clusters.size() < 2) return {};
    const ComponentRef failed = failedPart(run, incident);
    if (failed.kind != ComponentKind::None) return partPlace(run.topology, failed);
    if (!incident.gpus.empty()) return partPlace(run.topology, {ComponentKind::Gpu, incident.gpus.front()});
    return {};
}

}  // namespace faultline
