#include "blast_radius.h"

#include <algorithm>
#include <cstdio>

namespace faultline {

namespace {

// Which GPUs and cables still reach the top of the fabric with some parts out of service.
// The top is every switch with no uplink of its own; a cable is live when its upper end is
// reached and its lower end is in service.
struct Reach {
    std::vector<char> gpu;
    std::vector<char> link;
};

Reach reach(const Topology& t, const std::vector<char>& switchDown, const std::vector<char>& nicDown, std::int32_t linkDown) {
    std::vector<std::vector<std::int32_t>> below(t.switches.size());  // switch -> cables under it
    std::vector<char> hasUplink(t.switches.size(), 0);
    for (std::size_t i = 0; i < t.links.size(); ++i) {
        const Link& l = t.links[i];
        if (l.upper.kind != NodeKind::Switch || !inRange(l.upper.index, t.switches.size())) continue;
        below[static_cast<std::size_t>(l.upper.index)].push_back(static_cast<std::int32_t>(i));
        if (l.lower.kind == NodeKind::Switch && inRange(l.lower.index, t.switches.size())) hasUplink[static_cast<std::size_t>(l.lower.index)] = 1;
    }
    Reach r{std::vector<char>(t.gpus.size(), 0), std::vector<char>(t.links.size(), 0)};
    std::vector<char> seen(t.switches.size(), 0);
    std::vector<std::int32_t> queue;
    for (std::size_t s = 0; s < t.switches.size(); ++s)
        if (!hasUplink[s] && !switchDown[s]) {
            seen[s] = 1;
            queue.push_back(static_cast<std::int32_t>(s));
        }
    for (std::size_t next = 0; next < queue.size(); ++next)
        for (std::int32_t li : below[static_cast<std::size_t>(queue[next])]) {
            if (li == linkDown) continue;
            const LinkEnd& lower = t.links[static_cast<std::size_t>(li)].lower;
            if (lower.kind == NodeKind::Nic) {
                if (!inRange(lower.index, t.nics.size()) || nicDown[static_cast<std::size_t>(lower.index)]) continue;
                r.link[static_cast<std::size_t>(li)] = 1;
                if (const std::int32_t g = t.gpuOfNic(lower.index); g >= 0) r.gpu[static_cast<std::size_t>(g)] = 1;
            } else if (inRange(lower.index, t.switches.size()) && !switchDown[static_cast<std::size_t>(lower.index)]) {
                r.link[static_cast<std::size_t>(li)] = 1;
                if (!seen[static_cast<std::size_t>(lower.index)]) {
                    seen[static_cast<std::size_t>(lower.index)] = 1;
                    queue.push_back(lower.index);
                }
            }
        }
    return r;
}

// Every cable above the given ends, breadth first, so the lowest tier comes first.
void climb(const Topology& t, std::vector<LinkEnd> from, BlastRadius& out) {
    std::vector<char> seen(t.switches.size(), 0);
    for (std::size_t next = 0; next < from.size(); ++next)
        for (std::size_t i = 0; i < t.links.size(); ++i) {
            const Link& l = t.links[i];
            if (!(l.lower == from[next]) || l.upper.kind != NodeKind::Switch || !inRange(l.upper.index, t.switches.size())) continue;
            out.pathUp.push_back(static_cast<std::int32_t>(i));
            if (seen[static_cast<std::size_t>(l.upper.index)]) continue;
            seen[static_cast<std::size_t>(l.upper.index)] = 1;
            out.switchesUp.push_back(l.upper.index);
            from.push_back(l.upper);
        }
}

// The part's share of the uplinks of the switches below it, and a rail leaf's hosts.
void uplinkShare(const Topology& t, std::int32_t sw, BlastRadius& out) {
    const Switch& part = t.switches[static_cast<std::size_t>(sw)];
    out.rail = part.rail;
    std::vector<char> lower(t.switches.size(), 0), peer(t.switches.size(), 0), railHost(t.hosts.size(), 0);
    for (const Link& l : t.links) {
        if (l.upper.kind != NodeKind::Switch || l.upper.index != sw) continue;
        if (l.lower.kind == NodeKind::Switch && inRange(l.lower.index, t.switches.size())) lower[static_cast<std::size_t>(l.lower.index)] = 1;
        if (l.lower.kind == NodeKind::Nic && inRange(l.lower.index, t.nics.size())) railHost[static_cast<std::size_t>(t.nics[static_cast<std::size_t>(l.lower.index)].host)] = 1;
    }
    if (part.rail >= 0) out.railHosts = static_cast<std::size_t>(std::count(railHost.begin(), railHost.end(), 1));
    for (const Link& l : t.links) {
        if (l.lower.kind != NodeKind::Switch || l.upper.kind != NodeKind::Switch || !inRange(l.lower.index, t.switches.size()) ||
            !inRange(l.upper.index, t.switches.size()) || !lower[static_cast<std::size_t>(l.lower.index)] ||
            t.switches[static_cast<std::size_t>(l.upper.index)].tier != part.tier)
            continue;
        ++out.uplinks;
        out.uplinksLost += l.upper.index == sw;
        peer[static_cast<std::size_t>(l.upper.index)] = 1;
    }
    out.lowerSwitches = static_cast<std::size_t>(std::count(lower.begin(), lower.end(), 1));
    out.peers = static_cast<std::size_t>(std::count(peer.begin(), peer.end(), 1));
    if (out.lowerSwitches == 0) return;
    const SwitchTier below = t.switches[static_cast<std::size_t>(std::find(lower.begin(), lower.end(), 1) - lower.begin())].tier;
    out.lowerIsWholeTier = out.lowerSwitches == t.switchCount(below);
}

}  // namespace

BlastRadius blastRadius(const Topology& t, const ComponentRef& part) {
    BlastRadius out;
    out.part = part;
    std::vector<char> switchDown(t.switches.size(), 0), nicDown(t.nics.size(), 0), gpuDown(t.gpus.size(), 0);
    std::int32_t linkDown = -1;
    std::vector<LinkEnd> start;  // where the way up begins
    switch (part.kind) {
        case ComponentKind::Switch:
            if (!inRange(part.index, t.switches.size())) return out;
            switchDown[static_cast<std::size_t>(part.index)] = 1;
            start.push_back({NodeKind::Switch, part.index});
            break;
        case ComponentKind::Link:
            if (!inRange(part.index, t.links.size())) return out;
            linkDown = part.index;
            out.pathUp.push_back(part.index);
            start.push_back(t.links[static_cast<std::size_t>(part.index)].upper);
            if (start.back().kind == NodeKind::Switch && inRange(start.back().index, t.switches.size())) out.switchesUp.push_back(start.back().index);
            break;
        case ComponentKind::Nic:
            if (!inRange(part.index, t.nics.size())) return out;
            nicDown[static_cast<std::size_t>(part.index)] = 1;
            start.push_back({NodeKind::Nic, part.index});
            break;
        case ComponentKind::Host:
        case ComponentKind::Gpu: {
            const std::size_t limit = part.kind == ComponentKind::Host ? t.hosts.size() : t.gpus.size();
            if (!inRange(part.index, limit)) return out;
            const std::int32_t host = part.kind == ComponentKind::Host ? part.index : t.gpus[static_cast<std::size_t>(part.index)].host;
            // A host takes all its GPUs and NICs with it; a GPU only itself (its NIC's rail
            // is of no use without it).
            for (std::size_t n = 0; n < t.nics.size(); ++n) {
                if (t.nics[n].host != host) continue;
                if (part.kind == ComponentKind::Host || t.gpuOfNic(static_cast<std::int32_t>(n)) == part.index) {
                    nicDown[n] = 1;
                    start.push_back({NodeKind::Nic, static_cast<std::int32_t>(n)});
                }
            }
            if (part.kind == ComponentKind::Host)
                for (std::int32_t g : t.gpusOfHost(host)) gpuDown[static_cast<std::size_t>(g)] = 1;
            else gpuDown[static_cast<std::size_t>(part.index)] = 1;
            break;
        }
        case ComponentKind::None: return out;
    }
    const Reach before = reach(t, std::vector<char>(t.switches.size(), 0), std::vector<char>(t.nics.size(), 0), -1);
    const Reach after = reach(t, switchDown, nicDown, linkDown);
    for (std::size_t g = 0; g < t.gpus.size(); ++g)
        if (gpuDown[g] || (before.gpu[g] && !after.gpu[g])) out.gpus.push_back(static_cast<std::int32_t>(g));
    for (std::size_t i = 0; i < t.links.size(); ++i)
        if (before.link[i] && !after.link[i]) out.links.push_back(static_cast<std::int32_t>(i));
    // Hosts and racks all of whose GPUs are gone: what a person names instead of 16 GPUs.
    std::vector<int> cutPerHost(t.hosts.size(), 0), cutPerRack(t.racks.size(), 0), gpusPerRack(t.racks.size(), 0);
    for (std::int32_t g : out.gpus) ++cutPerHost[static_cast<std::size_t>(t.gpus[static_cast<std::size_t>(g)].host)];
    for (std::size_t h = 0; h < t.hosts.size(); ++h) {
        if (!inRange(t.hosts[h].rack, t.racks.size())) continue;
        gpusPerRack[static_cast<std::size_t>(t.hosts[h].rack)] += t.hosts[h].gpuCount;
        cutPerRack[static_cast<std::size_t>(t.hosts[h].rack)] += cutPerHost[h];
        if (t.hosts[h].gpuCount > 0 && cutPerHost[h] == t.hosts[h].gpuCount) out.hosts.push_back(static_cast<std::int32_t>(h));
    }
    for (std::size_t r = 0; r < t.racks.size(); ++r)
        if (gpusPerRack[r] > 0 && cutPerRack[r] == gpusPerRack[r]) out.racks.push_back(static_cast<std::int32_t>(r));
    climb(t, start, out);
    if (part.kind == ComponentKind::Switch) {
        out.gpusBelow = t.gpusBelowSwitch(part.index).size();
        uplinkShare(t, part.index, out);
    }
    if (part.kind == ComponentKind::Link) out.gpusBelow = t.gpusBelowLink(part.index).size();
    return out;
}

ComponentRef failedPart(const Run& run, const Incident& incident) {
    if (!inRange(incident.failure, run.failures.size())) return {};
    return run.failures[static_cast<std::size_t>(incident.failure)].component;
}

std::vector<std::int32_t> suspectGpus(const Run& run, const Incident& incident) {
    const ComponentRef part = failedPart(run, incident);
    std::vector<std::int32_t> out;
    for (std::int32_t rank : incident.suspectRanks) {
        if (!inRange(rank, run.rankToGpu.size())) continue;
        const std::int32_t g = run.rankToGpu[static_cast<std::size_t>(rank)];
        const bool tookOut = std::find(incident.gpus.begin(), incident.gpus.end(), g) != incident.gpus.end();
        const bool isPart = part.kind == ComponentKind::Gpu && part.index == g;
        if (tookOut && !isPart && std::find(out.begin(), out.end(), g) == out.end()) out.push_back(g);
    }
    return out;
}

std::string partName(const Topology& t, const ComponentRef& part) {
    switch (part.kind) {
        case ComponentKind::Gpu: return inRange(part.index, t.gpus.size()) ? t.gpuName(part.index) : "";
        case ComponentKind::Host: return inRange(part.index, t.hosts.size()) ? t.hosts[static_cast<std::size_t>(part.index)].name : "";
        case ComponentKind::Nic: return inRange(part.index, t.nics.size()) ? t.nicName(part.index) : "";
        case ComponentKind::Switch: return inRange(part.index, t.switches.size()) ? t.switches[static_cast<std::size_t>(part.index)].name : "";
        case ComponentKind::Link: return inRange(part.index, t.links.size()) ? t.linkName(part.index) : "";
        case ComponentKind::None: break;
    }
    return "";
}

namespace {

template <typename Name>
std::string nameList(const std::vector<std::int32_t>& items, std::size_t maxNames, Name name) {
    std::string out;
    for (std::size_t i = 0; i < items.size() && i < maxNames; ++i) out += (i ? ", " : "") + name(items[i]);
    if (items.size() > maxNames) out += ", and " + std::to_string(items.size() - maxNames) + " more";
    return out;
}

}  // namespace

std::string uplinkShareText(const Topology& t, const BlastRadius& r, bool withCables) {
    if (r.uplinksLost == 0 || r.uplinks == 0 || r.part.kind != ComponentKind::Switch) return "";
    const Switch& part = t.switches[static_cast<std::size_t>(r.part.index)];
    const SwitchTier below = part.tier == SwitchTier::Aggregation ? SwitchTier::Cluster : SwitchTier::Rack;
    const std::string mine = switchTierName(part.tier, t.fabric), theirs = switchTierName(below, t.fabric);
    auto plural = [&](const std::string& name, std::size_t n) {
        if (n == 1 || t.fabric == FabricKind::RoceClos) return name;
        return name == "leaf" ? std::string("leaves") : name + "s";
    };
    char percent[32];
    std::snprintf(percent, sizeof percent, "-%.1f%%", 100.0 * static_cast<double>(r.uplinksLost) / static_cast<double>(r.uplinks));
    // Cabled to every switch below: what it carried is the fabric's bisection.
    const std::string what = r.lowerIsWholeTier && t.fabric != FabricKind::RoceClos
                                 ? "bisection bandwidth "
                                 : "uplink bandwidth of the " + std::to_string(r.lowerSwitches) + " " + plural(theirs, r.lowerSwitches) + " below it ";
    std::string out = what + percent + " (" + std::to_string(r.peers - 1) + " of " + std::to_string(r.peers) + " " + plural(mine, r.peers) + " left";
    if (withCables) out += "; " + std::to_string(r.uplinksLost) + " of " + std::to_string(r.uplinks) + " " + theirs + "-" + mine + " cables out";
    return out + ")";
}

std::string trafficThroughText(const Run& run, const ComponentRef& part, std::size_t maxJobs) {
    const Topology& t = run.topology;
    std::vector<std::int32_t> gpus;
    if (part.kind == ComponentKind::Switch && inRange(part.index, t.switches.size())) gpus = t.gpusBelowSwitch(part.index);
    else if (part.kind == ComponentKind::Link && inRange(part.index, t.links.size())) gpus = t.gpusBelowLink(part.index);
    else if (part.kind == ComponentKind::Nic && inRange(part.index, t.nics.size())) {
        if (const std::int32_t g = t.gpuOfNic(part.index); g >= 0) gpus = {g};
    } else if (part.kind == ComponentKind::Host && inRange(part.index, t.hosts.size())) gpus = t.gpusOfHost(part.index);
    if (gpus.empty()) return {};
    std::vector<bool> below(t.gpus.size(), false), hosts(t.hosts.size(), false);
    for (std::int32_t g : gpus) {
        below[static_cast<std::size_t>(g)] = true;
        hosts[static_cast<std::size_t>(t.gpus[static_cast<std::size_t>(g)].host)] = true;
    }
    std::vector<std::int32_t> ranks;
    for (std::size_t r = 0; r < run.rankToGpu.size(); ++r)
        if (inRange(run.rankToGpu[r], below.size()) && below[static_cast<std::size_t>(run.rankToGpu[r])]) ranks.push_back(static_cast<std::int32_t>(r));
    std::vector<std::string> jobs;
    for (const Job& j : run.jobs)
        if (j.parent < 0 && std::any_of(j.hosts.begin(), j.hosts.end(), [&](std::int32_t h) { return inRange(h, hosts.size()) && hosts[static_cast<std::size_t>(h)]; }) &&
            std::find(jobs.begin(), jobs.end(), j.id) == jobs.end())
            jobs.push_back(j.id);
    if (ranks.empty() && jobs.empty()) return {};
    std::string out = "carries the traffic of ";
    out += ranks.empty() ? std::to_string(gpus.size()) + (gpus.size() == 1 ? " GPU" : " GPUs") : (ranks.size() == 1 ? "rank " : "ranks ") + rankRanges(ranks);
    if (!jobs.empty()) {
        out += jobs.size() == 1 ? " of job " : " of jobs ";
        for (std::size_t i = 0; i < jobs.size() && i < maxJobs; ++i) out += (i ? ", " : "") + jobs[i];
        if (jobs.size() > maxJobs) out += " and " + std::to_string(jobs.size() - maxJobs) + " more";
    }
    return out;
}

std::string blastRadiusToText(const Topology& t, const BlastRadius& r, std::size_t maxNames) {
    std::string out = "Blast radius of " + partName(t, r.part) + ":\n";
    if (r.gpus.empty()) {
        out += r.gpusBelow > 0 ? "  cuts off no GPU: the " + std::to_string(r.gpusBelow) + " GPUs below it keep another path up the fabric\n"
                               : "  cuts off no GPU\n";
    } else {
        out += "  cuts off " + std::to_string(r.gpus.size()) + (r.gpus.size() == 1 ? " GPU" : " GPUs");
        if (!r.racks.empty()) out += " (" + std::to_string(r.racks.size()) + (r.racks.size() == 1 ? " whole rack)" : " whole racks)");
        out += "\n";
        if (!r.racks.empty())
            out += "  racks: " + nameList(r.racks, maxNames, [&](std::int32_t i) { return t.racks[static_cast<std::size_t>(i)].name; }) + "\n";
        if (!r.hosts.empty())
            out += "  hosts: " + nameList(r.hosts, maxNames, [&](std::int32_t i) { return t.hosts[static_cast<std::size_t>(i)].name; }) + "\n";
        else out += "  GPUs: " + nameList(r.gpus, maxNames, [&](std::int32_t i) { return t.gpuName(i); }) + "\n";
    }
    if (r.rail >= 0 && r.railHosts > 0)
        out += "  rail " + std::to_string(r.rail) + ": NIC " + std::to_string(r.rail) + " of each of its " + std::to_string(r.railHosts) +
               " hosts (their other NICs keep their own rails)\n";
    if (const std::string share = uplinkShareText(t, r); !share.empty()) out += "  " + share + "\n";
    out += "  cables out of service: " + std::to_string(r.links.size()) + "\n";
    if (r.switchesUp.empty()) {
        out += "  path up: none (top tier)\n";
    } else {
        // Per tier, as counts: a rack switch reaches every cluster switch of its zone.
        std::string tiers;
        for (SwitchTier tier : {SwitchTier::Rack, SwitchTier::Cluster, SwitchTier::Aggregation}) {
            std::vector<std::int32_t> here;
            for (std::int32_t s : r.switchesUp)
                if (t.switches[static_cast<std::size_t>(s)].tier == tier) here.push_back(s);
            if (here.empty()) continue;
            tiers += (tiers.empty() ? "" : " -> ") + std::string(switchTierName(tier, t.fabric)) + " " +
                     nameList(here, 3, [&](std::int32_t i) { return t.switches[static_cast<std::size_t>(i)].name; });
        }
        out += "  path up (" + std::to_string(r.pathUp.size()) + " cables): " + tiers + "\n";
    }
    return out;
}

}  // namespace faultline
