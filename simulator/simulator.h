#pragma once
// The run simulator: a synthetic but realistic training run, calibrated on what Meta
// reported for Llama 3 405B (16,384 H100s, 54 days, 419 unexpected and 47 planned
// interruptions, effective training time above 90%). Deterministic for a given seed.
#include "fleet_shape.h"
#include "model/fat_tree.h"
#include "model/run.h"
#include "simulated_collectives.h"
#include "simulated_telemetry.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace faultline {

struct SimulationParams {
    std::string preset;
    std::uint64_t seed = 1;
    FabricShape fabric;                 // the RoCE fabric (fabricKind RoceClos)
    FabricKind fabricKind = FabricKind::RoceClos;
    FatTreeShape fatTree;               // the InfiniBand fat tree (fabricKind InfinibandFatTree)
    // Fabric failures drawn per component from their own rates (simulator/fabric_failures.h)
    // in place of the Llama 3 table's network switch/cable share, whose rate is taken out of
    // failuresPerGpuDay; the rest of the mix stays as it is.
    bool fabricFailures = false;
    double days = 54.0;
    std::int64_t startEpochNs = 1'709'510'400LL * kSecond;  // 2024-03-04 00:00 UTC

    // Unexpected interruptions arrive as a Poisson process whose rate grows with the GPUs.
    double failuresPerGpuDay = 419.0 / 54.0 / 16'384.0;
    double plannedPerDay = 47.0 / 54.0;

    Nanos stepTime = 6 * kSecond;          // mean synchronous step at the coolest hour
    double diurnalAmplitude = 0.015;       // Llama 3 saw 1-2% throughput swing over the day
    double stepJitter = 0.004;             // relative step-to-step noise
    double modelParameters = 405e9;        // sets checkpoint size: 14 bytes a parameter
    Nanos checkpointInterval = 10 * kMinute;  // training time between checkpoint saves

    double stragglersPerDay = 3.0;         // thermal throttling, degraded links, noisy hosts
    Nanos stragglerMedianDuration = 90 * kMinute;
    double stragglerMedianSlowdown = 0.12; // median extra step time of a straggling GPU

    Nanos detectionMedian = 45 * kSecond;  // hardware faults announce themselves (Xid)
    Nanos hangDetectionMedian = 5 * kMinute;  // hangs wait for the NCCL watchdog
    Nanos restartMedian = 4 * kMinute;     // reschedule, swap the node, NCCL init
    Nanos maintenanceMedian = 12 * kMinute;

    // A fleet of clusters (fleet-350k): the job above is the pre-training job on part of one of
    // them, and the rest of the fleet runs a mix of other jobs (simulator/fleet.h).
    FleetShape fleet;

    // Optional profiler trace of collectives over a window of steps (none by default).
    CollectiveTraceParams trace;
    // GPU telemetry (power, temperature, SM clock, throttle reasons, ECC) every interval.
    SimulatedTelemetryParams telemetry;
};

std::vector<std::string> simulationPresetNames();
// Throws Error naming the known presets when `name` is not one.
SimulationParams simulationPreset(std::string_view name);

Run simulate(const SimulationParams& params);
// The model behind a simulated run's telemetry, for writing it out as the tools would
// (simulator/telemetry_logs.h); `run` is what simulate(params) gave.
TelemetryModel telemetryModel(const Run& run, const SimulationParams& params);

}  // namespace faultline
