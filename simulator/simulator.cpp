#include "simulator.h"

#include "diurnal.h"
#include "fabric_failures.h"
#include "fleet.h"
#include "model/error.h"
#include "random.h"
#include "recovery.h"
#include "simulated_failure.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>

namespace faultline {

namespace {

struct Interruption {
    Nanos time;
    bool planned;
    std::optional<Failure> failure{};  // drawn ahead: a fabric failure
    std::uint64_t stream = 0;          // names the interruption's own random draws (see interrupt)
};

// Streams of the three kinds of interruption: the k-th of each kind keeps its number
// whatever else the run holds.
constexpr std::uint64_t kUnexpectedStream = 1ULL << 40, kPlannedStream = 2ULL << 40, kFabricStream = 3ULL << 40;

// The Llama 3 table's network switch/cable share, which fabric failures replace.
double networkShare() { return static_cast<double>(rootCauseInfo(RootCause::NetworkSwitchCable).llama3Count) / kLlama3Unexpected; }

std::vector<Interruption> drawInterruptions(const SimulationParams& p, std::size_t gpus, Nanos duration, Random& random) {
    std::vector<Interruption> out;
    const double perDay = p.failuresPerGpuDay * static_cast<double>(gpus) * (p.fabricFailures ? 1.0 - networkShare() : 1.0);
    if (perDay > 0)
        for (double t = random.exponential(perDay); t * kDay < static_cast<double>(duration); t += random.exponential(perDay))
            out.push_back({static_cast<Nanos>(t * kDay), false, std::nullopt, kUnexpectedStream + out.size()});
    // Planned maintenance is scheduled: evenly spread, give or take a few hours.
    const auto planned = static_cast<int>(std::lround(p.plannedPerDay * p.days));
    for (int i = 0; i < planned; ++i) {
        const double at = (i + 0.5 + random.uniform(-0.3, 0.3)) / planned;
        out.push_back({static_cast<Nanos>(at * static_cast<double>(duration)), true, std::nullopt, kPlannedStream + static_cast<std::uint64_t>(i)});
    }
    std::sort(out.begin(), out.end(), [](const Interruption& a, const Interruption& b) { return a.time < b.time; });
    return out;
}

std::vector<StragglerEpisode> drawStragglers(const SimulationParams& p, Nanos duration, const Topology& topology,
                                             Random& random) {
    static constexpr const char* kCauses[] = {"thermal throttling", "degraded NVLink", "PCIe link downgraded",
                                              "noisy neighbour process on host"};
    std::vector<StragglerEpisode> out;
    if (p.stragglersPerDay <= 0) return out;
    for (double t = random.exponential(p.stragglersPerDay); t * kDay < static_cast<double>(duration);
         t += random.exponential(p.stragglersPerDay)) {
        StragglerEpisode e;
        e.gpu = static_cast<std::int32_t>(random.index(static_cast<std::int64_t>(topology.gpus.size())));
        e.begin = static_cast<Nanos>(t * kDay);
        e.end = std::min(duration, e.begin + static_cast<Nanos>(random.logNormal(static_cast<double>(p.stragglerMedianDuration), 0.8)));
        e.slowdown = 1.0 + std::min(0.8, random.logNormal(p.stragglerMedianSlowdown, 0.5));
        e.cause = kCauses[random.index(std::size(kCauses))];
        out.push_back(std::move(e));
    }
    return out;
}

// The slowest straggler active at a time sets the synchronous step: everyone waits for it.
class StragglerSweep {
public:
    explicit StragglerSweep(const std::vector<StragglerEpisode>& episodes) : m_episodes(episodes) {}
    double slowdownAt(Nanos t) {
        while (m_next < m_episodes.size() && m_episodes[m_next].begin <= t) m_active.push_back(&m_episodes[m_next++]);
        std::erase_if(m_active, [t](const StragglerEpisode* e) { return e->end <= t; });
        double worst = 1.0;
        for (const StragglerEpisode* e : m_active) worst = std::max(worst, e->slowdown);
        return worst;
    }

private:
    const std::vector<StragglerEpisode>& m_episodes;
    std::size_t m_next = 0;
    std::vector<const StragglerEpisode*> m_active;
};

class Simulation {
public:
    explicit Simulation(const SimulationParams& p) : m_p(p), m_random(p.seed) {}
    Run run();

private:
    Nanos stepDuration(Nanos t);
    Nanos sample(Nanos median, double sigma) { return sample(median, sigma, m_random); }
    static Nanos sample(Nanos median, double sigma, Random& random) {
        return static_cast<Nanos>(random.logNormal(static_cast<double>(median), sigma));
    }
    // Trains from m_now until `stop`, saving checkpoints on schedule.
    void trainUntil(Nanos stop);
    Nanos saveCheckpoint();
    // One downtime from `begin`; training resumes at its end.
    void interrupt(const Interruption& what, Nanos begin, std::vector<Interruption>& pending);

    const SimulationParams& m_p;
    Random m_random;
    Run m_run;
    Nanos m_now = 0;
    Nanos m_durableSince = 0;  // when the state last became durable (a save, or a reload)
    Nanos m_sinceSave = 0;     // training time since then
    std::int64_t m_step = 0;
    std::int64_t m_durableStep = 0;
    std::int64_t m_checkpointBytes = 0;
    Nanos m_saveMedian = 0;
    Nanos m_reloadMedian = 0;
    std::unique_ptr<StragglerSweep> m_stragglers;
    std::vector<RootCause> m_causes;  // one for each unexpected interruption, in order
    std::size_t m_nextCause = 0;
};

Nanos Simulation::stepDuration(Nanos t) {
    // Hotter afternoons throttle clocks a little: slowest around 15:00 UTC.
    const double diurnal = 1.0 + m_p.diurnalAmplitude * diurnalHeat(m_p.startEpochNs + t);
    const double jitter = 1.0 + m_p.stepJitter * m_random.normal();
    return static_cast<Nanos>(static_cast<double>(m_p.stepTime) * diurnal * jitter * m_stragglers->slowdownAt(t));
}

Nanos Simulation::saveCheckpoint() { return sample(m_saveMedian, 0.25); }

void Simulation::trainUntil(Nanos stop) {
    while (true) {
        if (m_sinceSave >= m_p.checkpointInterval) {
            const Nanos save = saveCheckpoint();
            if (m_now + save > stop) return;  // a save cut short is not durable
            m_run.checkpoints.push_back({m_now, m_now + save, m_step, m_checkpointBytes, CheckpointKind::Save});
            m_now += save;
            m_durableSince = m_now;
            m_durableStep = m_step;
            m_sinceSave = 0;
            continue;
        }
        const Nanos d = stepDuration(m_now);
        if (m_now + d > stop) return;
        m_now += d;
        m_sinceSave += d;
        m_run.steps.push_back({m_now, ++m_step, d});
    }
}

void Simulation::interrupt(const Interruption& what, Nanos begin, std::vector<Interruption>& pending) {
    // Runs that compare fabrics draw each interruption's component and durations from a stream
    // of its own, so the same GPU failure costs the same on either fabric: only the fabric's
    // failures differ. Other runs draw from the run's stream, as they always have.
    std::optional<Random> own;
    if (m_p.fabricFailures) own.emplace(m_p.seed * 0x9E3779B97F4A7C15ULL ^ what.stream);
    Random& random = own ? *own : m_random;
    Downtime d;
    d.planned = what.planned;
    if (what.planned) {
        // A planned stop saves a checkpoint first, so it loses no work.
        const Nanos save = sample(m_saveMedian, 0.25, random);
        m_run.checkpoints.push_back({begin, begin + save, m_step, m_checkpointBytes, CheckpointKind::Save});
        m_durableStep = m_step;
        d.begin = begin + save;
        d.detected = d.begin;
        d.restarted = d.detected + sample(m_p.maintenanceMedian, 0.5, random);
        d.cause = RootCause::PlannedMaintenance;
    } else {
        const RootCause cause = what.failure ? what.failure->cause : m_causes.at(m_nextCause++);
        d.failure = static_cast<std::int32_t>(m_run.failures.size());
        m_run.failures.push_back(what.failure ? *what.failure : drawFailure(m_run.topology, cause, begin, random));
        m_run.failures.back().time = begin;
        d.begin = begin;
        d.cause = cause;
        d.lostWork = begin - m_durableSince;
        const Nanos detect = isDetectedByWatchdog(cause) ? m_p.hangDetectionMedian : m_p.detectionMedian;
        d.detected = d.begin + sample(detect, 0.5, random);
        d.restarted = d.detected + sample(m_p.restartMedian, 0.5, random);
    }
    d.end = d.restarted + sample(m_reloadMedian, 0.3, random);

    if (settleRecovery(d, pending)) m_run.checkpoints.push_back({d.restarted, d.end, m_durableStep, m_checkpointBytes, CheckpointKind::Load});
    m_run.downtimes.push_back(d);
    m_step = m_durableStep;
    m_now = d.end;
    m_durableSince = d.end;
    m_sinceSave = 0;
}

Run Simulation::run() {
    m_run.topology = m_p.fabricKind == FabricKind::InfinibandFatTree ? buildFatTree(m_p.fatTree) : buildFabric(m_p.fabric);
    const Nanos duration = static_cast<Nanos>(m_p.days * static_cast<double>(kDay));
    m_run.info = {m_p.preset + " (seed " + std::to_string(m_p.seed) + ")", m_p.startEpochNs, duration,
                  "simulator preset " + m_p.preset + " seed " + std::to_string(m_p.seed)};

    // Checkpoint size: bf16 weights plus fp32 master weights and two Adam moments.
    m_checkpointBytes = static_cast<std::int64_t>(m_p.modelParameters * 14.0);
    const double bytesPerHost = static_cast<double>(m_checkpointBytes) / static_cast<double>(m_run.topology.hosts.size());
    m_saveMedian = 3 * kSecond + fromSeconds(bytesPerHost / 2e9);      // ~2 GB/s a host to storage
    m_reloadMedian = 45 * kSecond + fromSeconds(bytesPerHost / 1e9);   // reads are slower, plus warm-up

    std::vector<Interruption> pending = drawInterruptions(m_p, m_run.topology.gpus.size(), duration, m_random);
    m_causes = drawLlama3CauseMix(
        static_cast<int>(std::count_if(pending.begin(), pending.end(), [](const Interruption& i) { return !i.planned; })),
        m_random, m_p.fabricFailures ? std::optional(RootCause::NetworkSwitchCable) : std::nullopt);
    m_run.stragglers = drawStragglers(m_p, duration, m_run.topology, m_random);
    if (m_p.fabricFailures) {
        // Their own random stream: the rest of the run is drawn alike on either fabric.
        Random fabricRandom(m_p.seed ^ 0x666162726963ULL);
        FabricFailures fabric = drawFabricFailures(m_run.topology, fabricFailureKinds(m_run.topology.fabric), duration, fabricRandom);
        for (std::size_t i = 0; i < fabric.interruptions.size(); ++i)
            pending.push_back({fabric.interruptions[i].time, false, std::move(fabric.interruptions[i]), kFabricStream + i});
        std::stable_sort(pending.begin(), pending.end(), [](const Interruption& a, const Interruption& b) { return a.time < b.time; });
        m_run.stragglers.insert(m_run.stragglers.end(), fabric.slowdowns.begin(), fabric.slowdowns.end());
        std::stable_sort(m_run.stragglers.begin(), m_run.stragglers.end(), [](const auto& a, const auto& b) { return a.begin < b.begin; });
    }
    m_stragglers = std::make_unique<StragglerSweep>(m_run.stragglers);
    m_run.steps.reserve(static_cast<std::size_t>(duration / m_p.stepTime) + 16);

    while (true) {
        const Nanos stop = pending.empty() ? duration : pending.front().time;
        trainUntil(stop);
        if (pending.empty()) break;
        const Interruption next = pending.front();
        pending.erase(pending.begin());
        // A planned stop waits for the step in flight; a failure strikes where it lands.
        interrupt(next, next.planned ? m_now : next.time, pending);
        if (m_now >= duration) break;
    }
    if (m_p.trace.ranks > 0) {
        // Its own random stream: adding a trace leaves the rest of the run as it was.
        Random traceRandom(m_p.seed ^ 0x7472616365ULL);
        addSimulatedCollectives(m_run, m_p.trace, traceRandom);
    }
    if (m_p.telemetry.interval > 0)
        m_run.telemetry = summarizeTelemetry(telemetryModel(m_run, m_p), m_p.startEpochNs, m_p.telemetry.budgetBytes);
    return std::move(m_run);
}

}  // namespace

std::vector<std::string> simulationPresetNames() { return {"llama3-405b", "tiny", "meta-24k-roce", "meta-24k-ib", "fleet-350k"}; }

SimulationParams simulationPreset(std::string_view name) {
    SimulationParams p;
    p.preset = std::string(name);
    if (name == "llama3-405b") return p;
    if (name == "tiny") {
        // A small, failure-dense run for tests and demos: 256 GPUs over 2 days.
        p.fabric.gpus = 256;
        p.fabric.racksPerZone = 8;
        p.fabric.racksPerRow = 4;
        p.fabric.ctswPerZone = 4;
        p.fabric.atswCount = 2;
        p.days = 2.0;
        p.failuresPerGpuDay = 5.0 / 256.0;
        p.plannedPerDay = 1.0;
        p.stragglersPerDay = 6.0;
        p.modelParameters = 8e9;
        return p;
    }
    if (name == "meta-24k-roce" || name == "meta-24k-ib") {
        // Meta's two 24,576-GPU clusters (Building Meta's GenAI Infrastructure, 2024), the same
        // job and failure mix on each; only the fabric and its failures differ
        // (docs/fabric-presets.md). No GPU telemetry: it would make each file 700 MB and take a
        // minute to simulate, and the comparison does not read it (--telemetry-interval adds it).
        p.fabric.gpus = 24'576;  // 12 AI zones of 2,048 GPUs
        p.fatTree.gpus = 24'576;
        p.fabricKind = name == "meta-24k-ib" ? FabricKind::InfinibandFatTree : FabricKind::RoceClos;
        p.fabricFailures = true;
        p.telemetry.interval = 0;
        return p;
    }
    if (name == "fleet-350k") {
        // Meta's fleet of about 350,000 H100s (end of 2024) as eleven clusters in five buildings,
        // Llama 3 405B's pre-training on 16,384 GPUs of the RoCE 24k cluster among many other
        // jobs (docs/fabric-presets.md). No telemetry: 350,000 GPUs of it would be gigabytes.
        p.fleet = fleet350kShape();
        p.telemetry.interval = 0;
        return p;
    }
    std::string known;
    for (const std::string& n : simulationPresetNames()) known += (known.empty() ? "" : ", ") + n;
    throw Error("unknown simulation preset \"" + std::string(name) + "\" (known presets: " + known + ")");
}

TelemetryModel telemetryModel(const Run& run, const SimulationParams& params) {
    return TelemetryModel(run, params.seed, params.diurnalAmplitude, params.telemetry.interval);
}

Run simulate(const SimulationParams& params) {
    if (params.days <= 0) throw Error("simulation: --days must be positive");
    if (params.stepTime <= 0) throw Error("simulation: the step time must be positive");
    if (params.checkpointInterval <= 0) throw Error("simulation: --checkpoint-interval must be positive");
    if (params.telemetry.interval < 0) throw Error("simulation: --telemetry-interval cannot be negative");
    if (!params.fleet.clusters.empty()) return simulateFleet(params);
    return Simulation(params).run();
}

}  // namespace faultline
