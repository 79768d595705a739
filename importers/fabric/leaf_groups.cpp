#include "importers/fabric/leaf_groups.h"

#include <map>
#include <numeric>
#include <set>

namespace faultline {

namespace {

constexpr std::size_t kMinRailHosts = 4;

}  // namespace

std::int32_t railOfLeaf(const LeafHostCables& cables) {
    std::set<std::string> hosts;
    std::map<std::int32_t, std::size_t> byNic;
    for (const auto& [host, nic] : cables) {
        hosts.insert(host);
        ++byNic[nic];
    }
    if (hosts.size() < kMinRailHosts) return -1;
    for (const auto& [nic, n] : byNic)
        if (4 * n >= 3 * cables.size()) return nic;
    return -1;
}

std::vector<std::int32_t> leafUnits(const std::vector<LeafHostCables>& leaves) {
    std::vector<std::size_t> parent(leaves.size());
    std::iota(parent.begin(), parent.end(), std::size_t{0});
    auto root = [&](std::size_t i) {
        while (parent[i] != i) i = parent[i] = parent[parent[i]];
        return i;
    };
    std::map<std::string, std::size_t> firstLeafOfHost;
    for (std::size_t leaf = 0; leaf < leaves.size(); ++leaf)
        for (const auto& cable : leaves[leaf]) {
            auto [it, fresh] = firstLeafOfHost.try_emplace(cable.first, leaf);
            if (!fresh) {
                // The lower index stays the root, so a unit is numbered by its first leaf.
                const std::size_t a = root(it->second), b = root(leaf);
                if (a != b) parent[std::max(a, b)] = std::min(a, b);
            }
        }
    std::vector<std::int32_t> unit(leaves.size(), -1);
    std::map<std::size_t, std::int32_t> number;
    for (std::size_t leaf = 0; leaf < leaves.size(); ++leaf) {
        auto [it, fresh] = number.try_emplace(root(leaf), static_cast<std::int32_t>(number.size()));
        unit[leaf] = it->second;
    }
    return unit;
}

}  // namespace faultline
