#include "metric_at_instant.h"

#include <algorithm>
#include <cmath>

namespace faultline {

namespace {

constexpr float kNoData = std::numeric_limits<float>::quiet_NaN();
constexpr std::size_t kDenseBudget = 64u << 20;  // bytes

template <typename Series>
std::pair<typename std::vector<Series>::const_iterator, typename std::vector<Series>::const_iterator> seriesOf(const std::vector<Series>& all,
                                                                                                                std::int32_t metric) {
    // Series are sorted by (metric, gpu).
    const auto first = std::lower_bound(all.begin(), all.end(), metric, [](const Series& s, std::int32_t m) { return s.metric < m; });
    const auto last = std::upper_bound(first, all.end(), metric, [](std::int32_t m, const Series& s) { return m < s.metric; });
    return {first, last};
}

// The index of the last element <= key, or -1: the cursor's element or the next when they
// are it (a replay moving forward), else a binary search.
template <typename T>
std::ptrdiff_t lastAtOrBefore(const std::vector<T>& v, T key, std::uint32_t* cursor) {
    if (cursor) {
        for (std::size_t c = *cursor; c < v.size() && c <= *cursor + 1; ++c)
            if (v[c] <= key && (c + 1 == v.size() || v[c + 1] > key)) {
                *cursor = static_cast<std::uint32_t>(c);
                return static_cast<std::ptrdiff_t>(c);
            }
    }
    const std::ptrdiff_t i = std::upper_bound(v.begin(), v.end(), key) - v.begin() - 1;
    if (cursor && i >= 0) *cursor = static_cast<std::uint32_t>(i);
    return i;
}

}  // namespace

MetricAtInstant::MetricAtInstant(const Run& run, std::int32_t metric, Nanos step)
    : m_metric(metric), m_start(run.info.startEpochNs) {
    const Telemetry& tm = run.telemetry;
    const std::size_t gpus = run.topology.gpus.size();
    auto widen = [this](float lo, float hi) {
        if (!(lo >= m_dataMin)) m_dataMin = std::isnan(m_dataMin) ? lo : std::min(m_dataMin, lo);
        if (!(hi <= m_dataMax)) m_dataMax = std::isnan(m_dataMax) ? hi : std::max(m_dataMax, hi);
    };
    const bool rawFits = (tm.levels.empty() || step < tm.levels.front().bucket) && !tm.rawSeries().empty();
    if (rawFits) {
        m_raw.assign(gpus, nullptr);
        const auto [first, last] = seriesOf(tm.rawSeries(), metric);
        for (auto s = first; s != last; ++s) {
            if (s->gpu < 0 || static_cast<std::size_t>(s->gpu) >= gpus) continue;
            m_raw[static_cast<std::size_t>(s->gpu)] = &*s;
            for (float v : s->values) widen(v, v);
        }
        return;
    }
    if (tm.levels.empty()) return;
    std::size_t chosen = tm.levels.size() - 1;
    for (std::size_t l = 0; l < tm.levels.size(); ++l)
        if (tm.levels[l].bucket >= step) {
            chosen = l;
            break;
        }
    m_bucket = tm.levels[chosen].bucket;
    m_lookback = std::max(kMetricLookback, m_bucket);
    m_summary.assign(gpus, nullptr);
    for (const TelemetrySummarySeries& s : tm.metricSeries(chosen, metric, m_read))
        if (s.gpu >= 0 && static_cast<std::size_t>(s.gpu) < gpus) m_summary[static_cast<std::size_t>(s.gpu)] = &s;
    buildDenseRows();
    // The range from the coarsest level: its buckets' min and max hold every reading.
    std::vector<TelemetrySummarySeries> coarsest;
    for (const TelemetrySummarySeries& s : tm.metricSeries(tm.levels.size() - 1, metric, coarsest))
        for (std::size_t k = 0; k < s.buckets.size(); ++k) widen(s.min[k], s.max[k]);
}

void MetricAtInstant::buildDenseRows() {
    std::int64_t first = std::numeric_limits<std::int64_t>::max(), last = std::numeric_limits<std::int64_t>::min();
    for (const TelemetrySummarySeries* s : m_summary)
        if (s && !s->buckets.empty()) first = std::min(first, s->buckets.front()), last = std::max(last, s->buckets.back());
    if (first > last) return;
    // Every level's bucket divides the lookback (5 minutes, or the bucket itself): a reading
    // stands for whole buckets, this many.
    const std::int64_t carry = std::max<std::int64_t>(1, m_lookback / m_bucket);
    const std::size_t gpus = m_summary.size();
    const auto rows = static_cast<std::size_t>(last - first + carry);
    if (rows > kDenseBudget / sizeof(float) / std::max<std::size_t>(1, gpus)) return;
    m_dense.assign(rows * gpus, kNoData);
    for (std::size_t g = 0; g < gpus; ++g) {
        const TelemetrySummarySeries* s = m_summary[g];
        if (!s) continue;
        for (std::size_t k = 0; k < s->buckets.size(); ++k) {
            const std::int64_t until = k + 1 < s->buckets.size() ? std::min(s->buckets[k + 1], s->buckets[k] + carry) : s->buckets[k] + carry;
            for (std::int64_t b = s->buckets[k]; b < until; ++b) m_dense[static_cast<std::size_t>(b - first) * gpus + g] = s->mean[k];
        }
    }
    m_denseFirst = first;
    m_denseRows = rows;
}

float MetricAtInstant::read(std::size_t gpu, Nanos epoch, std::uint32_t* cursor) const {
    if (!m_raw.empty()) {
        const TelemetryRawSeries* s = m_raw[gpu];
        if (!s) return kNoData;
        const std::ptrdiff_t i = lastAtOrBefore(s->times, epoch - m_start, cursor);
        if (i < 0 || epoch - m_start - s->times[static_cast<std::size_t>(i)] >= m_lookback) return kNoData;
        return s->values[static_cast<std::size_t>(i)];
    }
    if (m_summary.empty()) return kNoData;
    const TelemetrySummarySeries* s = m_summary[gpu];
    if (!s) return kNoData;
    const std::ptrdiff_t i = lastAtOrBefore(s->buckets, floorDiv(epoch, m_bucket), cursor);
    // The newest bucket that began within the lookback (with long buckets: the one holding t).
    if (i < 0 || epoch - s->buckets[static_cast<std::size_t>(i)] * m_bucket >= m_lookback) return kNoData;
    return s->mean[static_cast<std::size_t>(i)];
}

float MetricAtInstant::valueAt(std::int32_t gpu, Nanos t) const {
    const std::size_t n = std::max(m_raw.size(), m_summary.size());
    if (gpu < 0 || static_cast<std::size_t>(gpu) >= n) return kNoData;
    return read(static_cast<std::size_t>(gpu), m_start + t, nullptr);
}

void MetricAtInstant::valuesAt(Nanos t, std::vector<float>& out) {
    const std::size_t n = std::max(m_raw.size(), m_summary.size());
    out.resize(n);
    if (m_denseRows > 0) {
        const std::int64_t row = floorDiv(m_start + t, m_bucket) - m_denseFirst;
        if (row < 0 || static_cast<std::size_t>(row) >= m_denseRows) return std::fill(out.begin(), out.end(), kNoData);
        const auto from = m_dense.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(row) * n);
        return void(std::copy(from, from + static_cast<std::ptrdiff_t>(n), out.begin()));
    }
    m_cursor.resize(n, 0);
    for (std::size_t g = 0; g < n; ++g) out[g] = read(g, m_start + t, &m_cursor[g]);
}

}  // namespace faultline
