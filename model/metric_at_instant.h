#pragma once
// One metric's value on every GPU at an instant of the run, read many times a second by the
// replay (and once by `faultline-cli telemetry`): what a Grafana panel shows for the moment.
// The value at t is the newest reading at or before t that is not older than the lookback
// (Prometheus's default 5 minutes, or one bucket when buckets are longer): a raw sample, or a
// bucket's mean. Nothing that recent: no data (NaN), never a made-up value.
#include "run.h"

#include <cstdint>
#include <limits>
#include <vector>

namespace faultline {

inline constexpr Nanos kMetricLookback = 5 * kMinute;

class MetricAtInstant {
public:
    // `step`: how far the replay moves between frames; the finest summary level whose bucket is
    // at least that is read (raw samples, where kept, while step is under the finest bucket).
    MetricAtInstant(const Run& run, std::int32_t metric, Nanos step = 0);
    // It points into what it read: moved, never copied.
    MetricAtInstant(const MetricAtInstant&) = delete;
    MetricAtInstant& operator=(const MetricAtInstant&) = delete;
    MetricAtInstant(MetricAtInstant&&) = default;
    MetricAtInstant& operator=(MetricAtInstant&&) = default;

    std::int32_t metric() const { return m_metric; }
    // The bucket size read, or 0 for raw samples.
    Nanos bucket() const { return m_bucket; }
    // Every GPU's value at run time t into `out` (resized to the GPU count); NaN for no data.
    // Remembers where each GPU's reading was, so that a replay moving on a bucket or a sample
    // at a time looks at the next one instead of searching (a search over every GPU's series
    // is tens of megabytes of memory a frame at 24,576 GPUs).
    void valuesAt(Nanos t, std::vector<float>& out);
    float valueAt(std::int32_t gpu, Nanos t) const;
    // The smallest and largest reading of the metric anywhere in the run (min and max over every
    // series, from the raw samples or the coarsest level); NaN when it has none.
    float dataMin() const { return m_dataMin; }
    float dataMax() const { return m_dataMax; }

private:
    float read(std::size_t gpu, Nanos epoch, std::uint32_t* cursor) const;

    std::int32_t m_metric;
    std::int64_t m_start;  // the run's start, Unix epoch ns
    Nanos m_bucket = 0;
    Nanos m_lookback = kMetricLookback;
    // Per GPU, the series read (or null): a dense table so a frame does no search by GPU.
    std::vector<const TelemetryRawSeries*> m_raw;
    std::vector<const TelemetrySummarySeries*> m_summary;
    std::vector<TelemetrySummarySeries> m_read;  // the level's series where the run held them nowhere (a run file's, or ones raw samples stand in for)
    std::vector<std::uint32_t> m_cursor;  // per GPU: the index valuesAt last read
    // A summary level laid out as rows of every GPU's value (NaN: none) per bucket, each reading
    // carried over the buckets its lookback covers, while that fits kDenseBudget: a frame is
    // then one row copied. Readings line up in buckets across GPUs, so rows are few.
    void buildDenseRows();
    std::vector<float> m_dense;
    std::int64_t m_denseFirst = 0;
    std::size_t m_denseRows = 0;
    float m_dataMin = std::numeric_limits<float>::quiet_NaN();
    float m_dataMax = std::numeric_limits<float>::quiet_NaN();
};

}  // namespace faultline
