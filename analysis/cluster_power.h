#pragma once
// The whole cluster's power draw over the run, in megawatts: summed from the GPUs' power
// telemetry where the run has it, else from a power model of what the job was doing (the
// simulator's runs). Failures, restarts and checkpoints are marked, and the largest swings
// (MW per second) listed: what the data centre's power system had to absorb.
#include "model/run.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace faultline {

// Per GPU, by what the job is doing. The levels and where they come from are in
// docs/power.md: 700 W is the H100 SXM's TDP (NVIDIA's datasheet); 120 W and 72 W are
// medians measured on 8 H100s (the training_profile nvidia-smi capture in the real data).
struct PowerModel {
    double trainingWatts = 700;    // every GPU computing a step
    double checkpointWatts = 120;  // the job stalled on a checkpoint save or load: memory held, no compute
    double idleWatts = 72;         // the job is down (torn down, waiting for its restart)
    // How long the cluster takes to go from one level to the next: every rank stops within
    // the step a failure hits, and a restart's first step starts them together.
    Nanos rampTime = kSecond;
};

struct PowerPoint {
    Nanos time = 0;
    double megawatts = 0;
};

// Something the power draw answers to.
struct PowerMark {
    Nanos time = 0;
    std::string kind;  // "failure", "restart", "checkpoint"
    std::string label;
};

struct PowerSwing {
    Nanos time = 0;          // where the change starts
    double fromMegawatts = 0, toMegawatts = 0;
    double megawattsPerSecond = 0;  // signed: negative when the draw falls
    std::string cause;       // the mark at (or just before) it, if any
};

struct ClusterPower {
    bool fromTelemetry = false;
    std::string source;      // "telemetry: DCGM_FI_DEV_POWER_USAGE of 16 GPUs, 10 s buckets" or the model's levels
    std::int32_t gpus = 0;
    std::vector<PowerPoint> curve;  // in time order
    double peakMegawatts = 0, meanMegawatts = 0, energyMegawattHours = 0;
    std::vector<PowerMark> marks;
    std::vector<PowerSwing> largestSwings;  // by |MW/s|, largest first
};

ClusterPower clusterPower(const Run& run, const PowerModel& model = {}, std::size_t swings = 10);

std::string clusterPowerToText(const ClusterPower& power, const Run& run);
nlohmann::json clusterPowerToJson(const ClusterPower& power, const Run& run);
// time_s, utc, megawatts: one row per point of the curve.
std::string clusterPowerToCsv(const ClusterPower& power, const Run& run);

}  // namespace faultline
