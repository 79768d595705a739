#pragma once
// GPU telemetry of a run (DCGM, Prometheus, nvidia-smi): per GPU and metric, the samples as
// they were read (while they fit kMaxRawSamples) and min/mean/max summaries in time buckets
// of several sizes, so that a view at any zoom reads one level and never the raw samples.
//
// Metrics are named as DCGM names them (DCGM_FI_DEV_POWER_USAGE, ...): nvidia-smi's and
// dmon's columns map onto the same names, so a Grafana user finds the numbers under the
// names they know. A metric DCGM has no field for keeps its tool's name.
#include "time.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace faultline {

// The bucket sizes summaries are kept at, finest first. A level is kept while the import's
// cells fit its budget (see importers/telemetry_accumulator.h); coarser ones always fit.
inline constexpr std::array<Nanos, 6> kTelemetryBucketSizes = {10 * kSecond, kMinute, 10 * kMinute, kHour, 6 * kHour, kDay};
// Raw samples are kept only when a run has at most this many (48 MB in memory and on disk);
// beyond it the finest summary level stands in for them.
inline constexpr std::size_t kMaxRawSamples = 4'000'000;

// One GPU's samples of one metric, in time order.
struct TelemetryRawSeries {
    std::int32_t metric = 0;
    std::int32_t gpu = 0;
    std::vector<Nanos> times;
    std::vector<float> values;
};

// One GPU's buckets of one metric at one level, in time order; only buckets with a sample.
// Bucket b covers [b * size, (b + 1) * size) in Unix epoch nanoseconds: buckets line up
// across GPUs, files and runs.
struct TelemetrySummarySeries {
    std::int32_t metric = 0;
    std::int32_t gpu = 0;
    std::vector<std::int64_t> buckets;
    std::vector<float> min, mean, max;
};

struct TelemetryLevel {
    Nanos bucket = 0;
    std::vector<TelemetrySummarySeries> series;  // sorted by (metric, gpu)
};

// Where a run file's telemetry stays until a view asks for it: a level's series or the raw
// samples are read (and checked) on first use, then held. Safe to call from any thread.
// A damaged level throws Error naming the file, the table and the row.
class TelemetryStore {
public:
    virtual ~TelemetryStore() = default;
    virtual const TelemetryLevel& level(std::size_t index) const = 0;
    virtual const std::vector<TelemetryRawSeries>& raw() const = 0;
};

struct Telemetry {
    std::vector<std::string> metrics;         // names; series refer to them by index
    std::vector<TelemetryRawSeries> raw;      // sorted by (metric, gpu); empty when dropped or stored
    bool rawDropped = false;                  // there were more than kMaxRawSamples
    std::vector<TelemetryLevel> levels;       // finest first; with a store, their buckets only
    // Set for a run read from a file: its series are read from there when first asked for,
    // so opening a run costs nothing per telemetry sample. Read through level() and rawSeries().
    std::shared_ptr<const TelemetryStore> store;

    bool empty() const { return metrics.empty(); }
    std::optional<std::int32_t> metricIndex(std::string_view name) const;
    // Level `index` with its series, read from the store the first time it is asked for.
    const TelemetryLevel& level(std::size_t index) const { return store ? store->level(index) : levels[index]; }
    const std::vector<TelemetryRawSeries>& rawSeries() const { return store ? store->raw() : raw; }
};

// The level a view of `span` nanoseconds drawn at about `points` points reads: the finest
// whose buckets are at least span / points wide, else the coarsest kept; nullptr when none.
const TelemetryLevel* telemetryLevelFor(const Telemetry& telemetry, Nanos span, int points);

// What a person reads for a metric: "Power", "W"; the name itself and "" for unknown ones.
struct MetricInfo {
    std::string_view name;
    std::string_view label;
    std::string_view unit;
};
MetricInfo metricInfo(std::string_view name);

inline constexpr std::string_view kPowerMetric = "DCGM_FI_DEV_POWER_USAGE";
inline constexpr std::string_view kTemperatureMetric = "DCGM_FI_DEV_GPU_TEMP";
inline constexpr std::string_view kSmClockMetric = "DCGM_FI_DEV_SM_CLOCK";

}  // namespace faultline
