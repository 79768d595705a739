#pragma once
// The telemetry a simulated run keeps in its run file: the TelemetryModel's readings of every
// GPU, every interval, summarised into the run's min/mean/max levels (model/telemetry.h)
// one GPU at a time, never holding the samples themselves past the raw-sample cap.
#include "telemetry_model.h"

#include "model/telemetry.h"

namespace faultline {

struct SimulatedTelemetryParams {
    Nanos interval = 5 * kMinute;  // between samples of every GPU; 0: no telemetry
    // The summaries' share of the run file: levels finer than fit are left out (the coarsest
    // is always kept). 20 bytes a bucket of a series.
    std::int64_t budgetBytes = 600LL << 20;
};

// Metrics in the order the run file lists them.
inline constexpr std::string_view kSimulatedMetrics[] = {kPowerMetric, kTemperatureMetric, kSmClockMetric,
                                                         "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS", "DCGM_FI_DEV_ECC_SBE_VOL_TOTAL"};

Telemetry summarizeTelemetry(const TelemetryModel& model, std::int64_t startEpochNs, std::int64_t budgetBytes);

}  // namespace faultline
