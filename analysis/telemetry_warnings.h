#pragma once
// Early warnings in a GPU's error counters: a failure whose GPU's ECC, PCIe replay or NVLink
// error counters rose in the hour before it lists that rise in its incident chain, where the
// CLI, the app's incident pane and the report read it.
#include "model/run.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace faultline {

struct EarlyWarning {
    Nanos time = 0;      // the first reading that shows the rise
    std::int32_t gpu = 0;
    std::string metric;
    double from = 0, to = 0;
    std::string text;    // "correctable ECC errors (volatile) rose from 3 to 9 in the hour before"
};

// Error counters are the metrics whose name says so (DCGM's ECC, PCIe replay, NVLink error
// and Xid fields, and nvidia-smi's ecc.errors.* mapped onto them).
bool isErrorCounter(const std::string& metric);

// The rises of `gpus`' error counters in [before - window, before], by raw samples where the
// run keeps them, else by the finest summary level (first bucket's min to last bucket's max).
std::vector<EarlyWarning> earlyWarnings(const Run& run, const std::vector<std::int32_t>& gpus, Nanos before, Nanos window = kHour);

// What a slow GPU's telemetry says during [begin, end] against its peers (every other GPU
// with the same metric then), at the finest summary level kept: "SM clock 1,403 MHz vs peers
// 1,980; SW thermal slowdown; 87 °C vs peers 70; power 448 W vs peers 696". Only what stands
// out is said; "" when nothing does, or the run has no telemetry then.
std::string stragglerEvidence(const Run& run, std::int32_t gpu, Nanos begin, Nanos end);

// The same for many GPUs over one window (the late ranks of one trace): one pass over the
// summaries, then each GPU's evidence without another.
class TelemetryWindow {
public:
    TelemetryWindow(const Run& run, Nanos begin, Nanos end);
    std::string evidence(std::int32_t gpu) const;

private:
    struct Readings {
        std::vector<double> mean, max;   // by GPU; NaN where it has no reading in the window
        std::vector<double> sortedMeans;  // of the GPUs that have one
    };
    struct Comparison {
        double mine = 0, peers = 0, mineMax = 0;
    };
    std::optional<Comparison> compare(std::string_view metric, std::int32_t gpu) const;
    std::map<std::string, Readings> m_metrics;  // by metric name
};

// The reasons a DCGM / nvidia-smi clock throttle bitmask names ("SW thermal slowdown, HW power
// brake"), leaving out idle and application clock settings, which slow nothing down.
std::string throttleReasons(std::uint64_t mask);

}  // namespace faultline
