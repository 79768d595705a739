#include "importers/telemetry/readers.h"

namespace faultline {

const std::vector<FormatInfo>& telemetryReaders() {
    static const std::vector<FormatInfo> kReaders = {
        {"prometheus-text", "GPU telemetry in Prometheus text exposition or OpenMetrics: dcgm-exporter /metrics scrapes, one or a series with timestamps; InfiniBand link-down counters (node_exporter, infiniband-exporter) as cable failures", importPrometheusText},
        {"prometheus-json", "GPU telemetry from the Prometheus HTTP API: query_range (matrix) or query (vector) responses, with or without the status/data envelope, and Kepler's metric-to-result map; InfiniBand link-down counters as cable failures", importPrometheusJson},
        {"nvidia-smi-csv", "nvidia-smi --query-gpu=... --format=csv log (-l / -lms), any fields, with or without header and units", importNvidiaSmiCsv},
        {"gpu-dmon", "nvidia-smi dmon or dcgmi dmon output", importGpuDmon},
    };
    return kReaders;
}

}  // namespace faultline
