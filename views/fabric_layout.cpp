#include "fabric_layout.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>

namespace faultline {

namespace {

constexpr float kGpuSize = 0.8f;     // a GPU box's footprint side, pitch 1
constexpr float kGpuHeight = 0.5f;
constexpr float kHostGap = 0.4f;     // between hosts in a rack
constexpr float kRackGap = 1.0f;     // between racks along a row
constexpr float kAisle = 2.5f;       // between rows
constexpr int kMaxGpuColumns = 4;    // GPUs of a host, 4 wide (an HGX board's two rows)
// More cables than this between two tiers would be a blur: draw one bundle per row of
// racks (rack switches) or per zone (cluster switches) instead.
constexpr std::size_t kMaxTierLinks = 256;
constexpr std::size_t kMaxZoneLabels = 64;
constexpr std::size_t kMaxNamedSwitches = 16;
constexpr std::size_t kMaxRowLabels = 24;

Box3 boxAround(std::array<float, 3> c, float sx, float sy, float sz) {
    return {{c[0] - sx / 2, c[1] - sy / 2, c[2] - sz / 2}, {c[0] + sx / 2, c[1] + sy / 2, c[2] + sz / 2}};
}

// The middle of a rack's back edge: its cables leave there, not across its GPUs.
std::array<float, 3> backEdge(const Box3& b) { return {(b.min[0] + b.max[0]) / 2, b.max[1], b.max[2]}; }

// Sizes shared by every rack and zone, from the largest of each in the topology.
struct Grid {
    int gpuColumns = 1, gpuRowsPerHost = 1, hostsPerRack = 1, racksPerRow = 1, rowsPerZone = 1;
    float hostDepth = 1, rackWidth = 1, rackDepth = 1, zoneWidth = 1, zoneDepth = 1, zoneGap = 1;
    int zoneColumns = 1, zoneRows = 1;
};

Grid measure(const Topology& t) {
    Grid g;
    int maxGpus = 1;
    std::vector<int> hostsInRack(t.racks.size(), 0);
    for (const Host& h : t.hosts) {
        maxGpus = std::max(maxGpus, h.gpuCount);
        g.hostsPerRack = std::max(g.hostsPerRack, ++hostsInRack[static_cast<std::size_t>(h.rack)]);
    }
    for (const Rack& r : t.racks) {
        g.racksPerRow = std::max(g.racksPerRow, r.position + 1);
        g.rowsPerZone = std::max(g.rowsPerZone, r.row + 1);
    }
    g.gpuColumns = std::min(maxGpus, kMaxGpuColumns);
    g.gpuRowsPerHost = (maxGpus + g.gpuColumns - 1) / g.gpuColumns;
    g.hostDepth = static_cast<float>(g.gpuRowsPerHost);
    g.rackWidth = static_cast<float>(g.gpuColumns);
    g.rackDepth = static_cast<float>(g.hostsPerRack) * g.hostDepth + static_cast<float>(g.hostsPerRack - 1) * kHostGap;
    g.zoneWidth = static_cast<float>(g.racksPerRow) * (g.rackWidth + kRackGap) - kRackGap;
    g.zoneDepth = static_cast<float>(g.rowsPerZone) * (g.rackDepth + kAisle) - kAisle;
    g.zoneGap = 2 * std::max(g.rackWidth, g.rackDepth) + 4;
    // Zones in a grid about as wide as a 16:10 screen.
    const auto zones = static_cast<double>(std::max<std::size_t>(1, t.zones.size()));
    const double cols = std::round(std::sqrt(zones * 1.6 * (g.zoneDepth + g.zoneGap) / (g.zoneWidth + g.zoneGap)));
    g.zoneColumns = static_cast<int>(std::clamp(cols, 1.0, zones));
    g.zoneRows = static_cast<int>((zones + g.zoneColumns - 1) / g.zoneColumns);
    return g;
}

// The front-left corner of a zone; zone 0 at the back left, so a top view reads like a page.
std::array<float, 2> zoneOrigin(const Grid& g, int zone) {
    const int col = zone % g.zoneColumns;
    const int row = zone / g.zoneColumns;
    return {static_cast<float>(col) * (g.zoneWidth + g.zoneGap),
            static_cast<float>(g.zoneRows - 1 - row) * (g.zoneDepth + g.zoneGap)};
}

void placeRacksHostsGpus(const Topology& t, const Grid& g, FabricLayout& out) {
    out.racks.resize(t.racks.size());
    for (std::size_t r = 0; r < t.racks.size(); ++r) {
        const Rack& rack = t.racks[r];
        const auto origin = zoneOrigin(g, rack.zone);
        const float x = origin[0] + static_cast<float>(rack.position) * (g.rackWidth + kRackGap);
        const float y = origin[1] + static_cast<float>(g.rowsPerZone - 1 - rack.row) * (g.rackDepth + kAisle);
        out.racks[r] = {{x, y, 0}, {x + g.rackWidth, y + g.rackDepth, kGpuHeight}};
    }
    out.hosts.resize(t.hosts.size());
    out.gpus.resize(t.gpus.size());
    std::vector<int> slot(t.racks.size(), 0);
    for (std::size_t h = 0; h < t.hosts.size(); ++h) {
        const Host& host = t.hosts[h];
        const Box3& rack = out.racks[static_cast<std::size_t>(host.rack)];
        const int s = slot[static_cast<std::size_t>(host.rack)]++;
        // Hosts from the back of the rack's footprint to the front.
        const float y1 = rack.max[1] - static_cast<float>(s) * (g.hostDepth + kHostGap);
        const float y0 = y1 - g.hostDepth;
        out.hosts[h] = {{rack.min[0], y0, 0}, {rack.max[0], y1, kGpuHeight}};
        for (int i = 0; i < host.gpuCount; ++i) {
            const float cx = rack.min[0] + static_cast<float>(i % g.gpuColumns) + 0.5f;
            const float cy = y1 - static_cast<float>(i / g.gpuColumns) - 0.5f;
            out.gpus[static_cast<std::size_t>(host.firstGpu + i)] = boxAround({cx, cy, kGpuHeight / 2}, kGpuSize, kGpuSize, kGpuHeight);
        }
    }
}

// Switches of one tier evenly along a line centred on `centre`, `span` long.
void placeRow(const std::vector<std::int32_t>& members, std::array<float, 3> centre, float span, float size,
              FabricLayout& out) {
    const auto n = static_cast<float>(members.size());
    span = std::max(span, (n - 1) * size * 1.5f);  // a small cluster's row still keeps them apart
    for (std::size_t i = 0; i < members.size(); ++i) {
        const float x = n <= 1 ? centre[0] : centre[0] - span / 2 + span * static_cast<float>(i) / (n - 1);
        out.switches[static_cast<std::size_t>(members[i])] = boxAround({x, centre[1], centre[2]}, size, size, size / 2);
    }
}

void placeSwitches(const Topology& t, const Grid& g, FabricLayout& out, float clusterHeight, float aggregationHeight) {
    out.switches.resize(t.switches.size());
    std::map<int, std::vector<std::int32_t>> clusterByZone;
    std::vector<std::int32_t> aggregation;
    for (std::size_t i = 0; i < t.switches.size(); ++i) {
        const Switch& s = t.switches[i];
        const auto index = static_cast<std::int32_t>(i);
        if (s.tier == SwitchTier::Rack && s.rack >= 0) {
            // Over the back edge of its rack, so that it hides none of the rack's GPUs.
            const Box3& rack = out.racks[static_cast<std::size_t>(s.rack)];
            out.switches[i] = boxAround({(rack.min[0] + rack.max[0]) / 2, rack.max[1] + 0.3f, 1.2f}, g.rackWidth * 0.8f, 0.4f, 0.3f);
        } else if (s.tier != SwitchTier::Aggregation && s.zone >= 0) {
            clusterByZone[s.zone].push_back(index);  // a rack switch without a rack joins its zone's row
        } else {
            aggregation.push_back(index);
        }
    }
    for (const auto& [zone, members] : clusterByZone) {
        const auto origin = zoneOrigin(g, zone);
        const float size = std::clamp(g.zoneWidth / (3.0f * static_cast<float>(members.size())), 0.5f, 4.0f);
        // Behind the zone's back row, so that seen from the front they hide none of its GPUs.
        placeRow(members, {origin[0] + g.zoneWidth / 2, origin[1] + g.zoneDepth + g.zoneGap * 0.45f, clusterHeight}, g.zoneWidth * 0.8f, size, out);
    }
    const float width = out.bounds.max[0] - out.bounds.min[0];
    const float size = std::clamp(width / (6.0f * static_cast<float>(std::max<std::size_t>(1, aggregation.size()))), 0.8f, 4.0f);
    const auto c = out.bounds.centre();
    // Behind everything below it, cluster switches included.
    float behind = out.bounds.max[1];
    for (const auto& [zone, members] : clusterByZone)
        for (std::int32_t m : members) behind = std::max(behind, out.switches[static_cast<std::size_t>(m)].max[1]);
    behind += 0.1f * width + size;
    placeRow(aggregation, {c[0], behind, aggregationHeight}, width * 0.6f, size, out);
}

void addLinks(const Topology& t, FabricLayout& out) {
    // A rack's NIC cables to a switch are one line from the rack to that switch.
    std::vector<std::uint64_t> rackToSwitch;
    // Switch-to-switch cables, by the tier of their lower end.
    std::array<std::vector<std::pair<std::int32_t, std::int32_t>>, 3> byTier;
    for (const Link& l : t.links) {
        if (l.upper.kind != NodeKind::Switch) continue;
        if (l.lower.kind == NodeKind::Nic) {
            const auto rack = static_cast<std::uint64_t>(t.hosts[static_cast<std::size_t>(t.nics[static_cast<std::size_t>(l.lower.index)].host)].rack);
            rackToSwitch.push_back(rack << 32 | static_cast<std::uint32_t>(l.upper.index));
        } else {
            const auto tier = static_cast<std::size_t>(t.switches[static_cast<std::size_t>(l.lower.index)].tier);
            byTier[tier].push_back({l.lower.index, l.upper.index});
        }
    }
    std::sort(rackToSwitch.begin(), rackToSwitch.end());
    rackToSwitch.erase(std::unique(rackToSwitch.begin(), rackToSwitch.end()), rackToSwitch.end());
    for (std::uint64_t key : rackToSwitch)
        out.rackLinks.push_back({backEdge(out.racks[static_cast<std::size_t>(key >> 32)]),
                                 out.switches[static_cast<std::size_t>(key & 0xffffffffu)].centre()});
    for (std::size_t tier = 0; tier < byTier.size(); ++tier) {
        auto& cables = byTier[tier];
        auto& lines = tier == static_cast<std::size_t>(SwitchTier::Rack) ? out.rackLinks : out.links;
        if (cables.size() <= kMaxTierLinks) {
            for (auto [lower, upper] : cables)
                lines.push_back({out.switches[static_cast<std::size_t>(lower)].centre(), out.switches[static_cast<std::size_t>(upper)].centre()});
            continue;
        }
        // One line per bundle: from the middle of a row's rack switches (or a zone's cluster
        // switches) to the middle of the switches they connect to.
        std::map<std::int64_t, std::pair<std::array<float, 4>, std::array<float, 4>>> bundles;
        for (auto [lower, upper] : cables) {
            const Switch& s = t.switches[static_cast<std::size_t>(lower)];
            const std::int64_t key = s.rack >= 0 ? (std::int64_t{s.zone} << 32 | t.racks[static_cast<std::size_t>(s.rack)].row) : (std::int64_t{s.zone} << 32 | 0xffffffff);
            auto& [from, to] = bundles[key];
            const auto a = out.switches[static_cast<std::size_t>(lower)].centre();
            const auto b = out.switches[static_cast<std::size_t>(upper)].centre();
            for (std::size_t k = 0; k < 3; ++k) {
                from[k] += a[k];
                to[k] += b[k];
            }
            from[3] += 1;
            to[3] += 1;
        }
        for (const auto& [key, ends] : bundles) {
            const auto& [from, to] = ends;
            lines.push_back({{from[0] / from[3], from[1] / from[3], from[2] / from[3]}, {to[0] / to[3], to[1] / to[3], to[2] / to[3]}});
        }
    }
}

void addLabels(const Topology& t, const Grid& g, FabricLayout& out) {
    if (t.zones.size() <= kMaxZoneLabels)
        for (std::size_t z = 0; z < t.zones.size(); ++z) {
            const auto origin = zoneOrigin(g, static_cast<int>(z));
            out.labels.push_back({t.zones[z].name, {origin[0] + g.zoneWidth / 2, origin[1] - 2.0f, 0}});
        }
    if (t.zones.size() * static_cast<std::size_t>(g.rowsPerZone) <= kMaxRowLabels)
        for (std::size_t z = 0; z < t.zones.size(); ++z)
            for (int row = 0; row < g.rowsPerZone; ++row) {
                const auto origin = zoneOrigin(g, static_cast<int>(z));
                const float y = origin[1] + static_cast<float>(g.rowsPerZone - 1 - row) * (g.rackDepth + kAisle) + g.rackDepth / 2;
                out.labels.push_back({"row " + std::to_string(row), {origin[0] - 2.5f, y, 0}});
            }
    // Each tier named once at the left end of its line, and the few top switches by name.
    std::array<bool, 3> named{};
    for (std::size_t i = 0; i < t.switches.size(); ++i) {
        const Switch& s = t.switches[i];
        const auto tier = static_cast<std::size_t>(s.tier);
        const Box3& b = out.switches[i];
        if (s.tier != SwitchTier::Rack && !named[tier]) {
            named[tier] = true;
            out.labels.push_back({switchTierName(s.tier), {b.min[0] - 3.0f * (b.max[0] - b.min[0]), b.min[1], b.min[2]}});
        }
        if (s.tier == SwitchTier::Aggregation && t.switchCount(SwitchTier::Aggregation) <= kMaxNamedSwitches)
            out.labels.push_back({s.name, {b.min[0], b.min[1], b.max[2] + 1.0f}});
    }
}

}  // namespace

FabricLayout layoutFabric(const Topology& topology) {
    FabricLayout out;
    const Grid g = measure(topology);
    placeRacksHostsGpus(topology, g, out);
    Box3 floor{{0, 0, 0}, {0, 0, kGpuHeight}};
    if (!out.racks.empty()) floor = out.racks.front();
    for (const Box3& r : out.racks)
        for (std::size_t k = 0; k < 2; ++k) {
            floor.min[k] = std::min(floor.min[k], r.min[k]);
            floor.max[k] = std::max(floor.max[k], r.max[k]);
        }
    out.bounds = floor;
    // Tiers rise with the cluster's size so they stay apart in a view that fits it all.
    const float extent = std::max(floor.max[0] - floor.min[0], floor.max[1] - floor.min[1]);
    const float clusterHeight = 3.0f + 0.04f * extent;
    const float aggregationHeight = clusterHeight + 4.0f + 0.12f * extent;
    placeSwitches(topology, g, out, clusterHeight, aggregationHeight);
    addLinks(topology, out);
    addLabels(topology, g, out);
    for (const Box3& s : out.switches)
        for (std::size_t k = 0; k < 3; ++k) {
            out.bounds.min[k] = std::min(out.bounds.min[k], s.min[k]);
            out.bounds.max[k] = std::max(out.bounds.max[k], s.max[k]);
        }
    // The zone names in front of the zones are part of the picture too.
    for (const Label3& l : out.labels) out.bounds.min[1] = std::min(out.bounds.min[1], l.at[1] - 1.0f);
    return out;
}

}  // namespace faultline
