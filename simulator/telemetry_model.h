#pragma once
// What every GPU of a simulated run would have reported to DCGM or nvidia-smi at each sample:
// power from the job's state (the levels of analysis/cluster_power's model), temperature with
// the day's heat cycle, SM clock lowered by the same cycle as the step times and by thermal
// throttling in the "thermal throttling" straggler episodes, and correctable ECC errors rising
// in the hours before some HBM failures. A reading is a pure function of (seed, GPU, sample),
// so the run file's summaries and the emitted logs agree without keeping any sample. The
// figures and their sources are in docs/power.md ("The simulator's telemetry").
#include "model/run.h"

#include <cstdint>
#include <vector>

namespace faultline {

struct GpuReading {
    float power = 0;        // W
    float temperature = 0;  // °C, whole degrees as DCGM reports them
    float smClock = 0;      // MHz
    std::uint32_t throttleReasons = 0;  // DCGM / NVML clock throttle bitmask
    float eccCorrected = 0;             // volatile correctable ECC errors since the driver loaded
};

class TelemetryModel {
public:
    // `interval`: time between samples; sample k is at k * interval from the run's start.
    TelemetryModel(const Run& run, std::uint64_t seed, double diurnalAmplitude, Nanos interval);

    Nanos interval() const { return m_interval; }
    std::int64_t samples() const { return static_cast<std::int64_t>(m_state.size()); }
    Nanos time(std::int64_t k) const { return k * m_interval; }
    GpuReading reading(std::int32_t gpu, std::int64_t k) const;
    // Whether the GPU's throttle reasons or ECC counter are ever non-zero: the run file keeps
    // only those series (an absent series and one of zeros say the same).
    bool throttles(std::int32_t gpu) const { return !m_throttle[static_cast<std::size_t>(gpu)].empty(); }
    bool countsEccErrors(std::int32_t gpu) const { return !m_ecc[static_cast<std::size_t>(gpu)].empty(); }
    std::int32_t gpus() const { return static_cast<std::int32_t>(m_throttle.size()); }

    // The levels, as analysis/cluster_power's PowerModel states them (docs/power.md).
    static constexpr float kTrainingWatts = 700, kStalledWatts = 120, kDownWatts = 72;
    static constexpr float kMaxSmClock = 1980, kIdleSmClock = 86;  // H100 SXM (nvidia-smi -q)
    static constexpr std::uint32_t kSwThermalSlowdown = 0x20, kHwThermalSlowdown = 0x40;

private:
    enum State : std::uint8_t { Training, Stalled, Down };
    struct Throttle {
        Nanos begin, end;
        double slowdown;
    };
    struct EccRamp {
        Nanos onset, failure, reset;  // rising from onset to the failure; 0 again from reset (driver reloaded)
    };

    std::uint64_t m_seed;
    double m_amplitude;
    Nanos m_interval;
    std::vector<State> m_state;  // the job's state at each sample
    double trainingClock(double heat) const;

    std::vector<float> m_heat;   // diurnalHeat at each sample
    std::vector<float> m_watts;  // the power model's level at each sample
    std::vector<float> m_clock;  // the SM clock of a GPU not throttling at each sample
    std::vector<std::vector<Throttle>> m_throttle;  // per GPU
    std::vector<std::vector<EccRamp>> m_ecc;        // per GPU
};

}  // namespace faultline
