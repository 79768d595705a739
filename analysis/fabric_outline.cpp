#include "fabric_outline.h"

#include "model/format.h"

#include <nlohmann/json.hpp>

#include <set>

namespace faultline {

namespace {

constexpr std::array<SwitchTier, 3> kTiers{SwitchTier::Rack, SwitchTier::Cluster, SwitchTier::Aggregation};

const char* kindKey(FabricKind kind) {
    switch (kind) {
        case FabricKind::RoceClos: return "roce-clos";
        case FabricKind::InfinibandFatTree: return "infiniband-fat-tree";
        case FabricKind::GenericTree: return "switch-tree";
    }
    return "";
}

// "31 leaves", "1 spine", "8 RTSW": RoCE's tier names are acronyms, plural as they stand.
std::string counted(std::size_t n, SwitchTier tier, FabricKind kind) {
    std::string name = switchTierName(tier, kind);
    if (n != 1 && kind != FabricKind::RoceClos) name = name == "leaf" ? "leaves" : name + "s";
    return formatCount(static_cast<std::int64_t>(n)) + " " + name;
}

// "0-7", "0, 1, 4, 5": runs of three or more consecutive rails as a range.
std::string railsText(const std::vector<std::int32_t>& rails) {
    std::string out;
    for (std::size_t i = 0; i < rails.size();) {
        std::size_t j = i;
        while (j + 1 < rails.size() && rails[j + 1] == rails[j] + 1) ++j;
        out += (out.empty() ? "" : ", ") + std::to_string(rails[i]);
        if (j >= i + 2) out += "-" + std::to_string(rails[j]), i = j + 1;
        else ++i;
    }
    return out;
}

// "31 leaves, 9 spines; rails 0-7"
std::string partText(const FabricOutlinePart& p) {
    std::string tiers;
    for (SwitchTier tier : kTiers)
        if (const std::size_t n = p.switches[static_cast<std::size_t>(tier)]; n > 0) tiers += (tiers.empty() ? "" : ", ") + counted(n, tier, p.kind);
    return (tiers.empty() ? std::string("no switches") : tiers) + (p.rails.empty() ? std::string() : "; rails " + railsText(p.rails));
}

nlohmann::json partToJson(const FabricOutlinePart& p) {
    nlohmann::json tiers = nlohmann::json::object();
    for (SwitchTier tier : kTiers) tiers[switchTierName(tier, p.kind)] = p.switches[static_cast<std::size_t>(tier)];
    return {{"kind", kindKey(p.kind)}, {"name", fabricKindName(p.kind)}, {"clusters", p.clusters}, {"tiers", tiers}, {"rails", p.rails}};
}

}  // namespace

FabricOutline outlineFabric(const Topology& t) {
    // A switch's kind is its cluster's (a fleet), else the run's one fabric.
    auto kindOf = [&t](const Switch& s) {
        return t.clusters.empty() || s.cluster < 0 || static_cast<std::size_t>(s.cluster) >= t.clusters.size()
                   ? t.fabric
                   : t.clusters[static_cast<std::size_t>(s.cluster)].fabric;
    };
    constexpr std::size_t kKinds = 3;
    std::array<FabricOutlinePart, kKinds> byKind{};
    std::array<std::set<std::int32_t>, kKinds> rails, clusters;
    std::array<bool, kKinds> seen{};
    for (const Switch& s : t.switches) {
        const auto k = static_cast<std::size_t>(kindOf(s));
        seen[k] = true;
        ++byKind[k].switches[static_cast<std::size_t>(s.tier)];
        if (s.rail >= 0) rails[k].insert(s.rail);
        clusters[k].insert(s.cluster);
    }
    FabricOutline out;
    for (std::size_t k = 0; k < kKinds; ++k) {
        if (!seen[k]) continue;
        FabricOutlinePart p = byKind[k];
        p.kind = static_cast<FabricKind>(k);
        p.rails.assign(rails[k].begin(), rails[k].end());
        p.clusters = clusters[k].size();
        out.parts.push_back(std::move(p));
    }
    return out;
}

std::string fabricOutlineText(const FabricOutline& o) {
    // No switch: no file said what the fabric is (a derived topology has none), and a kind
    // named here would be a guess.
    if (!o.known()) return "unknown: no topology file names a switch";
    if (!o.mixed()) return std::string(fabricKindName(o.parts.front().kind)) + ": " + partText(o.parts.front());
    std::string out = "mixed: ";
    for (std::size_t i = 0; i < o.parts.size(); ++i) {
        const FabricOutlinePart& p = o.parts[i];
        out += std::string(i == 0 ? "" : i + 1 == o.parts.size() ? " and " : ", ") + fabricKindName(p.kind) + " in " +
               formatCounted(static_cast<std::int64_t>(p.clusters), "cluster", "clusters") + " (" + partText(p) + ")";
    }
    return out;
}

nlohmann::json fabricOutlineToJson(const FabricOutline& o) {
    if (!o.known()) {
        nlohmann::json tiers = nlohmann::json::object();
        for (SwitchTier tier : kTiers) tiers[switchTierName(tier, FabricKind::RoceClos)] = 0;
        return {{"kind", "unknown"}, {"name", "unknown"}, {"tiers", tiers}, {"rails", nlohmann::json::array()}};
    }
    if (!o.mixed()) {
        nlohmann::json one = partToJson(o.parts.front());
        one.erase("clusters");
        return one;
    }
    nlohmann::json fabrics = nlohmann::json::array();
    for (const FabricOutlinePart& p : o.parts) fabrics.push_back(partToJson(p));
    return {{"kind", "mixed"}, {"name", "mixed"}, {"fabrics", fabrics}};
}

}  // namespace faultline
