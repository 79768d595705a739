#include "fleet.h"

#include "fleet_jobs.h"
#include "model/error.h"
#include "random.h"
#include "simulated_failure.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace faultline {

namespace {

// Where the pre-training cluster's parts start in the fleet, and how its switches and cables
// map there (by name: the job's share of a cluster is built with the same names).
class PartMap {
public:
    PartMap(const Topology& fleet, const Topology& part, std::int32_t cluster, const std::string& prefix) : m_fleet(fleet), m_part(part) {
        for (std::size_t h = 0; h < fleet.hosts.size(); ++h)
            if (fleet.clusterOfHost(static_cast<std::int32_t>(h)) == cluster) {
                m_host = static_cast<std::int32_t>(h);
                break;
            }
        m_gpu = fleet.hosts[static_cast<std::size_t>(m_host)].firstGpu;
        m_nic = fleet.hosts[static_cast<std::size_t>(m_host)].firstNic;
        std::unordered_map<std::string, std::int32_t> byName;
        for (std::size_t s = 0; s < fleet.switches.size(); ++s)
            if (fleet.switches[s].cluster == cluster) byName.emplace(fleet.switches[s].name, static_cast<std::int32_t>(s));
        for (const Switch& s : part.switches) {
            const auto found = byName.find(prefix + s.name);
            if (found == byName.end()) throw Error("fleet: switch " + s.name + " of the pre-training job has no place in its cluster");
            m_switches.push_back(found->second);
        }
        std::unordered_map<std::uint64_t, std::int32_t> links;
        for (std::size_t l = 0; l < fleet.links.size(); ++l) links.emplace(key(fleet.links[l].lower, fleet.links[l].upper), static_cast<std::int32_t>(l));
        for (const Link& l : part.links) {
            const auto found = links.find(key(moved(l.lower), moved(l.upper)));
            if (found == links.end()) throw Error("fleet: a cable of the pre-training job has no place in its cluster");
            m_links.push_back(found->second);
        }
    }
    std::int32_t gpu(std::int32_t g) const { return g + m_gpu; }
    std::int32_t host(std::int32_t h) const { return h + m_host; }
    std::vector<std::int32_t> hosts() const {
        std::vector<std::int32_t> out(m_part.hosts.size());
        std::iota(out.begin(), out.end(), m_host);
        return out;
    }
    ComponentRef component(ComponentRef c) const {
        switch (c.kind) {
            case ComponentKind::Gpu: return {c.kind, c.index + m_gpu};
            case ComponentKind::Host: return {c.kind, c.index + m_host};
            case ComponentKind::Nic: return {c.kind, c.index + m_nic};
            case ComponentKind::Switch: return {c.kind, m_switches[static_cast<std::size_t>(c.index)]};
            case ComponentKind::Link: return {c.kind, m_links[static_cast<std::size_t>(c.index)]};
            case ComponentKind::None: break;
        }
        return c;
    }
    // The part's name in a failure's evidence, as the fleet calls it.
    void rename(Failure& f, ComponentRef before) const {
        const auto [from, to] = names(before, f.component);
        if (from.empty()) return;
        if (const auto at = f.detail.find(from); at != std::string::npos) f.detail.replace(at, from.size(), to);
    }

private:
    LinkEnd moved(LinkEnd e) const { return e.kind == NodeKind::Nic ? LinkEnd{e.kind, e.index + m_nic} : LinkEnd{e.kind, m_switches[static_cast<std::size_t>(e.index)]}; }
    static std::uint64_t key(LinkEnd lower, LinkEnd upper) {
        auto node = [](LinkEnd e) { return static_cast<std::uint64_t>(e.index) * 2 + (e.kind == NodeKind::Switch ? 1 : 0); };
        return node(lower) << 32 | node(upper);
    }
    std::pair<std::string, std::string> names(ComponentRef before, ComponentRef after) const {
        switch (before.kind) {
            case ComponentKind::Gpu: return {m_part.gpuName(before.index), m_fleet.gpuName(after.index)};
            case ComponentKind::Host: return {m_part.hosts[static_cast<std::size_t>(before.index)].name, m_fleet.hosts[static_cast<std::size_t>(after.index)].name};
            case ComponentKind::Nic: return {m_part.nicName(before.index), m_fleet.nicName(after.index)};
            case ComponentKind::Switch: return {m_part.switches[static_cast<std::size_t>(before.index)].name, m_fleet.switches[static_cast<std::size_t>(after.index)].name};
            case ComponentKind::Link: return {m_part.linkName(before.index), m_fleet.linkName(after.index)};
            case ComponentKind::None: break;
        }
        return {};
    }

    const Topology& m_fleet;
    const Topology& m_part;
    std::int32_t m_host = 0, m_gpu = 0, m_nic = 0;
    std::vector<std::int32_t> m_switches, m_links;
};

// The pre-training job's runs between its downtimes, as sacct lists a requeued job.
std::vector<Job> chainJobs(const Run& job, const std::vector<std::int32_t>& hosts, int gpus, Nanos duration) {
    std::vector<Job> out;
    Nanos start = 0;
    for (std::size_t i = 0; i <= job.downtimes.size() && start < duration; ++i) {
        Job j;
        j.id = "100001";
        j.name = "llama3-405b-pretrain";
        j.restarts = static_cast<std::int32_t>(i);
        j.hosts = hosts;
        j.gpus = gpus;
        j.submit = start;
        j.start = start;
        j.inRun = true;
        j.reason = "pre-training";
        if (i < job.downtimes.size()) {
            const Downtime& d = job.downtimes[i];
            j.end = d.detected;
            const bool software = !d.planned && rootCauseInfo(d.cause).scope == CauseScope::Software;
            j.state = d.planned ? "CANCELLED" : software ? "FAILED" : "NODE_FAIL";
            j.exitCode = software ? "1:0" : "0:0";
            j.reason = std::string(rootCauseLabel(d.cause));
            start = d.restarted;
        } else {
            j.state = "RUNNING";
        }
        out.push_back(std::move(j));
    }
    return out;
}

class FleetSimulation {
public:
    explicit FleetSimulation(const SimulationParams& p) : m_p(p), m_random(p.seed ^ 0x666c656574ULL) {}
    Run run();

private:
    static void placePretraining(Run& fleet, const Run& job, const PartMap& map);
    void strikeFleet(Run& fleet, const std::vector<char>& reserved, std::vector<Job>& jobs);

    const SimulationParams& m_p;
    Random m_random;
};

Run FleetSimulation::run() {
    const FleetShape& shape = m_p.fleet;
    const FleetClusterShape& home = shape.clusters.at(static_cast<std::size_t>(shape.pretrainingCluster));
    if (shape.pretrainingGpus > home.gpus) throw Error("fleet: the pre-training job is larger than its cluster");

    // The pre-training job: a run of its own on its share of the cluster.
    // Its fabric is built as buildClusterFabric builds the cluster's, so its parts keep their names.
    SimulationParams single = m_p;
    single.fleet = {};
    single.fabricKind = home.fabric;
    single.fabric = FabricShape{};
    single.fabric.gpus = shape.pretrainingGpus;
    single.fatTree = FatTreeShape{};
    single.fatTree.gpus = shape.pretrainingGpus;
    const Run job = simulate(single);

    Run fleet;
    fleet.topology = buildFleetTopology(shape);
    fleet.info = {m_p.preset + " (seed " + std::to_string(m_p.seed) + ")", m_p.startEpochNs, job.info.duration,
                  "simulator preset " + m_p.preset + " seed " + std::to_string(m_p.seed)};
    const PartMap map(fleet.topology, job.topology, shape.pretrainingCluster, fleetNamePrefix(home));
    std::vector<char> reserved(fleet.topology.hosts.size(), 0);
    for (std::int32_t h : map.hosts()) reserved[static_cast<std::size_t>(h)] = 1;

    std::vector<Job> jobs = chainJobs(job, map.hosts(), shape.pretrainingGpus, job.info.duration);
    std::vector<Job> others = scheduleFleetJobs(fleet.topology, shape, reserved, job.info.duration, 200'001, m_random);
    jobs.insert(jobs.end(), std::make_move_iterator(others.begin()), std::make_move_iterator(others.end()));

    placePretraining(fleet, job, map);
    strikeFleet(fleet, reserved, jobs);

    // Jobs in start order (the run file's rule), every index into them renumbered.
    std::vector<std::int32_t> order(jobs.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::int32_t a, std::int32_t b) { return *jobs[static_cast<std::size_t>(a)].start < *jobs[static_cast<std::size_t>(b)].start; });
    std::vector<std::int32_t> newIndex(jobs.size());
    for (std::size_t i = 0; i < order.size(); ++i) newIndex[static_cast<std::size_t>(order[i])] = static_cast<std::int32_t>(i);
    for (std::size_t i = 0; i < order.size(); ++i) fleet.jobs.push_back(std::move(jobs[static_cast<std::size_t>(order[i])]));
    for (Failure& f : fleet.failures) {
        for (std::int32_t& j : f.jobs) j = newIndex[static_cast<std::size_t>(j)];
        std::sort(f.jobs.begin(), f.jobs.end());
    }
    for (Downtime& d : fleet.downtimes)
        if (d.job >= 0) d.job = newIndex[static_cast<std::size_t>(d.job)];
    return fleet;
}

// The job's run moved onto the fleet: its failures' parts, its stragglers' GPUs; each
// downtime names the run of the job it ended.
void FleetSimulation::placePretraining(Run& fleet, const Run& job, const PartMap& map) {
    fleet.jobShape = job.jobShape;
    fleet.downtimes = job.downtimes;
    fleet.checkpoints = job.checkpoints;
    fleet.steps = job.steps;
    fleet.stragglers = job.stragglers;
    for (StragglerEpisode& s : fleet.stragglers) s.gpu = map.gpu(s.gpu);
    for (const Failure& original : job.failures) {
        Failure f = original;
        f.component = map.component(original.component);
        for (std::int32_t& g : f.gpus) g = map.gpu(g);
        map.rename(f, original.component);
        fleet.failures.push_back(std::move(f));
    }
    for (std::size_t i = 0; i < fleet.downtimes.size(); ++i) {
        Downtime& d = fleet.downtimes[i];
        d.job = static_cast<std::int32_t>(i);  // chain job i ends with downtime i
        if (d.failure >= 0) fleet.failures[static_cast<std::size_t>(d.failure)].jobs = {d.job};
    }
}

// Failures on the rest of the fleet at the pre-training job's rate per GPU-day, each ending
// the jobs that hold its GPUs (a software fault: the job it crashed), merged in time order.
void FleetSimulation::strikeFleet(Run& fleet, const std::vector<char>& reserved, std::vector<Job>& jobs) {
    const Topology& t = fleet.topology;
    std::vector<std::int32_t> freeGpus;
    for (std::size_t h = 0; h < t.hosts.size(); ++h)
        if (!reserved[h])
            for (int g = 0; g < t.hosts[h].gpuCount; ++g) freeGpus.push_back(t.hosts[h].firstGpu + g);
    const Nanos duration = fleet.info.duration;
    const double perDay = m_p.failuresPerGpuDay * static_cast<double>(freeGpus.size());
    std::vector<Nanos> times;
    for (double at = m_random.exponential(perDay); at * kDay < static_cast<double>(duration); at += m_random.exponential(perDay))
        times.push_back(static_cast<Nanos>(at * kDay));
    const std::vector<RootCause> causes = drawLlama3CauseMix(static_cast<int>(times.size()), m_random);

    auto inReserved = [&](const Failure& f) {
        return std::any_of(f.gpus.begin(), f.gpus.end(), [&](std::int32_t g) { return reserved[static_cast<std::size_t>(t.gpus[static_cast<std::size_t>(g)].host)] != 0; });
    };
    FleetJobLedger ledger(t, jobs);
    std::vector<Failure> struck;
    for (std::size_t i = 0; i < times.size(); ++i) {
        const RootCause cause = causes[i];
        const bool software = rootCauseInfo(cause).scope == CauseScope::Software;
        Failure f;
        std::vector<std::int32_t> hosts;
        if (software) {
            // A crash or a hang of the job itself: some running job's.
            f = drawFailure(t, cause, times[i], m_random);
            const std::int32_t gpu = freeGpus[static_cast<std::size_t>(m_random.index(static_cast<std::int64_t>(freeGpus.size())))];
            hosts = {t.gpus[static_cast<std::size_t>(gpu)].host};
        } else {
            for (int tries = 0; tries < 50; ++tries) {  // parts the pre-training job uses fail in its own run
                f = drawFailure(t, cause, times[i], m_random);
                if (!inReserved(f)) break;
            }
            if (inReserved(f)) continue;
            for (std::int32_t g : f.gpus) hosts.push_back(t.gpus[static_cast<std::size_t>(g)].host);
            hosts.erase(std::unique(hosts.begin(), hosts.end()), hosts.end());
        }
        f.jobs = ledger.holding(hosts, f.time);
        if (software && f.jobs.empty()) continue;  // no job ran there to crash
        const Nanos detect = static_cast<Nanos>(m_random.logNormal(static_cast<double>(isDetectedByWatchdog(cause) ? m_p.hangDetectionMedian : m_p.detectionMedian), 0.5));
        const Nanos restart = static_cast<Nanos>(m_random.logNormal(static_cast<double>(m_p.restartMedian), 0.5));
        for (std::int32_t j : f.jobs) ledger.fail(j, f.time, detect, restart, !software, std::string(rootCauseLabel(cause)));
        if (software && !f.jobs.empty()) f.detail += " (job " + jobs[static_cast<std::size_t>(f.jobs.front())].id + ")";
        struck.push_back(std::move(f));
    }

    // Merge by time; the downtimes' failure indices follow their failures.
    std::vector<Failure> own = std::move(fleet.failures);
    std::vector<std::int32_t> ownIndex(own.size());
    fleet.failures.clear();
    std::size_t a = 0, b = 0;
    while (a < own.size() || b < struck.size()) {
        if (b == struck.size() || (a < own.size() && own[a].time <= struck[b].time)) {
            ownIndex[a] = static_cast<std::int32_t>(fleet.failures.size());
            fleet.failures.push_back(std::move(own[a++]));
        } else {
            fleet.failures.push_back(std::move(struck[b++]));
        }
    }
    for (Downtime& d : fleet.downtimes)
        if (d.failure >= 0) d.failure = ownIndex[static_cast<std::size_t>(d.failure)];
}

}  // namespace

Run simulateFleet(const SimulationParams& params) { return FleetSimulation(params).run(); }

}  // namespace faultline
