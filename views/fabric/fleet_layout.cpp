#include "views/fabric/fleet_layout.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

namespace faultline {

namespace {

// A hall's upper-tier cables as the fleet's farthest view draws them: those whose two ends
// lie in the same cells of a grid of kFleetLinkCellsAcross cells across the hall become one line,
// from the mean of their lower ends to the mean of their upper ends.
void addFleetLinks(const FabricLayout& hall, std::vector<Segment3>& out) {
    const Box3& b = hall.bounds;
    const float cell = std::max({b.max[0] - b.min[0], b.max[1] - b.min[1], 1.0f}) / kFleetLinkCellsAcross;
    auto cellOf = [&](const std::array<float, 3>& p) {
        std::array<std::int64_t, 3> c{};
        for (std::size_t k = 0; k < 3; ++k) c[k] = static_cast<std::int64_t>(std::floor((p[k] - b.min[k]) / cell));
        return c;
    };
    struct Merged {
        std::array<float, 3> a{}, b{};
        float n = 0;
    };
    std::map<std::pair<std::array<std::int64_t, 3>, std::array<std::int64_t, 3>>, Merged> merged;
    for (const std::vector<Segment3>* lines : {&hall.links, &hall.farLinks})
        for (const Segment3& s : *lines) {
            Merged& m = merged[{cellOf(s.a), cellOf(s.b)}];
            for (std::size_t k = 0; k < 3; ++k) m.a[k] += s.a[k], m.b[k] += s.b[k];
            m.n += 1;
        }
    for (const auto& [cells, m] : merged) out.push_back({{m.a[0] / m.n, m.a[1] / m.n, m.a[2] / m.n}, {m.b[0] / m.n, m.b[1] / m.n, m.b[2] / m.n}});
}

constexpr float kHallGap = 40.0f;      // between the halls of a building
constexpr float kBuildingGap = 120.0f;  // between buildings

// The first and one-past-last index of a cluster's parts in one table.
struct Span {
    std::int32_t first = -1, end = -1;
    bool add(std::int32_t i) {
        if (first < 0) first = i;
        else if (i != end) return false;  // not contiguous
        end = i + 1;
        return true;
    }
    std::int32_t size() const { return first < 0 ? 0 : end - first; }
};

struct ClusterSpans {
    Span zones, racks, hosts, gpus, nics, switches, links;
};

std::optional<ClusterSpans> spansOf(const Topology& t, std::int32_t c) {
    ClusterSpans s;
    bool ok = true;
    for (std::size_t i = 0; i < t.zones.size(); ++i)
        if (t.zones[i].cluster == c) ok &= s.zones.add(static_cast<std::int32_t>(i));
    for (std::size_t i = 0; i < t.racks.size(); ++i)
        if (t.zones[static_cast<std::size_t>(t.racks[i].zone)].cluster == c) ok &= s.racks.add(static_cast<std::int32_t>(i));
    for (std::size_t i = 0; i < t.hosts.size(); ++i)
        if (t.clusterOfHost(static_cast<std::int32_t>(i)) == c) {
            ok &= s.hosts.add(static_cast<std::int32_t>(i));
            for (int g = 0; g < t.hosts[i].gpuCount; ++g) ok &= s.gpus.add(t.hosts[i].firstGpu + g);
            for (int n = 0; n < t.hosts[i].nicCount; ++n) ok &= s.nics.add(t.hosts[i].firstNic + n);
        }
    for (std::size_t i = 0; i < t.switches.size(); ++i)
        if (t.switches[i].cluster == c) ok &= s.switches.add(static_cast<std::int32_t>(i));
    for (std::size_t i = 0; i < t.links.size(); ++i)
        if (t.switches[static_cast<std::size_t>(t.links[i].upper.index)].cluster == c) ok &= s.links.add(static_cast<std::int32_t>(i));
    if (!ok) return std::nullopt;
    return s;
}

void shift(Box3& b, float dx, float dy) {
    b.min[0] += dx, b.max[0] += dx, b.min[1] += dy, b.max[1] += dy;
}
void shift(std::array<float, 3>& p, float dx, float dy) { p[0] += dx, p[1] += dy; }

template <typename T>
void append(std::vector<T>& to, std::vector<T>& from) {
    to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
}

}  // namespace

std::optional<Topology> clusterTopology(const Topology& t, std::int32_t c) {
    const auto spans = spansOf(t, c);
    if (!spans) return std::nullopt;
    const ClusterSpans& s = *spans;
    const std::int32_t zone0 = s.zones.first, rack0 = s.racks.first, host0 = s.hosts.first, gpu0 = s.gpus.first, nic0 = s.nics.first, sw0 = s.switches.first;
    Topology out;
    out.fabric = t.fabricOfCluster(c);
    for (std::int32_t i = s.zones.first; i < s.zones.end; ++i) out.zones.push_back({t.zones[static_cast<std::size_t>(i)].name, 0});
    for (std::int32_t i = s.racks.first; i < s.racks.end; ++i) {
        Rack r = t.racks[static_cast<std::size_t>(i)];
        r.zone -= zone0;
        out.racks.push_back(std::move(r));
    }
    for (std::int32_t i = s.hosts.first; i < s.hosts.end; ++i) {
        Host h = t.hosts[static_cast<std::size_t>(i)];
        h.rack -= rack0, h.firstGpu -= gpu0, h.firstNic -= nic0;
        out.hosts.push_back(std::move(h));
    }
    for (std::int32_t i = s.gpus.first; i < s.gpus.end; ++i) {
        Gpu g = t.gpus[static_cast<std::size_t>(i)];
        g.host -= host0;
        out.gpus.push_back(std::move(g));
    }
    for (std::int32_t i = s.nics.first; i < s.nics.end; ++i) out.nics.push_back({t.nics[static_cast<std::size_t>(i)].host - host0, t.nics[static_cast<std::size_t>(i)].index});
    for (std::int32_t i = s.switches.first; i < s.switches.end; ++i) {
        Switch w = t.switches[static_cast<std::size_t>(i)];
        if (w.zone >= 0) w.zone -= zone0;
        if (w.rack >= 0) w.rack -= rack0;
        w.cluster = 0;
        out.switches.push_back(std::move(w));
    }
    auto moved = [&](LinkEnd e) { return LinkEnd{e.kind, e.index - (e.kind == NodeKind::Nic ? nic0 : sw0)}; };
    for (std::int32_t i = s.links.first; i < s.links.end; ++i)
        out.links.push_back({moved(t.links[static_cast<std::size_t>(i)].lower), moved(t.links[static_cast<std::size_t>(i)].upper)});
    return out;
}

FabricLayout layoutFleet(const Topology& t) {
    // Each cluster laid out alone, then moved to its place: halls of a building side by side
    // (a row), buildings one behind another in the order they first appear, the first in
    // front: from the default camera, in front and above, the fleet reads like a site plan.
    std::vector<FabricLayout> halls;
    for (std::int32_t c = 0; c < static_cast<std::int32_t>(t.clusters.size()); ++c) {
        auto part = clusterTopology(t, c);
        if (!part) {  // parts interleaved: no hall of its own to draw
            Topology whole = t;
            whole.clusters.clear();
            for (Zone& z : whole.zones) z.cluster = 0;
            for (Switch& s : whole.switches) s.cluster = 0;
            return layoutFabric(whole);
        }
        halls.push_back(layoutFabric(*part));
    }
    std::vector<std::string> buildings;
    std::map<std::string, std::vector<std::size_t>> hallsOf;
    for (std::size_t c = 0; c < t.clusters.size(); ++c) {
        if (!hallsOf.contains(t.clusters[c].building)) buildings.push_back(t.clusters[c].building);
        hallsOf[t.clusters[c].building].push_back(c);
    }
    FabricLayout out;
    out.labels.clear();
    std::vector<std::array<float, 2>> offset(halls.size());
    float y = 0;
    for (const std::string& building : buildings) {
        float x = 0, depth = 0, height = 0;
        for (std::size_t c : hallsOf[building]) {
            const Box3& b = halls[c].bounds;
            offset[c] = {x - b.min[0], y - b.min[1]};
            x += (b.max[0] - b.min[0]) + kHallGap;
            depth = std::max(depth, b.max[1] - b.min[1]);
            height = std::max(height, b.max[2] - b.min[2]);
        }
        // The building's name on the floor in front of its halls, at their left.
        out.labels.push_back({building, {0.0f, y - 0.3f * kHallGap, 0}, true, LabelKind::Hall});
        // The next building stands behind this one's tallest tier of switches: seen from the
        // front at 45 degrees or higher, a fat tree's spines and cabling stay in front of the
        // next building's racks instead of drawn over them.
        y += depth + std::max(kBuildingGap, height + kHallGap);
    }
    bool first = true;
    for (std::size_t c = 0; c < halls.size(); ++c) {
        FabricLayout& h = halls[c];
        const auto [dx, dy] = offset[c];
        for (auto* boxes : {&h.gpus, &h.hosts, &h.racks, &h.cabinets, &h.rackTops, &h.zones, &h.switches})
            for (Box3& b : *boxes) shift(b, dx, dy);
        for (auto* lines : {&h.rackLinks, &h.links, &h.nearLinks, &h.farLinks})
            for (Segment3& s : *lines) shift(s.a, dx, dy), shift(s.b, dx, dy);
        shift(h.bounds, dx, dy);
        // Each hall named once with its cluster and fabric; the zones' own names would crowd it.
        const Cluster& cluster = t.clusters[c];
        out.labels.push_back({cluster.hall + ": " + cluster.name + " (" + fabricKindName(cluster.fabric) + ")",
                              {(h.bounds.min[0] + h.bounds.max[0]) / 2, h.bounds.min[1] + 2.0f, 0}, true, LabelKind::Hall});
        for (Label3& l : h.labels)
            if (l.kind == LabelKind::Tier && first) out.labels.push_back(std::move(l));
        first = false;
        append(out.gpus, h.gpus), append(out.hosts, h.hosts), append(out.racks, h.racks), append(out.cabinets, h.cabinets);
        append(out.rackTops, h.rackTops), append(out.zones, h.zones), append(out.switches, h.switches);
        addFleetLinks(h, out.fleetLinks);
        append(out.rackLinks, h.rackLinks), append(out.links, h.links), append(out.nearLinks, h.nearLinks), append(out.farLinks, h.farLinks);
        if (c == 0) out.bounds = h.bounds;
        for (std::size_t k = 0; k < 3; ++k) {
            out.bounds.min[k] = std::min(out.bounds.min[k], h.bounds.min[k]);
            out.bounds.max[k] = std::max(out.bounds.max[k], h.bounds.max[k]);
        }
        out.gpuPitch = h.gpuPitch;
    }
    out.bounds.min[1] = std::min(out.bounds.min[1], -0.3f * kHallGap - 1.0f);
    out.bounds.min[0] = std::min(out.bounds.min[0], -1.0f);
    return out;
}

}  // namespace faultline
