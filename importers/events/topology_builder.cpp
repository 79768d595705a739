#include "importers/events/topology_builder.h"

#include "model/error.h"

namespace faultline {

std::int32_t TopologyBuilder::zone(const std::string& name) {
    auto [it, fresh] = m_zoneIndex.try_emplace(name, static_cast<std::int32_t>(m_zones.size()));
    if (fresh) m_zones.push_back({name});
    return it->second;
}

std::int32_t TopologyBuilder::rack(const std::string& name, std::int32_t zoneIndex) {
    auto [it, fresh] = m_rackIndex.try_emplace(name, static_cast<std::int32_t>(m_racks.size()));
    if (fresh) m_racks.push_back({name, zoneIndex, 0, m_racksInZone[zoneIndex]++});
    return it->second;
}

std::int32_t TopologyBuilder::host(const std::string& name, std::int32_t rackIndex, std::int32_t gpus, std::int32_t nics) {
    auto [it, fresh] = m_hostIndex.try_emplace(name, static_cast<std::int32_t>(m_hosts.size()));
    if (fresh) {
        if (m_hosts.size() >= kMaxHosts) {
            m_hostIndex.erase(it);
            throw Error("the topology names more than 100,000 hosts, more than any cluster has (host " + name + ")");
        }
        m_hosts.push_back({name, rackIndex, gpus, nics});
    } else {
        PendingHost& h = m_hosts[static_cast<std::size_t>(it->second)];
        h.gpus = std::max(h.gpus, gpus);
        h.nics = std::max(h.nics, nics);
    }
    return it->second;
}

std::int32_t TopologyBuilder::addSwitch(const std::string& name, SwitchTier tier, std::int32_t zoneIndex, std::int32_t rackIndex) {
    auto [it, fresh] = m_switchIndex.try_emplace(name, static_cast<std::int32_t>(m_switches.size()));
    if (fresh) m_switches.push_back({name, tier, zoneIndex, rackIndex});
    return it->second;
}

std::optional<std::int32_t> TopologyBuilder::findHost(const std::string& name) const {
    auto it = m_hostIndex.find(name);
    return it == m_hostIndex.end() ? std::nullopt : std::optional<std::int32_t>(it->second);
}

std::optional<std::int32_t> TopologyBuilder::findSwitch(const std::string& name) const {
    auto it = m_switchIndex.find(name);
    return it == m_switchIndex.end() ? std::nullopt : std::optional<std::int32_t>(it->second);
}

Topology TopologyBuilder::build() const {
    Topology t;
    t.zones = m_zones;
    t.racks = m_racks;
    t.switches = m_switches;
    for (std::size_t i = 0; i < m_hosts.size(); ++i) {
        const PendingHost& p = m_hosts[i];
        Host h;
        h.name = p.name;
        h.rack = p.rack;
        h.firstGpu = static_cast<std::int32_t>(t.gpus.size());
        h.gpuCount = p.gpus;
        h.firstNic = static_cast<std::int32_t>(t.nics.size());
        h.nicCount = p.nics;
        const auto pci = m_pci.find(static_cast<std::int32_t>(i));
        for (std::int32_t g = 0; g < p.gpus; ++g) {
            std::string id;
            if (pci != m_pci.end() && static_cast<std::size_t>(g) < pci->second.size()) id = pci->second[static_cast<std::size_t>(g)];
            t.gpus.push_back({static_cast<std::int32_t>(i), g, id});
        }
        for (std::int32_t n = 0; n < p.nics; ++n) t.nics.push_back({static_cast<std::int32_t>(i), n});
        t.hosts.push_back(std::move(h));
    }
    auto resolve = [&t](const End& e) -> LinkEnd {
        if (e.kind == NodeKind::Switch) return {NodeKind::Switch, e.index};
        const Host& h = t.hosts.at(static_cast<std::size_t>(e.index));
        if (e.nic < 0 || e.nic >= h.nicCount) throw Error("host " + h.name + " has no NIC " + std::to_string(e.nic));
        return {NodeKind::Nic, h.firstNic + e.nic};
    };
    for (const auto& [lower, upper] : m_links) t.links.push_back({resolve(lower), resolve(upper)});
    t.validate();
    return t;
}

}  // namespace faultline
