// InfiniBand `ibnetdiscover` output: switches, host channel adapters (HCAs) and the cables
// between them. An HCA whose description is "HOST HCA-N" or "HOST mlx5_N" is NIC N-1 / N of
// HOST (NIC i serves GPU i); HCAs with no host in their description (SHARP aggregation nodes,
// unnamed adapters) are counted and left out. Tiers by hops from the HCAs: switches cabled to
// HCAs are leaves, the switches above them spines, anything higher core: an InfiniBand fat tree
// when every switch cable joins adjacent tiers. Leaves that each serve one NIC index of many
// hosts are rail leaves (Switch::rail); then hosts are grouped by the leaves they share
// (scalable units), else each host stands in the rack of its first NIC's leaf.
#include "analysis/fabric_outline.h"
#include "importers/fabric/readers.h"
#include "importers/text/infiniband_names.h"
#include "importers/fabric/leaf_groups.h"
#include "importers/text/line_reader.h"
#include "importers/text/text_parse.h"
#include "importers/text/text_encoding.h"
#include "importers/events/topology_builder.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <set>

namespace faultline {

namespace {


constexpr std::int32_t kHostsPerCabinet = 4;

struct Port {
    std::string peerGuid;  // "S-..." or "H-..."
    std::string speed;     // the cable's width and rate, "4xNDR"; empty when the line does not say
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

// The switch name: its description up to the first ':' ("MF0;A10-P1-IBSPINE-02:MQM9701/U1"
// -> "MF0;A10-P1-IBSPINE-02"), which names the unit; the GUID when there is no description.
std::string switchName(const std::string& guid, const Node& n) {
    if (n.description.empty()) return guid;
    return switchUnitName(n.description);
}

// A port line's last word when it is a width and rate ("4xNDR", "2xHDR"): the cable's speed.
std::string linkSpeed(std::string_view line) {
    const std::size_t sp = line.find_last_of(" \t");
    const std::string_view w = sp == std::string_view::npos ? line : line.substr(sp + 1);
    const std::size_t x = w.find('x');
    if (x == 0 || x == std::string_view::npos || x + 1 >= w.size()) return {};
    for (std::size_t i = 0; i < w.size(); ++i)
        if (i < x ? !std::isdigit(static_cast<unsigned char>(w[i])) : i > x && !std::isupper(static_cast<unsigned char>(w[i]))) return {};
    return std::string(w);
}

// The dump as read, and what the import works out of it, step by step.
struct Dump {
    std::map<std::string, Node> nodes;  // by GUID string ("S-2c5e...", "H-e09d...")
    std::size_t switchCount = 0;
    std::map<std::string, int> level;  // 1 for switches cabled to a named host's HCA, then up
    std::map<std::string, std::pair<std::string, std::int32_t>> hcaOf;  // HCA guid -> (host, nic)
    std::int64_t unnamed = 0;
    std::vector<std::string> switchGuids;  // leaves, spines and cores, each in their names' order
    bool strictLevels = false;
    std::map<std::string, std::int32_t> railOf;
    bool railOptimised = false;
    std::map<std::string, std::int32_t> unitOfLeaf;
    std::map<std::string, std::int32_t> switchIndex;
    std::vector<std::pair<std::int32_t, std::int32_t>> switchRails;  // (switch, rail)
    std::map<std::string, std::string> nameOf;  // switch guid -> its name, one per ASIC

    int levelOf(const std::string& guid) const {
        const auto it = level.find(guid);
        return it == level.end() ? 3 : it->second;  // unreachable from hosts: core
    }
};

std::map<std::string, Node> readNodes(const std::string& path, ImportContext& ctx) {
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
            // A router (Rt) forwards between subnets as a switch does within one.
            current->isSwitch = startsWith(t, "Switch") || startsWith(t, "Rt");
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
            current->ports.push_back({peer, linkSpeed(t)});
            continue;
        }
        if (t.find('=') != std::string_view::npos) continue;  // vendid=, devid=, sysimgguid=, switchguid=, caguid=
        // Before the first record: a tool's message (ibnetdiscover's "src/query_smp.c:195;
        // umad ... bad status 110"), said and passed over.
        if (!current) ctx.report.warnings.push_back(in.where() + ": skipped before the first Switch or Ca record (a tool's message): " + std::string(utf8Prefix(t, 160)));
        else ctx.report.skip(in.where() + ": expected a Switch, Ca or port line");
    }
    return nodes;
}

// Levels by hops from the named hosts' adapters, and the switches in level order.
void levelSwitches(Dump& d) {
    // Levels: 1 for switches cabled to a named host's HCA, then up.
    for (const auto& [guid, n] : d.nodes) {
        if (n.isSwitch) continue;
        if (auto adapter = hostAdapter(n.description)) d.hcaOf[guid] = {adapter->host, adapter->nic};
        else ++d.unnamed;
    }
    std::vector<std::string> frontier;
    for (const auto& [guid, n] : d.nodes)
        if (n.isSwitch)
            for (const Port& p : n.ports)
                if (d.hcaOf.count(p.peerGuid) && !d.level.count(guid)) {
                    d.level[guid] = 1;
                    frontier.push_back(guid);
                }
    for (int l = 2; !frontier.empty(); ++l) {
        std::vector<std::string> next;
        for (const std::string& g : frontier)
            for (const Port& p : d.nodes[g].ports)
                if (d.nodes.count(p.peerGuid) && d.nodes[p.peerGuid].isSwitch && !d.level.count(p.peerGuid)) {
                    d.level[p.peerGuid] = l;
                    next.push_back(p.peerGuid);
                }
        frontier = std::move(next);
    }

    // Switches by level, then name: leaves, spines and cores each in their names' order.
    for (const auto& [guid, n] : d.nodes)
        if (n.isSwitch) d.switchGuids.push_back(guid);
    std::sort(d.switchGuids.begin(), d.switchGuids.end(), [&](const std::string& a, const std::string& b) {
        return std::pair(d.levelOf(a), switchName(a, d.nodes[a])) < std::pair(d.levelOf(b), switchName(b, d.nodes[b]));
    });
    // A fat tree's cables join adjacent levels only; a cable within a level or a switch no
    // host reaches makes it some other tree.
    d.strictLevels = d.level.size() == d.switchCount;
    for (const std::string& g : d.switchGuids)
        for (const Port& p : d.nodes[g].ports)
            if (d.nodes.count(p.peerGuid) && d.nodes[p.peerGuid].isSwitch && std::abs(d.levelOf(g) - d.levelOf(p.peerGuid)) != 1) d.strictLevels = false;
}

// Leaves and the host NICs cabled to them: rails and scalable units.
void findRails(Dump& d) {
    std::vector<std::string> leaves;
    std::vector<LeafHostCables> leafCables;
    for (const std::string& g : d.switchGuids) {
        if (d.levelOf(g) != 1) continue;
        leaves.push_back(g);
        leafCables.emplace_back();
        for (const Port& p : d.nodes[g].ports)
            if (auto hca = d.hcaOf.find(p.peerGuid); hca != d.hcaOf.end()) leafCables.back().push_back(hca->second);
    }
    for (std::size_t i = 0; i < leaves.size(); ++i)
        if (const std::int32_t rail = railOfLeaf(leafCables[i]); rail >= 0) d.railOf[leaves[i]] = rail;
    // Rail leaves stand in network racks, not on a rack of hosts: most leaves being rail
    // leaves makes the hosts' racks their scalable units', not their leaves'.
    d.railOptimised = !leaves.empty() && 2 * d.railOf.size() > leaves.size();
    const std::vector<std::int32_t> units = leafUnits(leafCables);
    for (std::size_t i = 0; i < leaves.size(); ++i) d.unitOfLeaf[leaves[i]] = units[i];
}

// Each switch ASIC its own name: the boards of a chassis (line and spine boards) share one
// description's unit name, so they take their whole description ("...:SX6536/L05/U1"), and
// any still alike their GUID too. Switches are told apart by GUID, never by description.
void nameSwitches(Dump& d) {
    std::map<std::string, int> units, whole;
    for (const std::string& g : d.switchGuids) ++units[switchName(g, d.nodes[g])], ++whole[d.nodes[g].description];
    for (const std::string& g : d.switchGuids) {
        const Node& n = d.nodes[g];
        std::string name = switchName(g, n);
        if (units[name] > 1) name = n.description.empty() ? g : n.description;
        if (units[switchName(g, n)] > 1 && whole[n.description] > 1) name += " (" + g + ")";
        d.nameOf[g] = name;
    }
}

void placeSwitchesAndHosts(Dump& d, TopologyBuilder& b) {
    auto unitZone = [&](std::int32_t unit) { return b.zone("SU" + std::to_string(unit + 1)); };
    for (const std::string& guid : d.switchGuids) {
        const int l = d.levelOf(guid);
        const SwitchTier tier = l == 1 ? SwitchTier::Rack : l == 2 ? SwitchTier::Cluster : SwitchTier::Aggregation;
        const std::string& name = d.nameOf[guid];
        std::int32_t zone = -1, rack = -1;
        if (d.railOptimised) {
            if (tier == SwitchTier::Rack) zone = unitZone(d.unitOfLeaf[guid]);
        } else {
            zone = tier == SwitchTier::Aggregation ? -1 : b.zone("zone0");
            // A chassis's leaf boards stand in one rack: its unit's.
            if (tier == SwitchTier::Rack) rack = b.rack(switchName(guid, d.nodes[guid]), zone);
        }
        d.switchIndex[guid] = b.addSwitch(name, tier, zone, rack);
        if (auto r = d.railOf.find(guid); r != d.railOf.end()) d.switchRails.emplace_back(d.switchIndex[guid], r->second);
    }
    // Each host goes with the leaf its lowest NIC is cabled to: in that leaf's rack, or in its
    // scalable unit, stood four to a cabinet as in a DGX SuperPOD (the dump does not say
    // where hosts stand).
    std::map<std::string, std::pair<std::int32_t, std::string>> firstLeaf;  // host -> (nic, leaf guid)
    for (const auto& [guid, n] : d.nodes) {
        auto hca = d.hcaOf.find(guid);
        if (hca == d.hcaOf.end() || n.ports.empty()) continue;
        auto& best = firstLeaf[hca->second.first];
        if (best.second.empty() || hca->second.second < best.first) best = {hca->second.second, n.ports.front().peerGuid};
    }
    std::map<std::int32_t, std::int32_t> hostsInUnit;
    for (const auto& [host, leaf] : firstLeaf) {
        const auto sw = d.nodes.find(leaf.second);
        const bool onSwitch = sw != d.nodes.end() && sw->second.isSwitch;
        std::int32_t rack = 0;
        if (d.railOptimised) {
            const std::int32_t unit = onSwitch && d.unitOfLeaf.count(leaf.second) ? d.unitOfLeaf[leaf.second] : 0;
            const std::int32_t slot = hostsInUnit[unit]++;
            rack = b.rack("SU" + std::to_string(unit + 1) + "-rack" + std::to_string(slot / kHostsPerCabinet + 1), unitZone(unit));
        } else {
            rack = onSwitch ? b.rack(switchName(leaf.second, sw->second), b.zone("zone0")) : b.rack("rack0", b.zone("zone0"));
        }
        b.host(host, rack, kGpusPerHost, kGpusPerHost);
    }
}

// Cables: HCA to switch from the HCA's side, switch to switch from the lower side (each
// cable appears at both ends of the dump).
void addCables(Dump& d, TopologyBuilder& b, std::int64_t& cables, std::map<std::string, std::int64_t>& speeds) {
    for (const auto& [guid, n] : d.nodes) {
        if (auto hca = d.hcaOf.find(guid); hca != d.hcaOf.end()) {
            const auto found = b.findHost(hca->second.first);
            if (!found) continue;  // an adapter with no cable
            const std::int32_t h = *found;
            b.host(hca->second.first, 0, kGpusPerHost, std::max(kGpusPerHost, hca->second.second + 1));
            for (const Port& p : n.ports)
                if (d.switchIndex.count(p.peerGuid)) {
                    b.link(TopologyBuilder::nicEnd(h, hca->second.second), TopologyBuilder::switchEnd(d.switchIndex[p.peerGuid]));
                    ++cables;
                    if (!p.speed.empty()) ++speeds[p.speed];
                }
            continue;
        }
        if (!n.isSwitch) continue;
        const int mine = d.levelOf(guid);
        for (const Port& p : n.ports) {
            if (!d.switchIndex.count(p.peerGuid)) continue;
            const int theirs = d.levelOf(p.peerGuid);
            if (theirs > mine || (theirs == mine && guid < p.peerGuid)) {
                b.link(TopologyBuilder::switchEnd(d.switchIndex[guid]), TopologyBuilder::switchEnd(d.switchIndex[p.peerGuid]));
                ++cables;
                if (!p.speed.empty()) ++speeds[p.speed];
            }
        }
    }
}

}  // namespace

void importIbnetdiscover(const std::string& path, ImportContext& ctx) {
    Dump d;
    d.nodes = readNodes(path, ctx);
    for (const auto& [g, n] : d.nodes) d.switchCount += n.isSwitch;
    if (d.switchCount == 0) throw Error(path + ": no Switch in the dump (expected ibnetdiscover output of a fabric)");

    levelSwitches(d);
    findRails(d);
    nameSwitches(d);
    TopologyBuilder b;
    placeSwitchesAndHosts(d, b);
    std::int64_t cables = 0;
    std::map<std::string, std::int64_t> speeds;  // "4xNDR" -> cables
    addCables(d, b, cables, speeds);
    Topology t = b.build();
    t.fabric = d.strictLevels ? FabricKind::InfinibandFatTree : FabricKind::GenericTree;
    for (auto [sw, rail] : d.switchRails) t.switches[static_cast<std::size_t>(sw)].rail = rail;
    ctx.report.count("hosts", static_cast<std::int64_t>(t.hosts.size()));
    ctx.report.count("switches", static_cast<std::int64_t>(t.switches.size()));
    ctx.report.count("host adapters", static_cast<std::int64_t>(d.hcaOf.size()));
    ctx.report.count("cables", cables);
    // What the import concluded, and the cables' speed that says it is InfiniBand NDR, HDR, ...
    std::string note = fabricOutlineText(outlineFabric(t));
    for (const auto& [speed, n] : speeds) note += "; " + std::to_string(n) + " cables " + speed;
    ctx.report.notes.push_back(note);
    if (!d.strictLevels)
        ctx.report.warnings.push_back(path + ": switches cabled within a level, or out of reach of every host: not a fat tree, read as a switch tree");
    if (d.unnamed > 0) ctx.report.warnings.push_back(path + ": " + std::to_string(d.unnamed) + " adapter(s) name no host (\"HOST HCA-N\", \"HOST mlx5_N\" or a host name); left out");
    setImportedTopology(std::move(t), path, ctx);
}

}  // namespace faultline
