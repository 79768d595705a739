#include "importers/run_builder.h"

#include "importers/events/failure_merge.h"
#include "importers/telemetry/link_counters.h"
#include "importers/text/hostlist.h"
#include "importers/run_collectives.h"
#include "importers/trace_coverage.h"
#include "importers/run_jobs.h"
#include "importers/telemetry_build.h"
#include "model/error.h"
#include "model/format.h"
#include "model/time_sort.h"
#include "model/unplaced_hosts.h"
#include "analysis/step_time_stragglers.h"
#include "analysis/straggler_analysis.h"
#include "analysis/telemetry_warnings.h"

#include <algorithm>
#include <map>
#include <set>

#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace faultline {

namespace {

constexpr int kHostsPerRack = 2;
// Larger than any cluster (100,000 hosts of 8 GPUs): a count beyond it is a misread number,
// and a run of it would take minutes and gigabytes to lay out.
constexpr std::int32_t kMaxRunRanks = 800'000;

// The earliest absolute time any event carries: the run's start.
EpochNs earliestTime(const ImportedEvents& e, const CollectiveSpan& collectives) {
    EpochNs t = 0;
    auto see = [&t](EpochNs v) {
        if (v > 0 && (t == 0 || v < t)) t = v;
    };
    for (const auto& f : e.failures)
        if (!f.sinceBoot) see(f.time);
    see(collectives.first);
    for (const auto& s : e.steps) see(s.end - s.duration);
    for (const auto& c : e.checkpoints) see(c.begin);
    for (const auto& j : e.jobs) see(j.start);
    if (e.telemetry.samples() > 0) see(e.telemetry.earliest());
    if (e.linkCounters.samples() > 0) see(e.linkCounters.earliest());
    return t;
}

std::int32_t rankCount(const ImportedEvents& e) {
    std::int32_t n = e.worldSize;
    for (const auto& c : e.collectives) {
        n = std::max(n, c.rank + 1);
        for (std::int32_t r : c.groupRanks) n = std::max(n, r + 1);
    }
    for (const FlightRecorderDump& d : e.flightRecorderDumps) n = std::max(n, d.rank + 1);  // their groups are in worldSize
    for (const auto& s : e.steps) n = std::max(n, s.rank + 1);
    for (const auto& p : e.placements) n = std::max(n, p.rank + 1);
    for (const auto& f : e.failures) {
        n = std::max(n, f.where.rank + 1);
        for (std::int32_t r : f.ranks) n = std::max(n, r + 1);
    }
    return n;
}

struct HostNeeds {
    std::int32_t gpus = 0;
    std::set<std::string> pciIds;
};

// A host's GPUs: as many as the files say a host holds, else as many as they name on it (no
// invented GPUs: a one-GPU scrape is one GPU); only a host they name no GPU of gets the
// assumed count, and `assumed` lists it.
std::int32_t hostGpuCount(const std::string& name, const HostNeeds& needs, std::int32_t gpusPerHost, bool stated, std::vector<std::string>& assumed) {
    const std::int32_t seen = std::max(needs.gpus, static_cast<std::int32_t>(needs.pciIds.size()));
    if (stated) return std::max(gpusPerHost, seen);
    if (seen > 0) return seen;
    assumed.push_back(name);
    return gpusPerHost;
}

Topology deriveTopology(const ImportedEvents& e, std::int32_t ranks, std::map<std::int32_t, RankPlacement>& placement,
                        std::int32_t gpusPerHost, bool gpusPerHostStated, std::vector<std::string>& notes) {
    std::map<std::string, HostNeeds, bool (*)(const std::string&, const std::string&)> hosts(
        [](const std::string& a, const std::string& b) { return naturalLess(a, b); });
    auto need = [&hosts](const std::string& host, std::int32_t localGpu, const std::string& pci) {
        if (host.empty()) return;
        if (localGpu >= kMaxGpusPerNode)
            throw Error("the files place GPU " + std::to_string(localGpu) + " on host " + host + ", more than the " +
                        std::to_string(kMaxGpusPerNode) + " GPUs any node has");
        HostNeeds& h = hosts[host];
        h.gpus = std::max(h.gpus, localGpu + 1);
        if (!pci.empty()) h.pciIds.insert(pci);
    };
    for (const auto& [host, id] : e.gpuBusIds) need(host, -1, id);
    for (const auto& f : e.failures) {
        need(f.where.host, f.where.localGpu, f.where.pciBusId);
        for (const auto& h : f.hosts) need(h, -1, "");
    }
    for (const auto& j : e.jobs)
        for (const auto& h : j.nodes) need(h, -1, "");
    // A rank placed on a host without its GPU takes the one the builder gives it below.
    for (const auto& [rank, p] : placement) need(p.host, p.localGpu >= 0 ? p.localGpu : rank % gpusPerHost, "");
    for (const GpuLocator& g : telemetryLocators(e.telemetry)) need(g.host, g.localGpu, g.pciBusId);
    // Ranks nobody placed: as many to a host of their own as the job's hosts hold.
    std::int32_t guessed = 0, firstGuessed = -1;
    std::set<std::string> guessedHosts;
    std::string firstGuessedHost;
    for (std::int32_t r = 0; r < ranks; ++r) {
        if (placement.count(r)) continue;
        const std::int32_t first = r / gpusPerHost * gpusPerHost;
        RankPlacement p{r, unplacedHostName(first, first + gpusPerHost - 1), r % gpusPerHost};
        need(p.host, p.localGpu, "");
        guessedHosts.insert(p.host);
        if (guessed++ == 0) firstGuessed = r, firstGuessedHost = p.host;
        placement[r] = p;
    }
    if (guessed > 0)
        notes.push_back("no file names the hosts of " + std::to_string(guessed) + " of the " + std::to_string(ranks) + " ranks (the first is rank " +
                        std::to_string(firstGuessed) + "): drawn on " + formatCounted(static_cast<std::int64_t>(guessedHosts.size()), "host", "hosts") +
                        " of " + std::to_string(gpusPerHost) + " GPUs apart from the named ones, as unplaced (\"" + firstGuessedHost + "\", ...)");

    std::vector<std::string> assumed;
    Topology t;
    // Racks in rows and zones as the built fabrics' (FabricShape): one row of a thousand racks
    // is drawn too thin to see a GPU in.
    const FabricShape shape;
    // The named hosts first; the unplaced ranks' after them, in a zone of their own.
    std::vector<std::pair<std::string, const HostNeeds*>> ordered;
    for (const bool unplaced : {false, true})
        for (const auto& [name, needs] : hosts)
            if (name.starts_with(kUnplacedHostPrefix) == unplaced) ordered.push_back({name, &needs});
    std::int32_t hostsInRack = kHostsPerRack, racksInZone = shape.racksPerZone;
    for (const auto& [name, needsPtr] : ordered) {
        const HostNeeds& needs = *needsPtr;
        const auto hostIndex = static_cast<std::int32_t>(t.hosts.size());
        const bool unplaced = name.starts_with(kUnplacedHostPrefix);
        if (unplaced && (t.hosts.empty() || !isUnplacedHost(t.hosts.back()))) hostsInRack = kHostsPerRack, racksInZone = shape.racksPerZone;
        if (hostsInRack == kHostsPerRack) {
            if (racksInZone == shape.racksPerZone) {
                t.zones.push_back({unplaced ? std::string(kUnplacedZoneName) : "zone" + std::to_string(t.zones.size())});
                racksInZone = 0;
            }
            const auto rack = static_cast<std::int32_t>(t.racks.size());
            t.racks.push_back({"rack" + std::to_string(rack), static_cast<std::int32_t>(t.zones.size()) - 1, racksInZone / shape.racksPerRow,
                               racksInZone % shape.racksPerRow});
            ++racksInZone;
            hostsInRack = 0;
        }
        ++hostsInRack;
        Host h;
        h.name = name;
        h.rack = static_cast<std::int32_t>(t.racks.size()) - 1;
        const std::size_t assumedBefore = assumed.size();
        h.gpuCount = hostGpuCount(name, needs, gpusPerHost, gpusPerHostStated || guessedHosts.count(name), assumed);
        h.gpuCountAssumed = assumed.size() > assumedBefore;
        h.firstGpu = static_cast<std::int32_t>(t.gpus.size());
        h.nicCount = h.gpuCount;
        h.firstNic = static_cast<std::int32_t>(t.nics.size());
        // GPUs the files name by PCI bus id take the lowest indices in bus order, which is
        // the order nvidia-smi and CUDA_DEVICE_ORDER=PCI_BUS_ID number them in.
        auto pci = needs.pciIds.begin();
        for (std::int32_t g = 0; g < h.gpuCount; ++g) {
            t.gpus.push_back({hostIndex, g, pci != needs.pciIds.end() ? *pci++ + ".0" : std::string()});
            t.nics.push_back({hostIndex, g});
        }
        t.hosts.push_back(std::move(h));
    }
    if (!assumed.empty())
        notes.push_back(formatCounted(static_cast<std::int64_t>(assumed.size()), "host", "hosts") + " (the first: " + assumed.front() +
                        ") named by no GPU index, bus id or GPU count in the files: drawn with " + std::to_string(gpusPerHost) +
                        " GPUs each, an assumed count");
    if (t.zones.empty()) t.zones.push_back({"zone0"});  // no hosts: the one empty zone, as before
    return t;
}

std::string normalisedPci(const std::string& id) {
    // Topology PCI ids carry a function ("0000:18:00.0"); imported ones do not.
    const std::size_t dot = id.rfind('.');
    return dot != std::string::npos && dot + 2 == id.size() ? id.substr(0, dot) : id;
}

void checkRunSize(const ImportedEvents& events, std::int32_t ranks) {
    if (ranks > kMaxRunRanks)
        throw Error("the files name a run of " + std::to_string(ranks) + " ranks (a world size or the highest rank), more than the " +
                    std::to_string(kMaxRunRanks) + " any cluster has");
    if (events.gpusPerNode > kMaxGpusPerNode)
        throw Error("the files say " + std::to_string(events.gpusPerNode) + " GPUs per node (SLURM_GPUS_ON_NODE or nproc_per_node), more than the " +
                    std::to_string(kMaxGpusPerNode) + " any node has");
}

// The topology's GPUs as the files name them: by host name, PCI bus id, local index or rank.
class GpuFinder {
public:
    // `rankToGpu` is read when a locator names a rank: it may be filled after this is made.
    GpuFinder(const Topology& topo, const std::vector<std::int32_t>& rankToGpu) : m_topo(topo), m_rankToGpu(rankToGpu) {
        for (std::size_t i = 0; i < topo.hosts.size(); ++i) m_hostIndex[topo.hosts[i].name] = static_cast<std::int32_t>(i);
        for (std::size_t i = 0; i < topo.gpus.size(); ++i)
            if (!topo.gpus[i].pciBusId.empty())
                m_gpuByPci[{topo.gpus[i].host, normalisedPci(topo.gpus[i].pciBusId)}] = static_cast<std::int32_t>(i);
    }

    // -1 when the topology lacks the host.
    std::int32_t host(const std::string& name) const {
        auto it = m_hostIndex.find(name);
        return it == m_hostIndex.end() ? -1 : it->second;
    }
    // GPU `local` of a host; -1 when it has no such GPU.
    std::int32_t hostGpu(std::int32_t host, std::int32_t local) const {
        const Host& h = m_topo.hosts[static_cast<std::size_t>(host)];
        return local >= 0 && local < h.gpuCount ? h.firstGpu + local : -1;
    }
    // By rank, else by host and bus id, else by host and local index; -1 when not found.
    std::int32_t resolve(const GpuLocator& w) const {
        if (w.rank >= 0 && static_cast<std::size_t>(w.rank) < m_rankToGpu.size()) return m_rankToGpu[static_cast<std::size_t>(w.rank)];
        const std::int32_t h = host(w.host);
        if (h < 0) return -1;
        if (!w.pciBusId.empty()) {
            auto it = m_gpuByPci.find({h, w.pciBusId});
            if (it != m_gpuByPci.end()) return it->second;
        }
        return hostGpu(h, w.localGpu);
    }

private:
    const Topology& m_topo;
    const std::vector<std::int32_t>& m_rankToGpu;
    std::map<std::string, std::int32_t> m_hostIndex;
    std::map<std::pair<std::int32_t, std::string>, std::int32_t> m_gpuByPci;
};

// Each placed rank on its host's GPU; a rank the topology does not place on the next GPU no
// rank has.
void placeRanksOnGpus(const std::map<std::int32_t, RankPlacement>& placement, std::int32_t ranks, std::int32_t gpusPerHost, const GpuFinder& gpus,
                      const Topology& topo, Run& run, std::vector<std::string>& warnings) {
    run.rankToGpu.assign(static_cast<std::size_t>(ranks), -1);
    std::int32_t nextFree = 0;
    std::set<std::int32_t> used;
    for (const auto& [rank, p] : placement) {
        const std::int32_t h = gpus.host(p.host);
        const std::int32_t g = h >= 0 ? gpus.hostGpu(h, p.localGpu >= 0 ? p.localGpu : rank % gpusPerHost) : -1;
        if (g < 0) {
            warnings.push_back("rank " + std::to_string(rank) + " ran on " + p.host + ", which the topology lacks");
            continue;
        }
        run.rankToGpu[static_cast<std::size_t>(rank)] = g;
        used.insert(g);
    }
    for (auto& g : run.rankToGpu) {
        if (g >= 0) continue;
        while (used.count(nextFree)) ++nextFree;
        if (static_cast<std::size_t>(nextFree) >= topo.gpus.size())
            throw Error("the topology has " + std::to_string(topo.gpus.size()) + " GPUs, fewer than the " + std::to_string(ranks) + " ranks the files name");
        g = nextFree;
        used.insert(nextFree);
    }
}

// Epoch times as the run's (since `base`), remembering the latest: the run lasts until then.
struct RunClock {
    EpochNs base = 0;
    EpochNs latest = 0;
    Nanos operator()(EpochNs t) {
        latest = std::max(latest, t);
        return t - base;
    }
};

// An imported failure as the run's: its time, and the part and GPUs it took out (a cable a
// link counter names, else the GPU it locates, else its ranks' GPUs, else its hosts').
Failure convertFailure(const ImportedFailure& f, const Run& run, const GpuFinder& gpus, RunClock& clock, std::vector<std::string>& warnings) {
    const Topology& topo = run.topology;
    Failure r;
    r.time = clock(f.sinceBoot ? clock.base + f.time : f.time);
    r.cause = f.cause;
    r.xid = f.xid;
    r.detail = f.detail;
    r.ranks = f.ranks;
    r.suspectRanks = f.suspectRanks;
    if (f.link) {
        if (const auto cable = cableOf(topo, *f.link)) {
            r.component = *cable;
            if (cable->kind == ComponentKind::Link) r.gpus = topo.gpusBelowLink(cable->index);
            else if (const std::int32_t g = topo.gpuOfNic(cable->index); g >= 0) r.gpus = {g};
            return r;
        }
        warnings.push_back("a link-down counter names " + f.link->near.text() + ", which the topology lacks" +
                           (f.where.host.empty() ? "" : "; counted against its host"));
    }
    if (const std::int32_t g = gpus.resolve(f.where); g >= 0) {
        r.component = {ComponentKind::Gpu, g};
        r.gpus = {g};
    } else if (!f.ranks.empty()) {
        for (std::int32_t rank : f.ranks)
            if (rank >= 0 && static_cast<std::size_t>(rank) < run.rankToGpu.size()) r.gpus.push_back(run.rankToGpu[static_cast<std::size_t>(rank)]);
        // Where the evidence names the host and not the GPU (a process whose rank no line
        // gives), no GPU is the failed part: not the first reporter's in its place, nor the host,
        // whose hardware nothing blames. Its reporters' GPUs are the ones it took out.
        const bool gpuUnknown = !f.where.host.empty() && gpus.host(f.where.host) >= 0;
        if (!gpuUnknown && !r.gpus.empty()) r.component = {ComponentKind::Gpu, r.gpus.front()};
    } else {
        std::vector<std::string> hosts = f.hosts;
        if (!f.where.host.empty()) hosts.push_back(f.where.host);
        for (const std::string& hostName : hosts) {
            const std::int32_t h = gpus.host(hostName);
            if (h < 0) {
                warnings.push_back("a failure names host " + hostName + ", which the topology lacks");
                continue;
            }
            if (r.component.kind == ComponentKind::None) r.component = {ComponentKind::Host, h};
            for (std::int32_t hostGpuIndex : topo.gpusOfHost(h)) r.gpus.push_back(hostGpuIndex);
        }
    }
    return r;
}

// Without a chain of jobs, every symptom is a failure (duplicates merged). With one, each
// unexpected downtime has one failure: its first symptom, with the rest of the evidence and
// what is missing in its detail; symptoms that stopped no job are only warned of.
void addFailures(const ImportedEvents& events, const JobChain& chain, const GpuFinder& gpus, RunClock& clock, Run& run,
                 std::vector<std::string>& warnings) {
    auto convert = [&](const ImportedFailure& f) { return convertFailure(f, run, gpus, clock, warnings); };
    const EpochNs base = clock.base;
    if (chain.chain.empty()) {
        std::vector<ImportedFailure> failures = events.failures;
        std::stable_sort(failures.begin(), failures.end(), [&](const ImportedFailure& a, const ImportedFailure& b) {
            return (a.sinceBoot ? base + a.time : a.time) < (b.sinceBoot ? base + b.time : b.time);
        });
        std::vector<FailureRecord> records;
        for (const ImportedFailure& f : failures)
            if (!f.evidenceOnly) records.push_back({convert(f), f.source, !f.job.empty()});
        run.failures = mergeDuplicateFailures(records);
        return;
    }
    for (const ChainDowntime& c : chain.downtimes) {
        Downtime d{clock(c.begin), clock(c.detected), clock(c.restarted), clock(c.end), c.lostWork, c.planned, c.cause, -1,
                   static_cast<std::int32_t>(c.endedJob)};
        if (!c.planned) {
            Failure f;
            if (c.evidence >= 0) f = convert(events.failures[static_cast<std::size_t>(c.evidence)]);
            f.time = std::max(f.time, d.begin);
            if (c.evidence < 0) f.time = d.begin;
            f.cause = c.cause;
            f.detail = c.detail;
            d.failure = static_cast<std::int32_t>(run.failures.size());
            run.failures.push_back(std::move(f));
        }
        run.downtimes.push_back(d);
    }
    std::size_t unexplained = 0;
    for (std::size_t i = 0; i < events.failures.size(); ++i)
        if (!chain.explained[i] && !events.failures[i].evidenceOnly && unexplained++ == 0)
            warnings.push_back("a symptom that stopped no job of the run is not counted as an interruption: " + events.failures[i].detail);
    if (unexplained > 1) warnings.push_back(std::to_string(unexplained) + " symptoms in all stopped no job of the run");
}

// Steps are the job's: with several ranks reporting, the lowest rank speaks for all. Every
// rank's own steps are kept too, for stragglers from step times.
void addSteps(const ImportedEvents& events, RunClock& clock, Run& run) {
    std::int32_t stepRank = INT32_MAX;
    for (const auto& s : events.steps) stepRank = std::min(stepRank, s.rank);
    run.rankSteps.reserve(events.steps.size());
    for (const auto& s : events.steps) {
        if (s.rank == stepRank) run.steps.push_back({clock(s.end), s.step, s.duration});
        if (s.rank >= 0) run.rankSteps.push_back({s.rank, s.step, clock(s.end), s.duration});
    }
    stableSortByTime(run.steps, [](const Step& s) { return s.time; });
    // In time order, as the steps: a followed job's run grows at the end of them, so its run
    // file keeps the rows it has (updateRunFile).
    stableSortByTime(run.rankSteps, [](const RankStep& s) { return s.time; });
}

// Stragglers found in the traces and in the step times replay like any other straggler
// episode, each with what its GPU's telemetry said meanwhile; GPUs no trace covers are noted.
void addStragglers(Run& run, StragglerReport& collectives, std::vector<std::string>& notes) {
    collectives = analyzeStragglers(run);
    appendDetectedStragglers(run, collectives);
    for (StragglerEpisode& e : stepTimeEpisodesOnGpus(analyzeStepTimes(run.rankSteps), run)) run.stragglers.push_back(std::move(e));
    std::stable_sort(run.stragglers.begin(), run.stragglers.end(), [](const auto& a, const auto& b) { return a.begin < b.begin; });
    // What the slow GPU's clocks, throttle reasons, temperature and power said meanwhile.
    for (StragglerEpisode& e : run.stragglers)
        if (const std::string evidence = stragglerEvidence(run, e.gpu, e.begin, e.end); !evidence.empty())
            e.cause += (e.cause.empty() ? "" : "; ") + evidence;
    run.untracedGpus = untracedGpus(run);
    if (!run.untracedGpus.empty())
        notes.push_back("no trace covers " + std::to_string(run.untracedGpus.size()) + " of the job's " +
                        std::to_string(run.topology.gpus.size()) + " GPUs: whether they kept pace is unknown, and they are drawn as \"no data\"");
}

}  // namespace

BuildResult buildRun(ImportedEvents& events, const std::optional<Topology>& topology, const std::string& name,
                     const JobSelection& selection) {
    BuildResult out;
    Run& run = out.run;
    // Every Flight Recorder entry is looked at once for the span, not once for each end of it.
    const CollectiveSpan collectives = collectiveSpan(events);
    const EpochNs base = earliestTime(events, collectives);
    const std::int32_t ranks = rankCount(events);
    checkRunSize(events, ranks);

    std::map<std::int32_t, RankPlacement> placement;
    for (const auto& p : events.placements) placement[p.rank] = p;
    if (const std::vector<RankPlacement> numbered = placeRanksByLocalNumbering(ranks, placement); !numbered.empty())
        out.notes.push_back(formatCounted(static_cast<std::int64_t>(numbered.size()), "rank", "ranks") + " no line places (the first: rank " +
                            std::to_string(numbered.front().rank) + ") placed on " + numbered.front().host + " at local rank " +
                            std::to_string(numbered.front().localGpu) + ", by the numbering of that host's other ranks (rank = first rank + local rank)");
    const JobChain chain = findJobChain(events, selection, out.warnings);
    bool gpusPerHostStated = false;
    const std::int32_t gpusPerHost = placeRanksOnJobNodes(events, chain, ranks, placement, kGpusPerHost, gpusPerHostStated);

    if (topology) {
        run.topology = *topology;
    } else {
        run.topology = deriveTopology(events, ranks, placement, gpusPerHost, gpusPerHostStated, out.notes);
        out.derivedTopology = true;
    }
    Topology& topo = run.topology;
    if (topology) namePciBusIds(events, topo);
    topo.validate();
    const GpuFinder gpus(topo, run.rankToGpu);
    placeRanksOnGpus(placement, ranks, gpusPerHost, gpus, topo, run, out.warnings);

    RunClock clock{base, base};
    addJobs(chain, [&](const std::string& host) { return gpus.host(host); }, [&](EpochNs t) { return clock(t); }, run);
    addFailures(events, chain, gpus, clock, run, out.warnings);

    addCollectives(events, collectives, base, run);
    // The dumps are the run's collectives now, and were most of the import's memory.
    events.flightRecorderDumps = {};
#ifdef __GLIBC__
    malloc_trim(0);  // their many small blocks stay mapped until glibc is asked to hand them back
#endif
    if (collectives.last > 0) clock(collectives.last);

    addSteps(events, clock, run);
    run.telemetry = buildTelemetry(events.telemetry, [&](const GpuLocator& w) { return gpus.resolve(w); }, base, out.warnings);
    if (events.telemetry.samples() > 0) clock(events.telemetry.latest());
    if (events.linkCounters.samples() > 0) clock(events.linkCounters.latest());

    for (const auto& c : events.checkpoints) run.checkpoints.push_back({clock(c.begin), clock(c.end), c.step, c.bytes, c.kind});
    std::stable_sort(run.checkpoints.begin(), run.checkpoints.end(), [](const Checkpoint& a, const Checkpoint& b) { return a.begin < b.begin; });

    run.info.name = name;
    run.info.startEpochNs = base;
    run.info.duration = clock.latest - base;
    run.info.source = "import";
    run.jobShape = {events.worldSize, events.gpusPerNode, events.tensorParallel, events.pipelineParallel, events.dataParallel};
    addStragglers(run, out.stragglers, out.notes);
    return out;
}

}  // namespace faultline
