// InfiniBand `ibnetdiscover` output: switches, host channel adapters (HCAs) and the cables
// between them. An HCA whose description is "HOST HCA-N" or "HOST mlx5_N" is NIC N-1 / N of
// HOST (NIC i serves GPU i); HCAs with no host in their description (SHARP aggregation nodes,
// unnamed adapters) are counted and left out. Switches cabled to HCAs are leaves (rack
// switches), the switches above them spines (cluster), anything higher core (aggregation).
#include "formats.h"
#include "line_reader.h"
#include "text_parse.h"
#include "topology_builder.h"

#include <map>
#include <set>

namespace faultline {

namespace {

constexpr std::int32_t kGpusPerHost = 8;

struct Port {
    std::string peerGuid;  // "S-..." or "H-..."
};

struct Node {
    bool isSwitch = false;
    std::string description;
    std::vector<Port> ports;
};

// The text between the first pair of double quotes after `from`.
std::string_view quoted(std::string_view s, std::size_t from = 0) {
    const std::size_t a = s.find('"', from);
    if (a == std::string_view::npos) return {};
    const std::size_t b = s.find('"', a + 1);
    if (b == std::string_view::npos) return {};
    return s.substr(a + 1, b - a - 1);
}

// "a08-p1-dgx-04-c01 HCA-6" -> host a08-p1-dgx-04-c01, NIC 5; "x mlx5_5" -> NIC 5.
std::optional<std::pair<std::string, std::int32_t>> hostNic(std::string_view description) {
    const std::size_t sp = description.find(' ');
    if (sp == std::string_view::npos) return std::nullopt;
    const std::string_view host = description.substr(0, sp);
    const std::string_view adapter = trim(description.substr(sp + 1));
    if (startsWith(adapter, "HCA-")) {
        const auto n = parseInt(adapter.substr(4));
        if (n && *n >= 1 && *n <= 64) return std::make_pair(std::string(host), static_cast<std::int32_t>(*n - 1));
    } else if (startsWith(adapter, "mlx5_")) {
        const auto n = parseInt(adapter.substr(5));
        if (n && *n >= 0 && *n < 64) return std::make_pair(std::string(host), static_cast<std::int32_t>(*n));
    }
    return std::nullopt;
}

// The switch name: its description up to the first ':' ("MF0;A10-P1-IBSPINE-02:MQM9701/U1"
// -> "MF0;A10-P1-IBSPINE-02"), which names the unit; the GUID when there is no description.
std::string switchName(const std::string& guid, const Node& n) {
    if (n.description.empty()) return guid;
    return n.description.substr(0, n.description.find(':'));
}

}  // namespace

void importIbnetdiscover(const std::string& path, ImportContext& ctx) {
    LineReader in(path);
    std::map<std::string, Node> nodes;  // by GUID string ("S-2c5e...", "H-e09d...")
    Node* current = nullptr;
    std::string_view line;
    while (in.next(line)) {
        if ((in.lineNumber() & 0xfff) == 0) ctx.tick(in.progress());
        const std::string_view t = trim(line);
        if (t.empty() || t.front() == '#') continue;
        if (startsWith(t, "Switch") || startsWith(t, "Ca") || startsWith(t, "Rt")) {
            const std::string guid(quoted(t));
            if (guid.empty()) in.fail("expected a quoted GUID after the node type (Switch N \"S-...\")");
            current = &nodes[guid];
            current->isSwitch = startsWith(t, "Switch");
            const std::size_t hash = t.find('#');
            current->description = hash == std::string_view::npos ? std::string() : std::string(quoted(t, hash));
            continue;
        }
        if (t.front() == '[') {
            if (!current) in.fail("a port line before any Switch or Ca line");
            const std::size_t close = t.find(']');
            if (close == std::string_view::npos) in.fail("expected \"[port]\" at the start of a port line");
            // Switch ports: [1] "H-..."[1](guid) # ...; CA ports: [1](guid) "S-..."[65] # ...
            std::string_view rest = t.substr(close + 1);
            if (!rest.empty() && rest.front() == '(') rest.remove_prefix(rest.find(')') + 1);
            const std::string peer(quoted(rest));
            if (peer.empty()) in.fail("expected the quoted GUID of the port's peer");
            current->ports.push_back({peer});
            continue;
        }
        if (t.find('=') != std::string_view::npos) continue;  // vendid=, devid=, sysimgguid=, switchguid=, caguid=
        ctx.report.skip(in.where() + ": expected a Switch, Ca or port line");
    }
    std::size_t switchCount = 0;
    for (const auto& [g, n] : nodes) switchCount += n.isSwitch;
    if (switchCount == 0) throw Error(path + ": no Switch in the dump (expected ibnetdiscover output of a fabric)");

    // Levels: 1 for switches cabled to a named host's HCA, then up.
    std::map<std::string, int> level;
    std::map<std::string, std::pair<std::string, std::int32_t>> hcaOf;  // HCA guid -> (host, nic)
    std::int64_t unnamed = 0;
    for (const auto& [guid, n] : nodes) {
        if (n.isSwitch) continue;
        if (auto hn = hostNic(n.description)) hcaOf[guid] = *hn;
        else ++unnamed;
    }
    std::vector<std::string> frontier;
    for (const auto& [guid, n] : nodes)
        if (n.isSwitch)
            for (const Port& p : n.ports)
                if (hcaOf.count(p.peerGuid) && !level.count(guid)) {
                    level[guid] = 1;
                    frontier.push_back(guid);
                }
    for (int l = 2; !frontier.empty(); ++l) {
        std::vector<std::string> next;
        for (const std::string& g : frontier)
            for (const Port& p : nodes[g].ports)
                if (nodes.count(p.peerGuid) && nodes[p.peerGuid].isSwitch && !level.count(p.peerGuid)) {
                    level[p.peerGuid] = l;
                    next.push_back(p.peerGuid);
                }
        frontier = std::move(next);
    }

    TopologyBuilder b;
    const std::int32_t zone0 = b.zone("zone0");
    std::map<std::string, std::int32_t> switchIndex;
    for (const auto& [guid, n] : nodes) {
        if (!n.isSwitch) continue;
        const int l = level.count(guid) ? level[guid] : 3;  // unreachable from hosts: treat as core
        const SwitchTier tier = l == 1 ? SwitchTier::Rack : l == 2 ? SwitchTier::Cluster : SwitchTier::Aggregation;
        const std::string name = switchName(guid, n);
        const std::int32_t rack = tier == SwitchTier::Rack ? b.rack(name, zone0) : -1;
        switchIndex[guid] = b.addSwitch(name, tier, tier == SwitchTier::Aggregation ? -1 : zone0, rack);
    }
    // Hosts, in the rack of the leaf their lowest NIC is cabled to.
    std::map<std::string, std::pair<std::int32_t, std::string>> firstLeaf;  // host -> (nic, leaf guid)
    for (const auto& [guid, n] : nodes) {
        auto hca = hcaOf.find(guid);
        if (hca == hcaOf.end() || n.ports.empty()) continue;
        auto& best = firstLeaf[hca->second.first];
        if (best.second.empty() || hca->second.second < best.first) best = {hca->second.second, n.ports.front().peerGuid};
    }
    for (const auto& [host, leaf] : firstLeaf) {
        const auto sw = nodes.find(leaf.second);
        const std::int32_t rack = sw != nodes.end() && sw->second.isSwitch ? b.rack(switchName(leaf.second, sw->second), zone0) : b.rack("rack0", zone0);
        b.host(host, rack, kGpusPerHost, kGpusPerHost);
    }
    // Cables: HCA to switch from the HCA's side, switch to switch from the lower side (each
    // cable appears at both ends of the dump).
    std::int64_t cables = 0;
    for (const auto& [guid, n] : nodes) {
        if (auto hca = hcaOf.find(guid); hca != hcaOf.end()) {
            const auto found = b.findHost(hca->second.first);
            if (!found) continue;  // an adapter with no cable
            const std::int32_t h = *found;
            b.host(hca->second.first, 0, kGpusPerHost, std::max(kGpusPerHost, hca->second.second + 1));
            for (const Port& p : n.ports)
                if (switchIndex.count(p.peerGuid)) {
                    b.link(TopologyBuilder::nicEnd(h, hca->second.second), TopologyBuilder::switchEnd(switchIndex[p.peerGuid]));
                    ++cables;
                }
            continue;
        }
        if (!n.isSwitch) continue;
        const int mine = level.count(guid) ? level[guid] : 3;
        for (const Port& p : n.ports) {
            if (!switchIndex.count(p.peerGuid)) continue;
            const int theirs = level.count(p.peerGuid) ? level[p.peerGuid] : 3;
            if (theirs > mine || (theirs == mine && guid < p.peerGuid)) {
                b.link(TopologyBuilder::switchEnd(switchIndex[guid]), TopologyBuilder::switchEnd(switchIndex[p.peerGuid]));
                ++cables;
            }
        }
    }
    Topology t = b.build();
    ctx.report.count("hosts", static_cast<std::int64_t>(t.hosts.size()));
    ctx.report.count("switches", static_cast<std::int64_t>(t.switches.size()));
    ctx.report.count("host adapters", static_cast<std::int64_t>(hcaOf.size()));
    ctx.report.count("cables", cables);
    if (unnamed > 0) ctx.report.warnings.push_back(path + ": " + std::to_string(unnamed) + " adapter(s) name no host (\"HOST HCA-N\" or \"HOST mlx5_N\"); left out");
    setImportedTopology(std::move(t), path, ctx);
}

}  // namespace faultline
