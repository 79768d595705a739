#include "telemetry_model.h"

#include "diurnal.h"

#include <algorithm>
#include <cmath>

namespace faultline {

namespace {

// A uniform number in [0, 1) from its arguments alone (splitmix64's finaliser): readings
// need no random stream, so any sample can be read in any order, and the run's own random
// draws are untouched by the telemetry.
double hash01(std::uint64_t a, std::uint64_t b, std::uint64_t c, std::uint64_t salt) {
    std::uint64_t z = a * 0x9e3779b97f4a7c15ULL ^ (b + 0x632be59bd9b4e019ULL) * 0xbf58476d1ce4e5b9ULL ^ (c + salt) * 0x94d049bb133111ebULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return static_cast<double>(z >> 11) * 0x1.0p-53;
}

// std::round is a library call per reading; every value rounded here is positive.
std::int64_t roundPositive(double v) { return static_cast<std::int64_t>(v + 0.5); }

// Samples k with begin <= k * interval < end.
std::pair<std::int64_t, std::int64_t> sampleRange(Nanos begin, Nanos end, Nanos interval, std::int64_t samples) {
    auto ceilDiv = [](Nanos a, Nanos b) { return a <= 0 ? 0 : (a + b - 1) / b; };
    return {std::clamp<std::int64_t>(ceilDiv(begin, interval), 0, samples), std::clamp<std::int64_t>(ceilDiv(end, interval), 0, samples)};
}

}  // namespace

// A step takes (1 + a * heat) times the coolest hour's (simulator.cpp), so the SM clock is
// the coolest hour's over that factor; clocks step in 15 MHz bins.
double TelemetryModel::trainingClock(double heat) const { return kMaxSmClock * (1.0 - m_amplitude) / (1.0 + m_amplitude * heat); }

TelemetryModel::TelemetryModel(const Run& run, std::uint64_t seed, double diurnalAmplitude, Nanos interval)
    : m_seed(seed), m_amplitude(diurnalAmplitude), m_interval(interval) {
    const std::int64_t samples = interval > 0 ? run.info.duration / interval + 1 : 0;
    m_state.assign(static_cast<std::size_t>(samples), Training);
    m_heat.resize(static_cast<std::size_t>(samples));
    for (std::int64_t k = 0; k < samples; ++k) m_heat[static_cast<std::size_t>(k)] = static_cast<float>(diurnalHeat(run.info.startEpochNs + k * interval));
    // The job's state at each sample, as the power model draws it: down outranks stalled.
    auto mark = [&](Nanos begin, Nanos end, State s) {
        const auto [a, b] = sampleRange(begin, end, interval, samples);
        for (std::int64_t k = a; k < b; ++k) m_state[static_cast<std::size_t>(k)] = std::max(m_state[static_cast<std::size_t>(k)], s);
    };
    for (const Checkpoint& c : run.checkpoints) mark(c.begin, c.end, Stalled);
    for (const Downtime& d : run.downtimes) {
        mark(d.restarted, d.end, Stalled);
        mark(d.begin, d.restarted, Down);
    }

    // What every GPU not throttling reads at each sample, worked out once for all of them.
    m_watts.resize(static_cast<std::size_t>(samples));
    m_clock.resize(static_cast<std::size_t>(samples));
    for (std::size_t k = 0; k < m_state.size(); ++k) {
        m_watts[k] = m_state[k] == Training ? kTrainingWatts : m_state[k] == Stalled ? kStalledWatts : kDownWatts;
        m_clock[k] = m_state[k] == Down      ? kIdleSmClock
                     : m_state[k] == Stalled ? kMaxSmClock
                                             : static_cast<float>(roundPositive(trainingClock(m_heat[k]) / 15.0) * 15);
    }

    m_throttle.resize(run.topology.gpus.size());
    m_ecc.resize(run.topology.gpus.size());
    // Thermal throttling is what slows the GPU of a "thermal throttling" episode; the other
    // causes (a degraded link, a noisy neighbour) leave its clocks alone.
    for (const StragglerEpisode& e : run.stragglers)
        if (e.cause == "thermal throttling" && static_cast<std::size_t>(e.gpu) < m_throttle.size())
            m_throttle[static_cast<std::size_t>(e.gpu)].push_back({e.begin, e.end, e.slowdown});
    // Some HBM failures announce themselves: correctable errors climb for 3-8 hours before
    // the uncorrectable one, as failing HBM rows do before they are remapped or retired.
    for (std::size_t i = 0; i < run.failures.size(); ++i) {
        const Failure& f = run.failures[i];
        if (f.cause != RootCause::GpuHbm3Memory || f.gpus.empty() || hash01(seed, i, 0, 0xecc) >= 0.6) continue;
        const Nanos lead = 3 * kHour + static_cast<Nanos>(hash01(seed, i, 1, 0xecc) * static_cast<double>(5 * kHour));
        Nanos reset = f.time + kHour;
        for (const Downtime& d : run.downtimes)
            if (d.failure == static_cast<std::int32_t>(i)) reset = std::max(d.end, f.time + interval);
        m_ecc[static_cast<std::size_t>(f.gpus.front())].push_back({std::max<Nanos>(0, f.time - lead), f.time, reset});
    }
}

GpuReading TelemetryModel::reading(std::int32_t gpu, std::int64_t k) const {
    const Nanos t = time(k);
    const auto at = static_cast<std::size_t>(k);
    const State state = m_state[at];
    const auto g = static_cast<std::uint64_t>(gpu);
    const auto sample = static_cast<std::uint64_t>(k);
    GpuReading r;

    double slowdown = 1;
    if (state == Training)
        for (const Throttle& th : m_throttle[g])
            if (t >= th.begin && t < th.end) slowdown = std::max(slowdown, th.slowdown);

    // Power: the model's level, up to 2% under it (no GPU draws past its 700 W cap); a
    // throttled GPU draws less as its clock falls.
    r.power = static_cast<float>(m_watts[at] * (1.0 - 0.02 * hash01(m_seed, g, sample, 1)) / slowdown);
    r.smClock = slowdown > 1 ? static_cast<float>(roundPositive(trainingClock(m_heat[at]) / slowdown / 15.0) * 15) : m_clock[at];

    // Temperature: the inlet air follows the day (24 °C, +-3), the die runs 0.06 °C a watt
    // above it, each GPU's cooling a little better or worse than its neighbours'.
    const double inlet = 24.0 + 3.0 * m_heat[at];
    const double offset = 6.0 * hash01(m_seed, g, 0, 2) - 3.0;
    double temperature = inlet + 0.06 * r.power + offset + hash01(m_seed, g, sample, 3) - 0.5;
    if (slowdown > 1) {
        // A throttling GPU sits at its slowdown temperature; past 30% the hardware steps in too.
        temperature = 85.0 + 5.0 * std::min(1.0, (slowdown - 1.0) / 0.4) + hash01(m_seed, g, sample, 4);
        r.throttleReasons = kSwThermalSlowdown | (slowdown >= 1.3 ? kHwThermalSlowdown : 0u);
    }
    r.temperature = static_cast<float>(roundPositive(temperature));

    for (const EccRamp& e : m_ecc[g]) {
        if (t < e.onset || t >= e.reset) continue;
        const double x = static_cast<double>(std::min(t, e.failure) - e.onset) / static_cast<double>(std::max<Nanos>(1, e.failure - e.onset));
        r.eccCorrected = static_cast<float>(std::floor(2.0 * (std::exp(4.0 * x) - 1.0)));
    }
    return r;
}

}  // namespace faultline
