#include "views/fabric/fabric_layout.h"

#include "views/fabric/fat_tree_layout.h"
#include "views/fabric/fleet_layout.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>

namespace faultline {

namespace {

constexpr float kGpuWidth = 0.8f;    // a GPU's width along its tray, pitch 1
constexpr float kGpuHeight = 0.72f;
constexpr float kGpuDepth = 0.55f;   // how far a GPU box reaches back from the rack front
constexpr float kRecess = 0.3f;      // the shell's front behind the rack front: GPUs stand out
constexpr float kTrayThickness = 0.12f;
constexpr float kGpuRowPitch = 0.82f;  // GPU rows of one host, one above the other
constexpr float kHostGap = 0.22f;    // between a host's top and the tray above
constexpr float kSidePanel = 0.3f;   // cabinet wall beside the GPUs
constexpr float kLid = 0.25f;        // cabinet above its top host
constexpr float kRackDepth = 2.2f;
constexpr float kLidBand = kRecess;  // the coloured strip of a rack's lid, over the recess its GPUs stand in
constexpr float kRackGap = 0.15f;    // between racks along a row: cabinets stand side by side
constexpr int kMaxGpuColumns = 4;    // GPUs of a host, 4 across its tray in rows (an HGX board's two)
// More cables than this between two tiers would be a blur: draw one bundle per row of
// racks (rack switches) or per zone (cluster switches) instead.
constexpr std::size_t kMaxTierLinks = 256;
constexpr std::size_t kMaxZoneLabels = 64;
constexpr std::size_t kMaxRowLabels = 24;
constexpr std::size_t kMaxRacksForSwitchNames = 64;
constexpr int kMaxFatTreeUnitsInLine = 12;

// The middle of a rack's top back edge: its cables leave there, not across its GPUs.
std::array<float, 3> backEdge(const Box3& b) { return {(b.min[0] + b.max[0]) / 2, b.max[1], b.max[2]}; }

// Sizes shared by every rack and zone, from the largest of each in the topology.
struct Grid {
    int gpuColumns = 1, gpuRowsPerHost = 1, hostsPerRack = 1, racksPerRow = 1, rowsPerZone = 1;
    float hostPitch = 1, rackWidth = 1, rackHeight = 1, aisle = 1, zoneWidth = 1, zoneDepth = 1, zoneGap = 1;
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
    g.hostPitch = kTrayThickness + static_cast<float>(g.gpuRowsPerHost) * kGpuRowPitch + kHostGap;
    g.rackWidth = static_cast<float>(g.gpuColumns) + 2 * kSidePanel;
    g.rackHeight = static_cast<float>(g.hostsPerRack) * g.hostPitch + kLid;
    // An aisle as wide as the racks are tall: from the default camera's height the row
    // in front hides none of the next row's GPUs.
    g.aisle = std::max(2.5f, 1.1f * g.rackHeight);
    g.zoneWidth = static_cast<float>(g.racksPerRow) * (g.rackWidth + kRackGap) - kRackGap;
    g.zoneDepth = static_cast<float>(g.rowsPerZone) * (kRackDepth + g.aisle) - g.aisle;
    g.zoneGap = std::max(8.0f, 0.16f * std::max(g.zoneWidth, g.zoneDepth));  // room for the zone names on the floor
    // Zones in a grid about as wide as a 16:10 screen.
    const auto zones = static_cast<double>(std::max<std::size_t>(1, t.zones.size()));
    const double cols = std::round(std::sqrt(zones * 1.6 * (g.zoneDepth + g.zoneGap) / (g.zoneWidth + g.zoneGap)));
    g.zoneColumns = static_cast<int>(std::clamp(cols, 1.0, zones));
    // A fat tree's units stand in one line under the leaf row, as a network diagram draws them.
    if (t.fabric == FabricKind::InfinibandFatTree) g.zoneColumns = static_cast<int>(std::min<double>(zones, kMaxFatTreeUnitsInLine));
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
    out.zones.resize(t.zones.size());
    for (std::size_t z = 0; z < t.zones.size(); ++z) {
        const auto o = zoneOrigin(g, static_cast<int>(z));
        const float margin = 0.3f * g.aisle;
        out.zones[z] = {{o[0] - margin, o[1] - margin, 0}, {o[0] + g.zoneWidth + margin, o[1] + g.zoneDepth + margin, 0}};
    }
    out.racks.resize(t.racks.size());
    out.cabinets.resize(t.racks.size());
    out.rackTops.resize(t.racks.size());
    for (std::size_t r = 0; r < t.racks.size(); ++r) {
        const Rack& rack = t.racks[r];
        const auto origin = zoneOrigin(g, rack.zone);
        const float x = origin[0] + static_cast<float>(rack.position) * (g.rackWidth + kRackGap);
        // Row 0 at the front of its zone.
        const float y = origin[1] + static_cast<float>(rack.row) * (kRackDepth + g.aisle);
        out.racks[r] = {{x, y, 0}, {x + g.rackWidth, y + kRackDepth, g.rackHeight}};
        out.cabinets[r] = {{x, y + kRecess, 0}, {x + g.rackWidth, y + kRackDepth, g.rackHeight}};
        // The worst state along the lid's front edge, over the GPUs' fronts: from above it tells
        // a rack's state, yet close up a failure is its red GPU, not a red slab the size of the
        // rack (a lid of 4.6 x 2.2 against a GPU front of 0.8 x 0.72).
        out.rackTops[r] = {{x, y, g.rackHeight}, {x + g.rackWidth, y + kLidBand, g.rackHeight + 0.04f}};
    }
    out.hosts.resize(t.hosts.size());
    out.gpus.resize(t.gpus.size());
    std::vector<int> slot(t.racks.size(), 0);
    for (std::size_t h = 0; h < t.hosts.size(); ++h) {
        const Host& host = t.hosts[h];
        const Box3& rack = out.racks[static_cast<std::size_t>(host.rack)];
        const int s = slot[static_cast<std::size_t>(host.rack)]++;
        // Hosts from the top of the rack down, as a rack's slots are usually numbered.
        const float top = g.rackHeight - kLid - static_cast<float>(s) * g.hostPitch;
        const float trayZ = top - g.hostPitch + kHostGap;
        out.hosts[h] = {{rack.min[0] + kSidePanel * 0.5f, rack.min[1], trayZ},
                        {rack.max[0] - kSidePanel * 0.5f, rack.max[1] - 0.1f, trayZ + kTrayThickness}};
        for (int i = 0; i < host.gpuCount; ++i) {
            const float cx = rack.min[0] + kSidePanel + static_cast<float>(i % g.gpuColumns) + 0.5f;
            const float z0 = trayZ + kTrayThickness + static_cast<float>(i / g.gpuColumns) * kGpuRowPitch;
            out.gpus[static_cast<std::size_t>(host.firstGpu + i)] = {{cx - kGpuWidth / 2, rack.min[1] + 0.02f, z0},
                                                                     {cx + kGpuWidth / 2, rack.min[1] + 0.02f + kGpuDepth, z0 + kGpuHeight}};
        }
    }
}

void placeSwitches(const Topology& t, const Grid& g, FabricLayout& out) {
    out.switches.resize(t.switches.size());
    std::map<int, std::vector<std::int32_t>> clusterByZone;
    std::vector<std::int32_t> aggregation;
    for (std::size_t i = 0; i < t.switches.size(); ++i) {
        const Switch& s = t.switches[i];
        const auto index = static_cast<std::int32_t>(i);
        if (s.tier == SwitchTier::Rack && s.rack >= 0) {
            // On top of its rack, at the back, leaving the front of the lid to show its state.
            const Box3& rack = out.racks[static_cast<std::size_t>(s.rack)];
            out.switches[i] = {{rack.min[0] + 0.35f, rack.min[1] + kRackDepth * 0.5f, rack.max[2] + 0.04f},
                               {rack.max[0] - 0.35f, rack.max[1] - 0.1f, rack.max[2] + 0.5f}};
        } else if (s.tier != SwitchTier::Aggregation && s.zone >= 0) {
            clusterByZone[s.zone].push_back(index);  // a rack switch without a rack joins its zone's row
        } else {
            aggregation.push_back(index);
        }
    }
    for (const auto& [zone, members] : clusterByZone) {
        // Network racks standing in a column beside the zone's rows, on its left: beside the
        // GPUs, never in front of them, and plainly that zone's.
        const auto origin = zoneOrigin(g, zone);
        const float pitch = g.zoneDepth / static_cast<float>(members.size());
        const float depth = std::min(kRackDepth, 0.8f * pitch);
        const float x1 = origin[0] - 0.25f * g.zoneGap;
        for (std::size_t i = 0; i < members.size(); ++i) {
            const float y = origin[1] + pitch * (static_cast<float>(i) + 0.5f);
            out.switches[static_cast<std::size_t>(members[i])] = {{x1 - 1.4f, y - depth / 2, 0}, {x1, y + depth / 2, g.rackHeight}};
        }
    }
    // The aggregation tier: a row of network racks behind the whole hall, taller than the rest.
    const float width = out.bounds.max[0] - out.bounds.min[0];
    const auto c = out.bounds.centre();
    const float y = out.bounds.max[1] + 0.5f * g.zoneGap + kRackDepth;
    const auto n = static_cast<float>(aggregation.size());
    const float span = std::max((n - 1) * 2.2f, std::min(width * 0.8f, n * 3.0f));
    for (std::size_t i = 0; i < aggregation.size(); ++i) {
        const float x = n <= 1 ? c[0] : c[0] - span / 2 + span * static_cast<float>(i) / (n - 1);
        out.switches[static_cast<std::size_t>(aggregation[i])] = {{x - 0.9f, y - kRackDepth / 2, 0}, {x + 0.9f, y + kRackDepth / 2, 1.3f * g.rackHeight}};
    }
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
            // A rack's own switch sits on it: its cables would be invisible stubs.
            if (t.switches[static_cast<std::size_t>(l.upper.index)].rack == static_cast<std::int32_t>(rack)) continue;
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
            // On the floor in front of the zone, as a hall's areas are marked.
            const Box3& area = out.zones[z];
            out.labels.push_back({t.zones[z].name, {(area.min[0] + area.max[0]) / 2, area.min[1] - 0.05f * g.zoneGap, 0}, true, LabelKind::Zone});
        }
    if (t.zones.size() * static_cast<std::size_t>(g.rowsPerZone) <= kMaxRowLabels)
        for (std::size_t z = 0; z < t.zones.size(); ++z)
            for (int row = 0; row < g.rowsPerZone; ++row) {
                const auto origin = zoneOrigin(g, static_cast<int>(z));
                const float y = origin[1] + static_cast<float>(row) * (kRackDepth + g.aisle) + kRackDepth / 2;
                out.labels.push_back({"row " + std::to_string(row), {origin[0] + g.zoneWidth + 2.0f, y, 0}, false, LabelKind::Row});
            }
    // Each tier named once, beside its first switch, and the few top switches by name.
    std::array<bool, 3> named{};
    for (std::size_t i = 0; i < t.switches.size(); ++i) {
        const Switch& s = t.switches[i];
        const auto tier = static_cast<std::size_t>(s.tier);
        const Box3& b = out.switches[i];
        if (s.tier != SwitchTier::Rack && !named[tier]) {
            named[tier] = true;
            out.labels.push_back({switchTierName(s.tier, t.fabric), {(b.min[0] + b.max[0]) / 2, b.max[1], b.max[2] + 1.5f}, false, LabelKind::Tier});
        }
        // Names that fit: over a small hall's few aggregation racks, not a big one's crowd.
        if (s.tier == SwitchTier::Aggregation && t.switchCount(SwitchTier::Aggregation) <= kMaxNamedSwitches && t.racks.size() <= kMaxRacksForSwitchNames)
            out.labels.push_back({s.name, {(b.min[0] + b.max[0]) / 2, b.min[1], b.max[2] + 0.5f}, false, LabelKind::Switch});
    }
}

}  // namespace

FabricLayout layoutFabric(const Topology& topology) {
    if (topology.clusters.size() > 1) return layoutFleet(topology);
    FabricLayout out;
    const Grid g = measure(topology);
    placeRacksHostsGpus(topology, g, out);
    Box3 floor{{0, 0, 0}, {0, 0, g.rackHeight}};
    if (!out.zones.empty()) floor = {out.zones.front().min, {out.zones.front().max[0], out.zones.front().max[1], g.rackHeight}};
    for (const Box3& z : out.zones)
        for (std::size_t k = 0; k < 2; ++k) {
            floor.min[k] = std::min(floor.min[k], z.min[k]);
            floor.max[k] = std::max(floor.max[k], z.max[k]);
        }
    out.bounds = floor;
    if (topology.fabric == FabricKind::InfinibandFatTree) {
        placeFatTree(topology, g.rackHeight, out);
    } else {
        placeSwitches(topology, g, out);
        addLinks(topology, out);
        addLabels(topology, g, out);
    }
    for (const Box3& s : out.switches)
        for (std::size_t k = 0; k < 3; ++k) {
            out.bounds.min[k] = std::min(out.bounds.min[k], s.min[k]);
            out.bounds.max[k] = std::max(out.bounds.max[k], s.max[k]);
        }
    // Every label is part of the picture too: the zone names in front, the tier names beside.
    for (const Label3& l : out.labels) {
        out.bounds.min[0] = std::min(out.bounds.min[0], l.at[0] - 2.0f);
        out.bounds.min[1] = std::min(out.bounds.min[1], l.at[1] - 1.0f);
        out.bounds.max[2] = std::max(out.bounds.max[2], l.at[2]);
    }
    return out;
}

}  // namespace faultline
