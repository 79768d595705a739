// Slurm topology.conf, tree form (SwitchName=... Nodes=... / Switches=...) and block form
// (BlockName=... Nodes=...). Hosts get 8 GPUs and 8 NICs each (the file does not say).
#include "importers/slurm/readers.h"
#include "importers/text/hostlist.h"
#include "importers/text/line_reader.h"
#include "importers/text/text_parse.h"
#include "importers/events/topology_builder.h"

#include <functional>
#include <map>

namespace faultline {

namespace {


struct TreeSwitch {
    std::string name;
    std::vector<std::string> nodes;
    std::vector<std::string> children;
    std::int64_t line = 0;
};

// "Key=Value Key=Value": the value of `key`, or empty.
std::string_view valueOf(std::string_view line, std::string_view key) {
    std::size_t at = 0;
    while ((at = line.find(key, at)) != std::string_view::npos) {
        if ((at == 0 || line[at - 1] == ' ' || line[at - 1] == '\t') && at + key.size() < line.size() && line[at + key.size()] == '=') {
            std::string_view v = line.substr(at + key.size() + 1);
            return v.substr(0, v.find_first_of(" \t"));
        }
        at += key.size();
    }
    return {};
}

}  // namespace

void importSlurmTopology(const std::string& path, ImportContext& ctx) {
    LineReader in(path);
    std::vector<TreeSwitch> switches;
    std::vector<std::pair<std::string, std::vector<std::string>>> blocks;
    std::string_view line;
    auto expand = [&](std::string_view list) {
        try {
            return expandHostList(list);
        } catch (const Error& e) {
            in.fail(e.what());
        }
    };
    while (in.next(line)) {
        line = trim(line.substr(0, line.find('#')));
        if (line.empty()) continue;
        if (startsWith(line, "SwitchName=")) {
            TreeSwitch s{std::string(valueOf(line, "SwitchName")), {}, {}, in.lineNumber()};
            if (auto n = valueOf(line, "Nodes"); !n.empty()) s.nodes = expand(n);
            if (auto c = valueOf(line, "Switches"); !c.empty()) s.children = expand(c);
            if (s.nodes.empty() && s.children.empty()) in.fail("SwitchName " + s.name + " has neither Nodes= nor Switches=");
            switches.push_back(std::move(s));
        } else if (startsWith(line, "BlockName=")) {
            const std::string_view n = valueOf(line, "Nodes");
            if (n.empty()) in.fail("expected Nodes= after BlockName=");
            blocks.emplace_back(std::string(valueOf(line, "BlockName")), expand(n));
        } else if (startsWith(line, "BlockSizes=")) {
            continue;  // scheduling hint, not topology
        } else {
            in.fail("expected SwitchName=..., BlockName=... or BlockSizes=... (a Slurm topology.conf line)");
        }
    }
    if (switches.empty() && blocks.empty()) throw Error(path + ": no SwitchName= or BlockName= lines: not a Slurm topology.conf");

    TopologyBuilder b;
    // The zone of racks nothing above says more of; made only when some rack needs it, so a
    // tree whose every leaf has a cluster switch has no empty zone.
    auto zone0 = [&] { return b.zone("zone0"); };
    // Block form: a block is a rack (an NVLink domain), all in one zone.
    for (const auto& [name, nodes] : blocks) {
        const std::int32_t rack = b.rack(name, zone0());
        for (const std::string& n : nodes) b.host(n, rack, kGpusPerHost, kGpusPerHost);
    }
    // Tree form: leaf switches (with Nodes=) are rack switches, one rack each; their parents
    // are cluster switches; anything higher joins zones (aggregation). Cluster switches that
    // share a leaf (the spines of one pod, each cabled to every rack of it) are one zone; in a
    // strict tree each parent of leaves is a zone of its own.
    std::map<std::string, const TreeSwitch*> byName;
    for (const TreeSwitch& s : switches) byName[s.name] = &s;
    std::map<std::string, std::string> parent;  // a leaf's first parent
    std::map<std::string, std::string> pod;     // union-find over cluster switches sharing a leaf
    std::function<std::string(const std::string&)> podOf = [&](const std::string& n) -> std::string {
        auto it = pod.find(n);
        if (it == pod.end() || it->second == n) return n;
        return it->second = podOf(it->second);
    };
    for (const TreeSwitch& s : switches)
        for (const std::string& c : s.children) {
            if (!byName.count(c)) throw Error(path + ":" + std::to_string(s.line) + ": switch " + s.name + " names switch " + c + ", which no SwitchName= line defines");
            if (auto [it, fresh] = parent.try_emplace(c, s.name); !fresh && byName[c]->children.empty()) {
                const std::string a = podOf(it->second), bPod = podOf(s.name);
                if (a != bPod) pod[bPod] = a;
            }
        }
    std::map<std::string, int> height;  // leaves 1, their parents 2, ...
    std::function<int(const TreeSwitch&, int)> heightOf = [&](const TreeSwitch& s, int depth) -> int {
        if (depth > 64) throw Error(path + ": switch " + s.name + " is part of a loop of Switches=");
        if (auto it = height.find(s.name); it != height.end()) return it->second;
        int h = s.nodes.empty() ? 0 : 1;
        for (const std::string& c : s.children) h = std::max(h, heightOf(*byName[c], depth + 1) + 1);
        height[s.name] = h;
        return h;
    };
    for (const TreeSwitch& s : switches) heightOf(s, 0);
    auto tierOf = [&](const TreeSwitch& s) {
        const int h = height[s.name];
        return h <= 1 ? SwitchTier::Rack : h == 2 ? SwitchTier::Cluster : SwitchTier::Aggregation;
    };
    // Zones: the cluster switch above a leaf; leaves without one share zone0.
    auto zoneOfLeaf = [&](const std::string& leaf) {
        auto p = parent.find(leaf);
        return p == parent.end() ? zone0() : b.zone(podOf(p->second));
    };
    for (const TreeSwitch& s : switches) {
        const SwitchTier tier = tierOf(s);
        std::int32_t zoneIndex = -1, rackIndex = -1;
        if (tier == SwitchTier::Rack) {
            zoneIndex = zoneOfLeaf(s.name);
            rackIndex = b.rack(s.name, zoneIndex);
        } else if (tier == SwitchTier::Cluster) {
            zoneIndex = b.zone(podOf(s.name));
        }
        b.addSwitch(s.name, tier, zoneIndex, rackIndex);
        for (const std::string& n : s.nodes) {
            const std::int32_t h = b.host(n, rackIndex >= 0 ? rackIndex : b.rack(s.name, zoneIndex >= 0 ? zoneIndex : zone0()), kGpusPerHost, kGpusPerHost);
            for (std::int32_t nic = 0; nic < kGpusPerHost; ++nic)
                b.link(TopologyBuilder::nicEnd(h, nic), TopologyBuilder::switchEnd(*b.findSwitch(s.name)));
        }
    }
    for (const TreeSwitch& s : switches)
        for (const std::string& c : s.children) b.link(TopologyBuilder::switchEnd(*b.findSwitch(c)), TopologyBuilder::switchEnd(*b.findSwitch(s.name)));

    Topology t = b.build();
    // Levels of switches say nothing of the cabling's kind: a tree, named leaf, spine, core.
    t.fabric = FabricKind::GenericTree;
    ctx.report.count("hosts", static_cast<std::int64_t>(t.hosts.size()));
    ctx.report.count("racks", static_cast<std::int64_t>(t.racks.size()));
    if (!t.switches.empty()) ctx.report.count("switches", static_cast<std::int64_t>(t.switches.size()));
    setImportedTopology(std::move(t), path, ctx);
}

}  // namespace faultline
