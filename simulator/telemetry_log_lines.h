#pragma once
// The text of GPU telemetry as dcgm-exporter and nvidia-smi print it, for the simulator's
// emitted logs: the spellings of the real captures in shared/realdata/telemetry.
#include "telemetry_model.h"

#include <string>

namespace faultline {

// "GPU-1a2b3c4d-..." : a stable UUID for a GPU of the simulated cluster, from its name.
std::string simulatedGpuUuid(const Topology& topology, std::int32_t gpu);

// One dcgm-exporter scrape of a host's GPUs (HELP and TYPE lines, then every metric's
// samples, timestamped in milliseconds).
void appendDcgmScrape(std::string& out, const Topology& topology, std::int32_t host, std::int64_t epochNs,
                      const std::vector<GpuReading>& readings);

// nvidia-smi --query-gpu's header line, and one sample's rows (a row per GPU).
std::string nvidiaSmiQuery();
std::string nvidiaSmiHeader();
void appendNvidiaSmiRows(std::string& out, const Topology& topology, std::int32_t host, std::int64_t epochNs,
                         const std::vector<GpuReading>& readings);

}  // namespace faultline
