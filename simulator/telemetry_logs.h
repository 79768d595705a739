#pragma once
// The GPU telemetry a simulated cluster's monitoring would have left, written as the tools
// write it (`faultline-cli simulate --emit-logs DIR`):
//
//   DIR/telemetry/HOST.prom   dcgm-exporter's /metrics scraped every interval, each scrape's
//                             samples timestamped (ms): DCGM_FI_DEV_SM_CLOCK, _GPU_TEMP,
//                             _POWER_USAGE, _CLOCK_THROTTLE_REASONS, _ECC_SBE_VOL_TOTAL with
//                             dcgm-exporter's labels (gpu, UUID, pci_bus_id, device,
//                             modelName, Hostname, DCGM_FI_DRIVER_VERSION)
//   DIR/telemetry/HOST.csv    nvidia-smi --query-gpu=timestamp,index,pci.bus_id,uuid,
//                             power.draw,temperature.gpu,clocks.sm,clocks_throttle_reasons.active,
//                             ecc.errors.corrected.volatile.total --format=csv -l SECONDS
//
// Hosts alternate between the two (even hosts dcgm-exporter, odd ones nvidia-smi), so one
// emitted cluster exercises both importers and no GPU is counted twice.
#include "telemetry_model.h"

#include <string>

namespace faultline {

struct TelemetryLogOptions {
    Nanos interval = 0;  // between emitted samples: a multiple of the model's; 0: the model's
    int hosts = -1;      // hosts written; -1: every host while the files fit maxBytes
    std::int64_t maxBytes = 2LL << 30;
};

struct TelemetryLogSummary {
    int hosts = 0;       // hosts with a telemetry file
    int allHosts = 0;
    Nanos interval = 0;
    std::int64_t bytes = 0;
};

// Throws Error when DIR/telemetry cannot be written, or the interval is not a multiple of
// the model's.
TelemetryLogSummary writeTelemetryLogs(const Run& run, const TelemetryModel& model, const std::string& dir,
                                       const TelemetryLogOptions& options = {});

}  // namespace faultline
