#include "fabric_outline.h"

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
    return std::to_string(n) + " " + name;
}

}  // namespace

FabricOutline outlineFabric(const Topology& t) {
    FabricOutline out;
    out.kind = t.fabric;
    std::set<std::int32_t> rails;
    for (const Switch& s : t.switches) {
        ++out.switches[static_cast<std::size_t>(s.tier)];
        if (s.rail >= 0) rails.insert(s.rail);
    }
    out.rails.assign(rails.begin(), rails.end());
    return out;
}

std::string fabricOutlineText(const FabricOutline& o) {
    // No switch: no file said what the fabric is (a derived topology has none), and a kind
    // named here would be a guess.
    if (o.switches == decltype(o.switches){}) return "unknown: no topology file names a switch";
    std::string out = fabricKindName(o.kind);
    std::string tiers;
    for (SwitchTier tier : kTiers)
        if (const std::size_t n = o.switches[static_cast<std::size_t>(tier)]; n > 0) tiers += (tiers.empty() ? "" : ", ") + counted(n, tier, o.kind);
    out += ": " + (tiers.empty() ? std::string("no switches") : tiers);
    for (std::size_t i = 0; i < o.rails.size(); ++i) out += (i ? ", " : "; rails ") + std::to_string(o.rails[i]);
    return out;
}

nlohmann::json fabricOutlineToJson(const FabricOutline& o) {
    nlohmann::json tiers = nlohmann::json::object();
    for (SwitchTier tier : kTiers) tiers[switchTierName(tier, o.kind)] = o.switches[static_cast<std::size_t>(tier)];
    if (o.switches == decltype(o.switches){}) return {{"kind", "unknown"}, {"name", "unknown"}, {"tiers", tiers}, {"rails", o.rails}};
    return {{"kind", kindKey(o.kind)}, {"name", fabricKindName(o.kind)}, {"tiers", tiers}, {"rails", o.rails}};
}

}  // namespace faultline
