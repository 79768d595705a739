#include "views/fabric/fat_tree_layout.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>

namespace faultline {

namespace {

constexpr float kLeafHeight = 1.8f;
constexpr float kSpineHeight = 2.6f;
constexpr float kMaxLeafWidth = 3.6f;
constexpr float kMaxSpineWidth = 6.0f;
constexpr float kSpinePitch = 24.0f;
// More switch pairs than this between two tiers would be a blur: one line per unit instead.
constexpr std::size_t kMaxPairs = 128;
// More unit-to-switch bundles than this are a wall too: the upper row is then taken in groups.
constexpr std::size_t kMaxBundles = 1024;

std::array<float, 3> topCentre(const Box3& b) { return {(b.min[0] + b.max[0]) / 2, (b.min[1] + b.max[1]) / 2, b.max[2]}; }
std::array<float, 3> bottomCentre(const Box3& b) { return {(b.min[0] + b.max[0]) / 2, (b.min[1] + b.max[1]) / 2, b.min[2]}; }

// The part of a name that tells switches apart: "MF0;A10-P1-IBSPINE-02" -> "A10-P1-IBSPINE-02".
std::string shortName(const std::string& name) { return name.substr(name.find(';') == std::string::npos ? 0 : name.find(';') + 1); }

struct Rows {
    float leafZ = 0, spineZ = 0, coreZ = 0;  // the bottom of each tier's boxes
    float y0 = 0, y1 = 0;                    // the racks' depth: every tier stands in their plane
};

Box3 box(float cx, float width, float z, float height, const Rows& r) { return {{cx - width / 2, r.y0, z}, {cx + width / 2, r.y1, z + height}}; }

// Switches spread evenly over [x0, x1], in the given order.
void spread(const std::vector<std::int32_t>& members, float x0, float x1, float z, float height, float maxWidth, const Rows& r, FabricLayout& out) {
    if (members.empty()) return;
    const float pitch = (x1 - x0) / static_cast<float>(members.size());
    const float width = std::min(maxWidth, 0.8f * pitch);
    for (std::size_t i = 0; i < members.size(); ++i)
        out.switches[static_cast<std::size_t>(members[i])] = box(x0 + pitch * (static_cast<float>(i) + 0.5f), width, z, height, r);
}

// A centred row of the upper switches of one tier over most of the hall: every leaf's cables
// fan up to all of them, as a fat tree is drawn.
void upperRow(const std::vector<std::int32_t>& members, float z, const Rows& r, const Box3& floor, FabricLayout& out) {
    const float centre = (floor.min[0] + floor.max[0]) / 2;
    const float span = std::min(0.75f * (floor.max[0] - floor.min[0]), kSpinePitch * static_cast<float>(members.size()));
    spread(members, centre - span / 2, centre + span / 2, z, kSpineHeight, kMaxSpineWidth, r, out);
}

void placeSwitches(const Topology& t, const Rows& rows, const Box3& floor, FabricLayout& out) {
    std::map<std::int32_t, std::vector<std::int32_t>> leavesOfZone;  // rail leaves of a unit, in rail order
    std::vector<std::int32_t> looseLeaves, spines, cores;
    for (std::size_t i = 0; i < t.switches.size(); ++i) {
        const Switch& s = t.switches[i];
        const auto index = static_cast<std::int32_t>(i);
        if (s.tier == SwitchTier::Cluster) spines.push_back(index);
        else if (s.tier == SwitchTier::Aggregation) cores.push_back(index);
        else if (s.rack >= 0) {
            // Over its own rack: the rack's cables go straight up.
            const Box3& rack = out.racks[static_cast<std::size_t>(s.rack)];
            out.switches[i] = box((rack.min[0] + rack.max[0]) / 2, std::min(kMaxLeafWidth, rack.max[0] - rack.min[0]), rows.leafZ, kLeafHeight, rows);
        } else if (s.zone >= 0 && static_cast<std::size_t>(s.zone) < out.zones.size()) leavesOfZone[s.zone].push_back(index);
        else looseLeaves.push_back(index);
    }
    for (auto& [zone, members] : leavesOfZone) {
        std::stable_sort(members.begin(), members.end(), [&](std::int32_t a, std::int32_t b) {
            return t.switches[static_cast<std::size_t>(a)].rail < t.switches[static_cast<std::size_t>(b)].rail;
        });
        const Box3& area = out.zones[static_cast<std::size_t>(zone)];
        // In its unit's plane: where units wrap into more than one line, each line's leaves
        // stand over it, not over the front line's.
        Rows unitRows = rows;
        const float depth = area.min[1] - out.zones.front().min[1];
        unitRows.y0 += depth;
        unitRows.y1 += depth;
        spread(members, area.min[0], area.max[0], rows.leafZ, kLeafHeight, kMaxLeafWidth, unitRows, out);
    }
    spread(looseLeaves, floor.min[0], floor.max[0], rows.leafZ, kLeafHeight, kMaxLeafWidth, rows, out);
    upperRow(spines, rows.spineZ, rows, floor, out);
    upperRow(cores, rows.coreZ, rows, floor, out);
}

// The unit a switch's cables are bundled by when pairs are too many: its zone, else itself.
std::int64_t bundleOf(const Topology& t, std::int32_t sw) {
    const Switch& s = t.switches[static_cast<std::size_t>(sw)];
    return s.zone >= 0 && t.zones.size() > 1 ? s.zone : t.zones.size() + static_cast<std::size_t>(sw);
}

void addCables(const Topology& t, FabricLayout& out) {
    // A rack's NIC cables to a leaf: one line from the rack's top to the leaf.
    std::map<std::pair<std::int32_t, std::int32_t>, int> rackLeaf;
    std::map<std::pair<std::int32_t, std::int32_t>, int> pairs;  // (lower, upper) switch -> cables
    for (const Link& l : t.links) {
        if (l.upper.kind != NodeKind::Switch) continue;
        if (l.lower.kind == NodeKind::Nic) ++rackLeaf[{t.hosts[static_cast<std::size_t>(t.nics[static_cast<std::size_t>(l.lower.index)].host)].rack, l.upper.index}];
        else ++pairs[{l.lower.index, l.upper.index}];
    }
    // Where rail leaves make those a wall from afar, they are drawn only nearer, and one line
    // from the middle of each unit's racks to each of its leaves far away.
    const bool bundled = rackLeaf.size() > kMaxBundles;
    struct UnitToLeaf {
        std::array<float, 3> racks{};
        float n = 0;
    };
    std::map<std::pair<std::int32_t, std::int32_t>, UnitToLeaf> unitLeaf;  // (zone, leaf)
    for (const auto& [key, n] : rackLeaf) {
        const auto rack = static_cast<std::size_t>(key.first);
        const Segment3 line{topCentre(out.racks[rack]), bottomCentre(out.switches[static_cast<std::size_t>(key.second)])};
        (bundled ? out.nearLinks : out.links).push_back(line);
        if (!bundled) continue;
        UnitToLeaf& u = unitLeaf[{t.racks[rack].zone, key.second}];
        for (std::size_t k = 0; k < 3; ++k) u.racks[k] += line.a[k];
        u.n += 1;
    }
    for (const auto& [key, u] : unitLeaf)
        out.farLinks.push_back({{u.racks[0] / u.n, u.racks[1] / u.n, u.racks[2] / u.n}, bottomCentre(out.switches[static_cast<std::size_t>(key.second)])});
    std::map<SwitchTier, std::size_t> pairsByTier;
    for (const auto& [key, n] : pairs) ++pairsByTier[t.switches[static_cast<std::size_t>(key.first)].tier];
    // Many pairs: one line from the middle of each unit's switches to each upper switch. Where
    // even those are a wall (every pod's spines to each of 512 cores), to each of a few groups
    // of the upper row instead.
    auto tierOf = [&](std::int32_t sw) { return t.switches[static_cast<std::size_t>(sw)].tier; };
    std::map<SwitchTier, std::set<std::pair<std::int64_t, std::int32_t>>> unitPairs;
    std::map<SwitchTier, std::set<std::int64_t>> units;
    for (const auto& [key, n] : pairs)
        if (pairsByTier[tierOf(key.first)] > kMaxPairs) {
            unitPairs[tierOf(key.first)].insert({bundleOf(t, key.first), key.second});
            units[tierOf(key.first)].insert(bundleOf(t, key.first));
        }
    std::vector<std::size_t> placeInTier(t.switches.size());
    std::map<SwitchTier, std::size_t> inTier;
    for (std::size_t i = 0; i < t.switches.size(); ++i) placeInTier[i] = inTier[t.switches[i].tier]++;
    struct Bundle {
        std::array<float, 3> lower{}, upper{};
        float n = 0;
    };
    std::map<std::pair<std::int64_t, std::int64_t>, Bundle> bundles;  // (lower unit, upper switch or -1 - group)
    for (const auto& [key, n] : pairs) {
        const auto [lower, upper] = key;
        const auto from = topCentre(out.switches[static_cast<std::size_t>(lower)]);
        const auto to = bottomCentre(out.switches[static_cast<std::size_t>(upper)]);
        const SwitchTier tier = tierOf(lower);
        if (pairsByTier[tier] <= kMaxPairs) {
            out.links.push_back({from, to});
            continue;
        }
        std::int64_t upperKey = upper;
        if (unitPairs[tier].size() > kMaxBundles) {
            const std::size_t groups = std::max<std::size_t>(1, kMaxPairs / units[tier].size());
            upperKey = -1 - static_cast<std::int64_t>(placeInTier[static_cast<std::size_t>(upper)] * groups / inTier[tierOf(upper)]);
        }
        Bundle& b = bundles[{bundleOf(t, lower), upperKey}];
        for (std::size_t k = 0; k < 3; ++k) {
            b.lower[k] += from[k];
            b.upper[k] += to[k];
        }
        b.n += 1;
    }
    for (const auto& [key, b] : bundles)
        out.links.push_back({{b.lower[0] / b.n, b.lower[1] / b.n, b.lower[2] / b.n}, {b.upper[0] / b.n, b.upper[1] / b.n, b.upper[2] / b.n}});
}

void addLabels(const Topology& t, const Box3& floor, FabricLayout& out) {
    for (std::size_t z = 0; z < t.zones.size(); ++z) {
        const Box3& area = out.zones[z];
        out.labels.push_back({t.zones[z].name, {(area.min[0] + area.max[0]) / 2, area.min[1] - 1.0f, 0}, true, LabelKind::Zone});
    }
    // Each tier named once at the left of its row; the few upper switches by name; each rail leaf by its rail.
    std::array<bool, 3> named{};
    for (std::size_t i = 0; i < t.switches.size(); ++i) {
        const Switch& s = t.switches[i];
        const Box3& b = out.switches[i];
        const auto tier = static_cast<std::size_t>(s.tier);
        if (!named[tier]) {
            named[tier] = true;
            const float y = (b.min[1] + b.max[1]) / 2;
            out.labels.push_back({switchTierName(s.tier, t.fabric), {floor.min[0] - 6.0f, y, (b.min[2] + b.max[2]) / 2}, false, LabelKind::Tier});
        }
        if (s.tier != SwitchTier::Rack && t.switchCount(s.tier) <= kMaxNamedSwitches)
            out.labels.push_back({shortName(s.name), {(b.min[0] + b.max[0]) / 2, b.min[1], b.max[2] + 0.8f}, false, LabelKind::Switch});
        if (s.rail >= 0)
            out.labels.push_back({"rail " + std::to_string(s.rail), {(b.min[0] + b.max[0]) / 2, b.min[1], b.max[2] + 0.6f}, false, LabelKind::Row});
    }
}

}  // namespace

void placeFatTree(const Topology& t, float rackHeight, FabricLayout& out) {
    out.switches.resize(t.switches.size());
    const Box3 floor = out.bounds;
    // Tiers apart by a share of the hall's width, so the cabling between them reads as a tree
    // from the default camera, not as a flat band.
    const float gap = std::max(3.0f * rackHeight, 0.2f * (floor.max[0] - floor.min[0]));
    Rows rows;
    rows.leafZ = rackHeight + 0.6f * gap;
    rows.spineZ = rows.leafZ + gap;
    rows.coreZ = rows.spineZ + gap;
    rows.y0 = out.racks.empty() ? floor.min[1] : out.racks.front().min[1];
    rows.y1 = out.racks.empty() ? floor.max[1] : out.racks.front().max[1];
    placeSwitches(t, rows, floor, out);
    addCables(t, out);
    addLabels(t, floor, out);
}

}  // namespace faultline
