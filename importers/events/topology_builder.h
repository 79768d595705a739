#pragma once
// Builds a Topology by name rather than by index, for the topology file readers: racks,
// hosts and switches are looked up by name, and every host gets its GPUs and NICs.
#include "model/topology.h"

#include <map>
#include <string>

namespace faultline {

class TopologyBuilder {
public:
    std::int32_t zone(const std::string& name);
    std::int32_t rack(const std::string& name, std::int32_t zoneIndex = 0);
    // Adds the host (or returns it if it exists, growing its GPU / NIC counts).
    std::int32_t host(const std::string& name, std::int32_t rackIndex, std::int32_t gpus, std::int32_t nics);
    std::int32_t addSwitch(const std::string& name, SwitchTier tier, std::int32_t zoneIndex, std::int32_t rackIndex);
    std::optional<std::int32_t> findHost(const std::string& name) const;
    std::optional<std::int32_t> findSwitch(const std::string& name) const;
    // A link end before GPUs and NICs are laid out: a switch, or NIC `nic` of host `host`.
    struct End {
        NodeKind kind = NodeKind::Switch;
        std::int32_t index = 0;  // the switch, or the host
        std::int32_t nic = 0;
    };
    static End switchEnd(std::int32_t sw) { return {NodeKind::Switch, sw, 0}; }
    static End nicEnd(std::int32_t hostIndex, std::int32_t nicIndex) { return {NodeKind::Nic, hostIndex, nicIndex}; }
    void link(End lower, End upper) { m_links.push_back({lower, upper}); }
    void setPciBusIds(std::int32_t hostIndex, const std::vector<std::string>& ids) { m_pci[hostIndex] = ids; }

    // Lays out GPUs and NICs host by host and checks the result (Topology::validate).
    Topology build() const;

private:
    struct PendingHost {
        std::string name;
        std::int32_t rack = 0;
        std::int32_t gpus = 0;
        std::int32_t nics = 0;
    };
    std::vector<Zone> m_zones;
    std::vector<Rack> m_racks;
    std::vector<PendingHost> m_hosts;
    std::vector<Switch> m_switches;
    std::vector<std::pair<End, End>> m_links;
    std::map<std::string, std::int32_t> m_zoneIndex, m_rackIndex, m_hostIndex, m_switchIndex;
    std::map<std::int32_t, std::vector<std::string>> m_pci;
    std::map<std::int32_t, std::int32_t> m_racksInZone;  // a new rack's position in its zone
    static constexpr std::size_t kMaxHosts = 100'000;
};

}  // namespace faultline
