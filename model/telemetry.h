#pragma once
// GPU telemetry of a run (DCGM, Prometheus, nvidia-smi): per GPU and metric, the samples as
// they were read (while they fit kMaxRawSamples) and min/mean/max summaries in time buckets
// of several sizes, so that a view at any zoom reads one level and never the raw samples.
//
// Metrics are named as DCGM names them (DCGM_FI_DEV_POWER_USAGE, ...): nvidia-smi's and
// dmon's columns map onto the same names, so a Grafana user finds the numbers under the
// names they know. A metric DCGM has no field for keeps its tool's name.
#include "time.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
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
    // The first level (an index into Telemetry::levels) that holds this series. At the finer
    // ones no two of its samples share a bucket, so each sample is a bucket of its own
    // (summaryOfRaw): those levels would only repeat the samples and are not kept. A scrape
    // of a million one-sample series then costs a raw row each, not one per level.
    std::int32_t levelsFrom = 0;
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
    // Sorted by (metric, gpu). Those a raw series stands in for (TelemetryRawSeries::levelsFrom)
    // are not among them: levelSeries and metricSeries add them.
    std::vector<TelemetrySummarySeries> series;
};

// A raw series as the buckets of `bucket` ns it stands in for at a level below its levelsFrom:
// a bucket per sample, its min, mean and max the sample. `epochNs`: where raw times count from.
TelemetrySummarySeries summaryOfRaw(const TelemetryRawSeries& raw, Nanos bucket, std::int64_t epochNs);
// The first level of `buckets` (finest first) at which two of `times` share a bucket; the
// number of levels when none does. `epochNs`: where the times count from.
std::int32_t firstMergingLevel(const std::vector<Nanos>& times, const std::vector<Nanos>& buckets, std::int64_t epochNs);
// One metric's series at level `index` of `bucket` ns: `stored` (that level's) and those the
// `raw` ones stand in for (levelsFrom > index), both of that metric and sorted by GPU; in GPU order.
std::vector<TelemetrySummarySeries> withStandIns(std::span<const TelemetrySummarySeries> stored, std::span<const TelemetryRawSeries> raw, std::size_t index, Nanos bucket,
                                                 std::int64_t epochNs);

// Where a run file's telemetry stays until a view asks for it: a level's series or the raw
// samples are read (and checked) on first use, then held. Safe to call from any thread.
// A damaged level throws Error naming the file, the table and the row.
class TelemetryStore {
public:
    virtual ~TelemetryStore() = default;
    virtual const TelemetryLevel& level(std::size_t index) const = 0;
    virtual const std::vector<TelemetryRawSeries>& raw() const = 0;
    // One metric's series of the GPUs asked for, read alone through the file's index (from
    // what is held where the whole level or the raw samples were read already): a few GPUs'
    // counters cost a few rows, not a level of every GPU.
    virtual std::vector<TelemetrySummarySeries> levelSeries(std::size_t index, std::int32_t metric, const std::vector<std::int32_t>& gpus) const = 0;
    virtual std::vector<TelemetryRawSeries> rawSeries(std::int32_t metric, const std::vector<std::int32_t>& gpus) const = 0;
    // Every GPU's series of one metric at a level (a chart of one metric over the cluster).
    // levelSeries and metricSeries hold the series raw ones stand in for; level() does not.
    virtual std::vector<TelemetrySummarySeries> metricSeries(std::size_t index, std::int32_t metric) const = 0;
    virtual bool hasRaw() const = 0;
};

struct Telemetry {
    std::vector<std::string> metrics;         // names; series refer to them by index
    std::vector<TelemetryRawSeries> raw;      // sorted by (metric, gpu); empty when dropped or stored
    bool rawDropped = false;                  // there were more than kMaxRawSamples
    std::vector<TelemetryLevel> levels;       // finest first; with a store, their buckets only
    std::int64_t epochNs = 0;                 // the Unix epoch time raw times count from (the run's start)
    // Set for a run read from a file: its series are read from there when first asked for,
    // so opening a run costs nothing per telemetry sample. Read through level() and rawSeries().
    std::shared_ptr<const TelemetryStore> store;

    bool empty() const { return metrics.empty(); }
    std::optional<std::int32_t> metricIndex(std::string_view name) const;
    // Level `index` with the series it keeps (not those raw series stand in for), read from
    // the store the first time it is asked for.
    const TelemetryLevel& level(std::size_t index) const { return store ? store->level(index) : levels[index]; }
    const std::vector<TelemetryRawSeries>& rawSeries() const { return store ? store->raw() : raw; }
    bool hasRawSeries() const { return store ? store->hasRaw() : !raw.empty(); }
    // One metric's series of `gpus` (in the order of the GPUs; a GPU without one is left out),
    // without reading the level or the raw samples of every GPU from the store.
    std::vector<TelemetrySummarySeries> levelSeries(std::size_t index, std::int32_t metric, const std::vector<std::int32_t>& gpus) const;
    std::vector<TelemetryRawSeries> rawSeriesOf(std::int32_t metric, const std::vector<std::int32_t>& gpus) const;
    // Every GPU's series of one metric at a level: in place where the run holds them (a run
    // being imported), else a run file's rows of that metric alone, read into `read`.
    std::span<const TelemetrySummarySeries> metricSeries(std::size_t index, std::int32_t metric, std::vector<TelemetrySummarySeries>& read) const;
};

// The series of `metric` and `gpus` among `series` sorted by (metric, gpu).
template <typename Series>
std::vector<Series> pickSeries(const std::vector<Series>& series, std::int32_t metric, const std::vector<std::int32_t>& gpus) {
    std::vector<Series> out;
    for (std::int32_t gpu : gpus) {
        const auto it = std::lower_bound(series.begin(), series.end(), std::pair{metric, gpu},
                                         [](const Series& s, const std::pair<std::int32_t, std::int32_t>& key) { return std::pair{s.metric, s.gpu} < key; });
        if (it != series.end() && it->metric == metric && it->gpu == gpu) out.push_back(*it);
    }
    return out;
}

// The index of the level a view of `span` nanoseconds drawn at about `points` points reads:
// the finest whose buckets are at least span / points wide, else the coarsest kept; unset
// when none. Its series are read with Telemetry::level, one metric's with metricSeries.
std::optional<std::size_t> telemetryLevelIndexFor(const Telemetry& telemetry, Nanos span, int points);

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
