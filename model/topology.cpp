#include "topology.h"

#include "error.h"
#include "unplaced_hosts.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>

namespace faultline {

namespace {

// PCI bus ids of the eight H100 SXM GPUs of an HGX baseboard, in CUDA device order.
constexpr std::array<const char*, 8> kHgxPciBusIds = {
    "0000:18:00.0", "0000:2a:00.0", "0000:3a:00.0", "0000:5d:00.0",
    "0000:9a:00.0", "0000:ab:00.0", "0000:ba:00.0", "0000:db:00.0"};

std::string pciBusIdFor(int index) {
    if (index < static_cast<int>(kHgxPciBusIds.size())) return kHgxPciBusIds[static_cast<std::size_t>(index)];
    char buf[24];  // room for any int: nothing is cut
    std::snprintf(buf, sizeof buf, "0000:%02x:00.0", 0xe0 + index);
    return buf;
}

}  // namespace

std::string numberedName(const char* prefix, int value, int width) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s%0*d", prefix, width, value);
    return buf;
}

std::string unplacedHostName(std::int32_t firstRank, std::int32_t lastRank) {
    return std::string(kUnplacedHostPrefix) + std::to_string(firstRank) + "-" + std::to_string(lastRank);
}

bool isUnplacedHost(const Host& host) { return host.name.starts_with(kUnplacedHostPrefix); }

std::string Topology::gpuName(std::int32_t gpu) const {
    const Gpu& g = gpus.at(static_cast<std::size_t>(gpu));
    const Host& h = hosts.at(static_cast<std::size_t>(g.host));
    // An unplaced host's GPU i holds its first rank + i: named by that rank, not a made-up host.
    if (isUnplacedHost(h)) return "rank " + std::to_string(std::atoi(h.name.c_str() + kUnplacedHostPrefix.size()) + g.index) + " (host unknown)";
    return h.name + "-gpu" + std::to_string(g.index);
}

std::string Topology::nicName(std::int32_t nic) const {
    const Nic& n = nics.at(static_cast<std::size_t>(nic));
    return hosts.at(static_cast<std::size_t>(n.host)).name + "-nic" + std::to_string(n.index);
}

std::string Topology::linkName(std::int32_t link) const {
    const Link& l = links.at(static_cast<std::size_t>(link));
    auto endName = [this](const LinkEnd& e) {
        return e.kind == NodeKind::Nic ? nicName(e.index) : switches.at(static_cast<std::size_t>(e.index)).name;
    };
    return endName(l.lower) + " <-> " + endName(l.upper);
}

std::optional<std::int32_t> Topology::findHost(std::string_view name) const {
    for (std::size_t i = 0; i < hosts.size(); ++i)
        if (hosts[i].name == name) return static_cast<std::int32_t>(i);
    return std::nullopt;
}

std::optional<std::int32_t> Topology::findSwitch(std::string_view name) const {
    for (std::size_t i = 0; i < switches.size(); ++i)
        if (switches[i].name == name) return static_cast<std::int32_t>(i);
    return std::nullopt;
}

std::int32_t Topology::gpuOfNic(std::int32_t nic) const {
    const Nic& n = nics.at(static_cast<std::size_t>(nic));
    const Host& h = hosts.at(static_cast<std::size_t>(n.host));
    return n.index < h.gpuCount ? h.firstGpu + n.index : -1;
}

std::vector<std::int32_t> Topology::gpusOfHost(std::int32_t host) const {
    const Host& h = hosts.at(static_cast<std::size_t>(host));
    std::vector<std::int32_t> out(static_cast<std::size_t>(h.gpuCount));
    for (int i = 0; i < h.gpuCount; ++i) out[static_cast<std::size_t>(i)] = h.firstGpu + i;
    return out;
}

std::vector<std::int32_t> Topology::gpusBelowLink(std::int32_t link) const {
    const LinkEnd lower = links.at(static_cast<std::size_t>(link)).lower;
    if (lower.kind == NodeKind::Nic) {
        std::int32_t gpu = gpuOfNic(lower.index);
        return gpu < 0 ? std::vector<std::int32_t>{} : std::vector<std::int32_t>{gpu};
    }
    return gpusBelowSwitch(lower.index);
}

std::vector<std::int32_t> Topology::gpusBelowSwitch(std::int32_t sw) const {
    std::vector<std::vector<LinkEnd>> below(switches.size());
    for (const Link& l : links)
        if (l.upper.kind == NodeKind::Switch) below[static_cast<std::size_t>(l.upper.index)].push_back(l.lower);

    // Breadth-first downwards; a switch reached over several uplinks is visited once.
    std::vector<char> seenSwitch(switches.size(), 0);
    std::vector<char> seenGpu(gpus.size(), 0);
    std::vector<std::int32_t> queue{sw};
    seenSwitch.at(static_cast<std::size_t>(sw)) = 1;
    for (std::size_t next = 0; next < queue.size(); ++next) {
        for (const LinkEnd& e : below[static_cast<std::size_t>(queue[next])]) {
            if (e.kind == NodeKind::Nic) {
                if (std::int32_t gpu = gpuOfNic(e.index); gpu >= 0) seenGpu[static_cast<std::size_t>(gpu)] = 1;
            } else if (!seenSwitch[static_cast<std::size_t>(e.index)]) {
                seenSwitch[static_cast<std::size_t>(e.index)] = 1;
                queue.push_back(e.index);
            }
        }
    }
    std::vector<std::int32_t> out;
    for (std::size_t g = 0; g < seenGpu.size(); ++g)
        if (seenGpu[g]) out.push_back(static_cast<std::int32_t>(g));
    return out;
}

std::size_t Topology::switchCount(SwitchTier tier) const {
    return static_cast<std::size_t>(
        std::count_if(switches.begin(), switches.end(), [tier](const Switch& s) { return s.tier == tier; }));
}

FabricKind Topology::fabricOfCluster(std::int32_t cluster) const {
    return clusters.empty() ? fabric : clusters.at(static_cast<std::size_t>(cluster)).fabric;
}

FabricKind Topology::fabricOfZone(std::int32_t zone) const { return fabricOfCluster(zones.at(static_cast<std::size_t>(zone)).cluster); }

FabricKind Topology::fabricOfSwitch(std::int32_t sw) const { return fabricOfCluster(switches.at(static_cast<std::size_t>(sw)).cluster); }

std::int32_t Topology::clusterOfHost(std::int32_t host) const {
    const Rack& r = racks.at(static_cast<std::size_t>(hosts.at(static_cast<std::size_t>(host)).rack));
    return zones.at(static_cast<std::size_t>(r.zone)).cluster;
}

void Topology::validate() const {
    auto fail = [](const std::string& what) { throw Error("topology: " + what); };
    auto inRange = [](std::int32_t i, std::size_t n) { return i >= 0 && static_cast<std::size_t>(i) < n; };
    for (const Zone& z : zones)
        if (!inRange(z.cluster, clusterCount())) fail("zone " + z.name + " names cluster " + std::to_string(z.cluster) + ", which does not exist");
    for (const Switch& s : switches)
        if (!inRange(s.cluster, clusterCount()) || (s.zone >= 0 && inRange(s.zone, zones.size()) && zones[static_cast<std::size_t>(s.zone)].cluster != s.cluster))
            fail("switch " + s.name + " names a cluster that does not exist or is not its zone's");
    for (std::size_t i = 0; i < racks.size(); ++i)
        if (!inRange(racks[i].zone, zones.size())) fail("rack " + racks[i].name + " names zone " + std::to_string(racks[i].zone) + ", which does not exist");
    for (std::size_t i = 0; i < hosts.size(); ++i) {
        const Host& h = hosts[i];
        if (!inRange(h.rack, racks.size())) fail("host " + h.name + " names rack " + std::to_string(h.rack) + ", which does not exist");
        if (h.gpuCount < 0 || h.firstGpu < 0 || static_cast<std::size_t>(h.firstGpu) + static_cast<std::size_t>(h.gpuCount) > gpus.size())
            fail("host " + h.name + " has GPUs outside the GPU table");
        for (int g = 0; g < h.gpuCount; ++g)
            if (gpus[static_cast<std::size_t>(h.firstGpu + g)].host != static_cast<std::int32_t>(i))
                fail("GPU " + std::to_string(h.firstGpu + g) + " is listed under host " + h.name + " but names another host");
    }
    for (const Gpu& g : gpus)
        if (!inRange(g.host, hosts.size())) fail("a GPU names host " + std::to_string(g.host) + ", which does not exist");
    for (const Nic& n : nics)
        if (!inRange(n.host, hosts.size())) fail("a NIC names host " + std::to_string(n.host) + ", which does not exist");
    for (const Switch& s : switches) {
        if (s.zone >= 0 && !inRange(s.zone, zones.size())) fail("switch " + s.name + " names a zone that does not exist");
        if (s.rack >= 0 && !inRange(s.rack, racks.size())) fail("switch " + s.name + " names a rack that does not exist");
    }
    for (std::size_t i = 0; i < links.size(); ++i)
        for (const LinkEnd& e : {links[i].lower, links[i].upper})
            if (!inRange(e.index, e.kind == NodeKind::Nic ? nics.size() : switches.size()))
                fail("link " + std::to_string(i) + " joins a node that does not exist");
}

Topology buildFabric(const FabricShape& shape) {
    if (shape.gpus <= 0 || shape.gpusPerHost <= 0 || shape.hostsPerRack <= 0 || shape.racksPerRow <= 0 ||
        shape.racksPerZone <= 0 || shape.ctswPerZone < 0 || shape.atswCount < 0)
        throw Error("fabric: every count must be positive");
    Topology t;
    const int hostCount = (shape.gpus + shape.gpusPerHost - 1) / shape.gpusPerHost;
    const int rackCount = (hostCount + shape.hostsPerRack - 1) / shape.hostsPerRack;
    const int zoneCount = (rackCount + shape.racksPerZone - 1) / shape.racksPerZone;
    const int atswBase = 0;

    for (int a = 0; a < shape.atswCount; ++a)
        t.switches.push_back({numberedName("atsw", a, 2), SwitchTier::Aggregation, -1, -1});
    std::vector<int> ctswBase(static_cast<std::size_t>(zoneCount));
    for (int z = 0; z < zoneCount; ++z) {
        t.zones.push_back({numberedName("zone", z, 2)});
        ctswBase[static_cast<std::size_t>(z)] = static_cast<int>(t.switches.size());
        for (int c = 0; c < shape.ctswPerZone; ++c) {
            t.switches.push_back({numberedName("ctsw-z", z, 2) + numberedName("-", c, 2), SwitchTier::Cluster, z, -1});
            for (int a = 0; a < shape.atswCount; ++a)
                t.links.push_back({{NodeKind::Switch, static_cast<std::int32_t>(t.switches.size() - 1)},
                                   {NodeKind::Switch, atswBase + a}});
        }
    }
    for (int r = 0; r < rackCount; ++r) {
        const int zone = r / shape.racksPerZone;
        const int inZone = r % shape.racksPerZone;
        const std::string rackName = numberedName("r", r, 4);
        t.racks.push_back({rackName, zone, inZone / shape.racksPerRow, inZone % shape.racksPerRow});
        const auto rtsw = static_cast<std::int32_t>(t.switches.size());
        t.switches.push_back({"rtsw-" + rackName, SwitchTier::Rack, zone, r});
        for (int c = 0; c < shape.ctswPerZone; ++c)
            t.links.push_back({{NodeKind::Switch, rtsw}, {NodeKind::Switch, ctswBase[static_cast<std::size_t>(zone)] + c}});
        for (int h = 0; h < shape.hostsPerRack; ++h) {
            const int hostIndex = r * shape.hostsPerRack + h;
            if (hostIndex >= hostCount) break;
            const int gpusHere = std::min(shape.gpusPerHost, shape.gpus - hostIndex * shape.gpusPerHost);
            const auto host = static_cast<std::int32_t>(t.hosts.size());
            t.hosts.push_back({rackName + "-h" + std::to_string(h), r, static_cast<std::int32_t>(t.gpus.size()), gpusHere,
                               static_cast<std::int32_t>(t.nics.size()), gpusHere});
            for (int g = 0; g < gpusHere; ++g) {
                t.gpus.push_back({host, g, pciBusIdFor(g)});
                t.nics.push_back({host, g});
                t.links.push_back({{NodeKind::Nic, static_cast<std::int32_t>(t.nics.size() - 1)}, {NodeKind::Switch, rtsw}});
            }
        }
    }
    return t;
}

const char* switchTierName(SwitchTier tier) {
    switch (tier) {
        case SwitchTier::Rack: return "RTSW";
        case SwitchTier::Cluster: return "CTSW";
        case SwitchTier::Aggregation: return "ATSW";
    }
    return "?";
}

const char* switchTierName(SwitchTier tier, FabricKind fabric) {
    if (fabric == FabricKind::RoceClos) return switchTierName(tier);
    switch (tier) {
        case SwitchTier::Rack: return "leaf";
        case SwitchTier::Cluster: return "spine";
        case SwitchTier::Aggregation: return "core";
    }
    return "?";
}

const char* fabricKindName(FabricKind fabric) {
    switch (fabric) {
        case FabricKind::RoceClos: return "RoCE two-stage Clos";
        case FabricKind::InfinibandFatTree: return "InfiniBand fat tree";
        case FabricKind::GenericTree: return "switch tree";
    }
    return "?";
}

}  // namespace faultline
