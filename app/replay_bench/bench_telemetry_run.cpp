#include "app/replay_bench/bench_telemetry_run.h"

#include <algorithm>
#include <cmath>

namespace faultline {

std::int32_t addBenchPowerReadings(Run& run, Nanos span) {
    Telemetry& tm = run.telemetry;
    const auto metric = static_cast<std::int32_t>(tm.metrics.size());
    tm.metrics.emplace_back(kPowerMetric);
    TelemetryLevel level;
    level.bucket = 10 * kMinute;
    const std::int64_t first = run.info.startEpochNs / level.bucket;
    const std::int64_t count = std::max<Nanos>(1, std::min(span, run.info.duration) / level.bucket);
    level.series.reserve(run.topology.gpus.size());
    std::uint32_t noise = 12345;
    for (std::size_t g = 0; g < run.topology.gpus.size(); ++g) {
        TelemetrySummarySeries s;
        s.metric = metric;
        s.gpu = static_cast<std::int32_t>(g);
        s.buckets.resize(static_cast<std::size_t>(count));
        s.min.resize(s.buckets.size()), s.mean.resize(s.buckets.size()), s.max.resize(s.buckets.size());
        for (std::int64_t b = 0; b < count; ++b) {
            noise = noise * 1664525u + 1013904223u;  // a cheap generator: the figures, not the values, matter
            const float w = 80.0f + static_cast<float>(noise >> 8) / static_cast<float>(1u << 24) * 620.0f;
            const auto k = static_cast<std::size_t>(b);
            s.buckets[k] = first + b;
            s.min[k] = w * 0.9f, s.mean[k] = w, s.max[k] = std::min(700.0f, w * 1.1f);
        }
        level.series.push_back(std::move(s));
    }
    tm.levels.push_back(std::move(level));
    return metric;
}

}  // namespace faultline
