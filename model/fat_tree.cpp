#include "fat_tree.h"

#include "error.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace faultline {

namespace {

// The largest divisor of n that is at most limit (at least 1).
int largestDivisorAtMost(int n, int limit) {
    for (int d = std::min(n, limit); d > 1; --d)
        if (n % d == 0) return d;
    return 1;
}

}  // namespace

Topology buildFatTree(const FatTreeShape& s) {
    if (s.gpus <= 0 || s.gpusPerHost <= 0 || s.hostsPerRack <= 0 || s.racksPerRow <= 0 || s.hostsPerUnit <= 0 || s.unitsPerPod <= 0 ||
        s.switchPorts <= 0)
        throw Error("fat tree: every count must be positive");
    const int half = s.switchPorts / 2;  // non-blocking: as many ports up as down
    const int rails = s.gpusPerHost;
    const int hosts = s.gpus / s.gpusPerHost;
    if (hosts * s.gpusPerHost != s.gpus || hosts % s.hostsPerUnit != 0 || s.hostsPerUnit % s.hostsPerRack != 0)
        throw Error("fat tree: the GPUs must fill whole hosts, racks and scalable units");
    if (s.hostsPerUnit > half) throw Error("fat tree: a leaf has " + std::to_string(half) + " ports down, not " + std::to_string(s.hostsPerUnit));
    const int units = hosts / s.hostsPerUnit;
    const int unitsPerPod = std::min(s.unitsPerPod, units);
    if (units % unitsPerPod != 0) throw Error("fat tree: the scalable units must fill whole pods");
    const int pods = units / unitsPerPod;
    const int leavesPerPod = unitsPerPod * rails;
    const int spinesPerPod = s.hostsPerUnit;  // a leaf's uplinks: one to each spine of its pod
    if (leavesPerPod > (pods > 1 ? half : s.switchPorts))
        throw Error("fat tree: a spine cannot take " + std::to_string(leavesPerPod) + " leaves");
    // A core takes one cable from `planes` spine planes (spine j of every pod) in each pod.
    if (pods > s.switchPorts) throw Error("fat tree: more pods than a core switch has ports");
    const int planes = pods > 1 ? largestDivisorAtMost(spinesPerPod, s.switchPorts / pods) : 1;
    const int spineUplinks = pods > 1 ? leavesPerPod : 0;  // as many up as down

    Topology t;
    t.fabric = FabricKind::InfinibandFatTree;
    const int racksPerPod = unitsPerPod * s.hostsPerUnit / s.hostsPerRack;
    for (int p = 0; p < pods; ++p) t.zones.push_back({numberedName("pod", p, 2)});

    // Cores first, grouped by the spine planes they serve: core (group, u) takes uplink u of
    // spine j of every pod, for the `planes` values of j in its group.
    const int coreGroups = planes > 0 ? spinesPerPod / planes : 0;
    for (int g = 0; g < coreGroups; ++g)
        for (int u = 0; u < spineUplinks; ++u) t.switches.push_back({numberedName("core-g", g, 2) + numberedName("-", u, 2), SwitchTier::Aggregation, -1, -1});

    for (int p = 0; p < pods; ++p) {
        const auto spineBase = static_cast<std::int32_t>(t.switches.size());
        for (int j = 0; j < spinesPerPod; ++j) {
            const auto spine = static_cast<std::int32_t>(t.switches.size());
            t.switches.push_back({numberedName("spine-p", p, 2) + numberedName("-", j, 2), SwitchTier::Cluster, p, -1});
            for (int u = 0; u < spineUplinks; ++u)
                t.links.push_back({{NodeKind::Switch, spine}, {NodeKind::Switch, (j / planes) * spineUplinks + u}});
        }
        for (int unit = p * unitsPerPod; unit < (p + 1) * unitsPerPod; ++unit) {
            const auto leafBase = static_cast<std::int32_t>(t.switches.size());
            for (int r = 0; r < rails; ++r) {
                const auto leaf = static_cast<std::int32_t>(t.switches.size());
                t.switches.push_back({numberedName("leaf-su", unit, 2) + numberedName("-rail", r, 1), SwitchTier::Rack, p, -1, r});
                for (int j = 0; j < spinesPerPod; ++j) t.links.push_back({{NodeKind::Switch, leaf}, {NodeKind::Switch, spineBase + j}});
            }
            for (int h = unit * s.hostsPerUnit; h < (unit + 1) * s.hostsPerUnit; ++h) {
                const int rack = h / s.hostsPerRack;
                if (h % s.hostsPerRack == 0) {
                    const int inPod = rack % racksPerPod;
                    t.racks.push_back({numberedName("r", rack, 4), p, inPod / s.racksPerRow, inPod % s.racksPerRow});
                }
                t.hosts.push_back({t.racks.back().name + "-h" + std::to_string(h % s.hostsPerRack), rack, static_cast<std::int32_t>(t.gpus.size()),
                                   rails, static_cast<std::int32_t>(t.nics.size()), rails});
                for (int g = 0; g < rails; ++g) {
                    // Same HGX board as the RoCE cluster: the same PCI bus ids.
                    t.gpus.push_back({h, g, {}});
                    t.nics.push_back({h, g});
                    t.links.push_back({{NodeKind::Nic, static_cast<std::int32_t>(t.nics.size() - 1)}, {NodeKind::Switch, leafBase + g}});
                }
            }
        }
    }
    // PCI bus ids: borrowed from buildFabric's host, so both clusters name GPUs alike.
    const Topology oneHost = buildFabric(FabricShape{.gpus = rails, .gpusPerHost = rails});
    for (Gpu& g : t.gpus) g.pciBusId = oneHost.gpus[static_cast<std::size_t>(g.index)].pciBusId;
    return t;
}

}  // namespace faultline
