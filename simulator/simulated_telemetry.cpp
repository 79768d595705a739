#include "simulated_telemetry.h"

#include <algorithm>
#include <array>

namespace faultline {

namespace {

constexpr std::size_t kMetrics = std::size(kSimulatedMetrics);
constexpr std::int64_t kBytesPerCell = 8 + 3 * 4;  // bucket number, min, mean, max

std::int64_t floorDiv(std::int64_t a, std::int64_t b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }

float value(const GpuReading& r, std::size_t metric) {
    switch (metric) {
        case 0: return r.power;
        case 1: return r.temperature;
        case 2: return r.smClock;
        case 3: return static_cast<float>(r.throttleReasons);
        default: return r.eccCorrected;
    }
}

// One kept level: every sample's bucket and how many samples each bucket holds (the same for
// every series: every GPU is sampled at the same instants).
struct LevelPlan {
    Nanos size = 0;
    std::vector<std::int64_t> bucketOf;  // per sample
    std::vector<std::int64_t> buckets;   // distinct, in order
    std::vector<std::uint32_t> counts;   // samples in each
};

}  // namespace

Telemetry summarizeTelemetry(const TelemetryModel& model, std::int64_t startEpochNs, std::int64_t budgetBytes) {
    Telemetry out;
    const std::int64_t samples = model.samples();
    const std::int32_t gpus = model.gpus();
    if (samples == 0 || gpus == 0) return out;
    for (std::string_view m : kSimulatedMetrics) out.metrics.emplace_back(m);

    // Which series exist: power, temperature and SM clock on every GPU; throttle reasons and
    // ECC errors only where they are ever non-zero.
    std::vector<std::array<bool, kMetrics>> has(static_cast<std::size_t>(gpus));
    std::int64_t series = 0;
    for (std::int32_t g = 0; g < gpus; ++g) {
        has[static_cast<std::size_t>(g)] = {true, true, true, model.throttles(g), model.countsEccErrors(g)};
        series += std::count(has[static_cast<std::size_t>(g)].begin(), has[static_cast<std::size_t>(g)].end(), true);
    }

    std::vector<LevelPlan> plans;
    for (Nanos size : kTelemetryBucketSizes) {
        LevelPlan plan;
        plan.size = size;
        plan.bucketOf.resize(static_cast<std::size_t>(samples));
        for (std::int64_t k = 0; k < samples; ++k) {
            const std::int64_t b = floorDiv(startEpochNs + model.time(k), size);
            plan.bucketOf[static_cast<std::size_t>(k)] = b;
            if (plan.buckets.empty() || plan.buckets.back() != b) {
                plan.buckets.push_back(b);
                plan.counts.push_back(0);
            }
            ++plan.counts.back();
        }
        plans.push_back(std::move(plan));
    }
    // The finest level from which every level down to the coarsest fits the budget.
    std::size_t finest = plans.size() - 1;
    std::int64_t cells = static_cast<std::int64_t>(plans.back().buckets.size());
    for (std::size_t l = plans.size() - 1; l-- > 0;) {
        cells += static_cast<std::int64_t>(plans[l].buckets.size());
        if (cells * series * kBytesPerCell > budgetBytes) break;
        finest = l;
    }
    plans.erase(plans.begin(), plans.begin() + static_cast<std::ptrdiff_t>(finest));

    const bool keepRaw = series * samples <= static_cast<std::int64_t>(kMaxRawSamples);
    out.rawDropped = !keepRaw;
    // Series by (metric, gpu): filled one GPU at a time, empty ones dropped at the end.
    std::vector<std::vector<TelemetrySummarySeries>> levels(plans.size(), std::vector<TelemetrySummarySeries>(kMetrics * static_cast<std::size_t>(gpus)));
    std::vector<TelemetryRawSeries> raw(keepRaw ? kMetrics * static_cast<std::size_t>(gpus) : 0);
    std::vector<double> sums;
    std::vector<GpuReading> readings(static_cast<std::size_t>(samples));
    for (std::int32_t g = 0; g < gpus; ++g) {
        for (std::int64_t k = 0; k < samples; ++k) readings[static_cast<std::size_t>(k)] = model.reading(g, k);
        for (std::size_t m = 0; m < kMetrics; ++m) {
            if (!has[static_cast<std::size_t>(g)][m]) continue;
            const std::size_t at = m * static_cast<std::size_t>(gpus) + static_cast<std::size_t>(g);
            if (keepRaw) {
                TelemetryRawSeries& r = raw[at];
                r.metric = static_cast<std::int32_t>(m);
                r.gpu = g;
                r.times.resize(static_cast<std::size_t>(samples));
                r.values.resize(static_cast<std::size_t>(samples));
                for (std::int64_t k = 0; k < samples; ++k) {
                    r.times[static_cast<std::size_t>(k)] = model.time(k);
                    r.values[static_cast<std::size_t>(k)] = value(readings[static_cast<std::size_t>(k)], m);
                }
            }
            for (std::size_t l = 0; l < plans.size(); ++l) {
                const LevelPlan& plan = plans[l];
                TelemetrySummarySeries& s = levels[l][at];
                s.metric = static_cast<std::int32_t>(m);
                s.gpu = g;
                s.buckets = plan.buckets;
                s.min.assign(plan.buckets.size(), 0);
                s.mean.assign(plan.buckets.size(), 0);
                s.max.assign(plan.buckets.size(), 0);
                sums.assign(plan.buckets.size(), 0);
                std::size_t j = 0;
                bool first = true;
                for (std::int64_t k = 0; k < samples; ++k) {
                    if (plan.bucketOf[static_cast<std::size_t>(k)] != plan.buckets[j]) {
                        ++j;
                        first = true;
                    }
                    const float v = value(readings[static_cast<std::size_t>(k)], m);
                    s.min[j] = first ? v : std::min(s.min[j], v);
                    s.max[j] = first ? v : std::max(s.max[j], v);
                    sums[j] += v;
                    first = false;
                }
                for (std::size_t b = 0; b < sums.size(); ++b) s.mean[b] = static_cast<float>(sums[b] / plan.counts[b]);
            }
        }
    }
    for (std::size_t l = 0; l < plans.size(); ++l) {
        TelemetryLevel level{plans[l].size, {}};
        for (TelemetrySummarySeries& s : levels[l])
            if (!s.buckets.empty()) level.series.push_back(std::move(s));
        out.levels.push_back(std::move(level));
    }
    for (TelemetryRawSeries& r : raw)
        if (!r.times.empty()) out.raw.push_back(std::move(r));
    return out;
}

}  // namespace faultline
