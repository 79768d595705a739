#include "importers/run_jobs.h"

#include <algorithm>
#include <set>

namespace faultline {

// The jobs as the run keeps them: times on the run's clock, hosts as indices.
void addJobs(const JobChain& chain, const std::function<std::int32_t(const std::string&)>& findHost,
             const std::function<Nanos(EpochNs)>& toRun, Run& run) {
    std::map<std::string, std::int32_t> lastById;
    std::set<std::size_t> inRun(chain.runJobs.begin(), chain.runJobs.end());
    const Topology& topo = run.topology;
    for (std::size_t i = 0; i < chain.jobs.size(); ++i) {
        const ImportedJob& in = chain.jobs[i];
        Job j;
        j.id = in.id;
        j.name = in.name;
        if (!in.parentId.empty()) {
            auto it = lastById.find(in.parentId);
            j.parent = it == lastById.end() ? -1 : it->second;
        } else {
            lastById[in.id] = static_cast<std::int32_t>(i);
        }
        j.restarts = in.restarts;
        std::int32_t hostGpus = 0;
        for (const std::string& n : in.nodes)
            if (const std::int32_t h = findHost(n); h >= 0) {
                j.hosts.push_back(h);
                hostGpus += topo.hosts[static_cast<std::size_t>(h)].gpuCount;
            }
        // Training jobs take whole nodes: without AllocTRES, the job had its nodes' GPUs.
        j.gpus = in.gpus > 0 ? in.gpus : hostGpus;
        if (in.submit > 0) j.submit = toRun(in.submit);
        if (in.start > 0) j.start = toRun(in.start);
        if (in.end > 0) j.end = toRun(in.end);
        j.state = in.state;
        j.exitCode = in.exitCode;
        j.reason = in.reason;
        j.inRun = inRun.count(i) > 0;
        run.jobs.push_back(std::move(j));
    }
}

// topology.conf and ibnetdiscover do not say which PCI bus id each GPU has: the ids the
// kernel logs name for a host are given to its GPUs in bus order, as for a derived topology.
void namePciBusIds(const ImportedEvents& e, Topology& t) {
    std::map<std::string, std::set<std::string>> seen;
    for (const auto& [host, id] : e.gpuBusIds) seen[host].insert(id);
    for (const auto& f : e.failures)
        if (!f.where.host.empty() && !f.where.pciBusId.empty()) seen[f.where.host].insert(f.where.pciBusId);
    for (std::size_t i = 0; i < e.telemetry.gpuCount(); ++i)
        if (const TelemetryGpu& g = e.telemetry.gpu(static_cast<std::int32_t>(i)); !g.host.empty() && !g.pciBusId.empty()) seen[g.host].insert(g.pciBusId);
    for (const auto& [name, ids] : seen) {
        const auto h = t.findHost(name);
        if (!h) continue;
        const Host& host = t.hosts[static_cast<std::size_t>(*h)];
        bool unnamed = true;
        for (std::int32_t g = 0; g < host.gpuCount; ++g) unnamed = unnamed && t.gpus[static_cast<std::size_t>(host.firstGpu + g)].pciBusId.empty();
        if (!unnamed) continue;
        auto id = ids.begin();
        for (std::int32_t g = 0; g < host.gpuCount && id != ids.end(); ++g, ++id) t.gpus[static_cast<std::size_t>(host.firstGpu + g)].pciBusId = *id + ".0";
    }
}

// Ranks no file places ran on the job's nodes, numbered node by node as srun and torchrun
// number them: the nodes from the log's SLURM_JOB_NODELIST, else the run's first job in
// sacct; ranks per node from SLURM_GPUS_ON_NODE, else the world size over the nodes.
// Returns the GPUs a derived host has.
std::int32_t placeRanksOnJobNodes(const ImportedEvents& e, const JobChain& chain, std::int32_t ranks,
                                  std::map<std::int32_t, RankPlacement>& placement, std::int32_t defaultGpusPerHost, bool& stated) {
    stated = e.gpusPerNode > 0;
    std::vector<std::string> hosts = e.rankHosts;
    if (hosts.empty() && !chain.runJobs.empty()) hosts = chain.jobs[chain.runJobs.front()].nodes;
    // Only the batch host known: the first node's ranks are on it, where the node's size is known.
    if (hosts.empty() && !chain.runJobs.empty() && e.gpusPerNode > 0 && !chain.jobs[chain.runJobs.front()].batchHost.empty())
        hosts = {chain.jobs[chain.runJobs.front()].batchHost};
    if (hosts.empty() || ranks <= 0) return e.gpusPerNode > 0 ? e.gpusPerNode : defaultGpusPerHost;
    const auto nodes = static_cast<std::int32_t>(hosts.size());
    std::int32_t perNode = e.gpusPerNode;
    if (perNode <= 0) {
        // The world spread evenly over the job's nodes is as good as a stated count.
        stated = ranks % nodes == 0 && ranks / nodes <= 64;
        perNode = stated ? ranks / nodes : defaultGpusPerHost;
    }
    for (std::int32_t r = 0; r < ranks && r / perNode < nodes; ++r)
        if (!placement.count(r)) placement[r] = {r, hosts[static_cast<std::size_t>(r / perNode)], r % perNode};
    return perNode;
}

std::vector<RankPlacement> placeRanksByLocalNumbering(std::int32_t ranks, std::map<std::int32_t, RankPlacement>& placement) {
    struct Numbering {
        std::int32_t base = 0, highestLocal = -1, seen = 0;
        bool consistent = true;
        std::set<std::int32_t> locals;
    };
    std::map<std::string, Numbering> hosts;
    for (const auto& [rank, p] : placement) {
        if (p.host.empty() || p.localGpu < 0) continue;
        Numbering& n = hosts[p.host];
        if (n.seen++ == 0) n.base = rank - p.localGpu;
        else if (n.base != rank - p.localGpu) n.consistent = false;
        n.highestLocal = std::max(n.highestLocal, p.localGpu);
        n.locals.insert(p.localGpu);
    }
    std::map<std::int32_t, std::string> claimed;  // rank -> host; "" where two hosts claim it
    for (const auto& [host, n] : hosts) {
        if (!n.consistent || n.seen < 2 || n.base < 0) continue;
        for (std::int32_t local = 0; local <= n.highestLocal; ++local) {
            const std::int32_t rank = n.base + local;
            if (rank >= ranks || placement.count(rank) || n.locals.count(local)) continue;
            auto [it, fresh] = claimed.try_emplace(rank, host);
            if (!fresh) it->second.clear();
        }
    }
    std::vector<RankPlacement> placed;
    for (const auto& [rank, host] : claimed) {
        if (host.empty()) continue;
        const RankPlacement p{rank, host, rank - hosts[host].base};
        placement[rank] = p;
        placed.push_back(p);
    }
    return placed;
}

}  // namespace faultline
