#include "simulated_telemetry.h"

#include <algorithm>
#include <array>
#include <thread>

namespace faultline {

namespace {

constexpr std::size_t kMetrics = std::size(kSimulatedMetrics);
constexpr std::int64_t kBytesPerCell = 8 + 3 * 4;  // bucket number, min, mean, max


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

// Which series exist: power, temperature and SM clock on every GPU; throttle reasons and
// ECC errors only where they are ever non-zero. `series` counts them.
std::vector<std::array<bool, kMetrics>> seriesOf(const TelemetryModel& model, std::int64_t& series) {
    const std::int32_t gpus = model.gpus();
    std::vector<std::array<bool, kMetrics>> has(static_cast<std::size_t>(gpus));
    series = 0;
    for (std::int32_t g = 0; g < gpus; ++g) {
        has[static_cast<std::size_t>(g)] = {true, true, true, model.throttles(g), model.countsEccErrors(g)};
        series += std::count(has[static_cast<std::size_t>(g)].begin(), has[static_cast<std::size_t>(g)].end(), true);
    }
    return has;
}

// The levels kept: from the finest from which every level down to the coarsest fits the
// budget.
std::vector<LevelPlan> planLevels(const TelemetryModel& model, std::int64_t startEpochNs, std::int64_t series, std::int64_t budgetBytes) {
    const std::int64_t samples = model.samples();
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
    std::size_t finest = plans.size() - 1;
    std::int64_t cells = static_cast<std::int64_t>(plans.back().buckets.size());
    for (std::size_t l = plans.size() - 1; l-- > 0;) {
        cells += static_cast<std::int64_t>(plans[l].buckets.size());
        if (cells * series * kBytesPerCell > budgetBytes) break;
        finest = l;
    }
    plans.erase(plans.begin(), plans.begin() + static_cast<std::ptrdiff_t>(finest));
    return plans;
}

// The finest level from the samples, a bucket's samples being consecutive: min and max into
// `target`, each bucket's sum into `sums`.
void summarizeSamples(const std::vector<float>& values, const LevelPlan& plan, TelemetrySummarySeries& target, std::vector<double>& sums) {
    const std::size_t n = plan.buckets.size();
    sums.assign(n, 0);
    std::size_t k = 0;
    for (std::size_t j = 0; j < n; ++j) {
        float lo = values[k], hi = values[k];
        double sum = 0;
        for (const std::size_t end = k + plan.counts[j]; k < end; ++k) {
            lo = std::min(lo, values[k]);
            hi = std::max(hi, values[k]);
            sum += values[k];
        }
        target.min[j] = lo;
        target.max[j] = hi;
        sums[j] = sum;
    }
}

// A coarser level from the level before it (buckets nest): min and max into `target`, the
// finer buckets' `sums` replaced by the coarser ones'.
void summarizeFiner(const TelemetrySummarySeries& finer, const LevelPlan& finerPlan, const LevelPlan& plan, TelemetrySummarySeries& target,
                    std::vector<double>& sums) {
    const std::size_t n = plan.buckets.size();
    std::vector<double> coarse(n, 0);
    std::size_t i = 0;
    for (std::size_t j = 0; j < n; ++j) {
        target.min[j] = finer.min[i];
        target.max[j] = finer.max[i];
        for (; i < finer.buckets.size() && floorDiv(finerPlan.buckets[i] * finerPlan.size, plan.size) == plan.buckets[j]; ++i) {
            target.min[j] = std::min(target.min[j], finer.min[i]);
            target.max[j] = std::max(target.max[j], finer.max[i]);
            coarse[j] += sums[i];
        }
    }
    sums = std::move(coarse);
}

}  // namespace

Telemetry summarizeTelemetry(const TelemetryModel& model, std::int64_t startEpochNs, std::int64_t budgetBytes) {
    Telemetry out;
    const std::int64_t samples = model.samples();
    const std::int32_t gpus = model.gpus();
    if (samples == 0 || gpus == 0) return out;
    for (std::string_view m : kSimulatedMetrics) out.metrics.emplace_back(m);

    std::int64_t series = 0;
    const std::vector<std::array<bool, kMetrics>> has = seriesOf(model, series);
    const std::vector<LevelPlan> plans = planLevels(model, startEpochNs, series, budgetBytes);

    const bool keepRaw = series * samples <= static_cast<std::int64_t>(kMaxRawSamples);
    out.rawDropped = !keepRaw;
    // Series by (metric, gpu): filled one GPU at a time, empty ones dropped at the end.
    std::vector<std::vector<TelemetrySummarySeries>> levels(plans.size(), std::vector<TelemetrySummarySeries>(kMetrics * static_cast<std::size_t>(gpus)));
    std::vector<TelemetryRawSeries> raw(keepRaw ? kMetrics * static_cast<std::size_t>(gpus) : 0);
    // GPUs are independent: each thread fills its own GPUs' slots, so the result is the same
    // whatever the number of threads.
    auto summarizeGpus = [&](std::int32_t from, std::int32_t stride) {
        std::vector<float> values(static_cast<std::size_t>(samples));
        std::vector<double> sums;
        std::vector<GpuReading> readings(static_cast<std::size_t>(samples));
        for (std::int32_t g = from; g < gpus; g += stride) {
            for (std::int64_t k = 0; k < samples; ++k) readings[static_cast<std::size_t>(k)] = model.reading(g, k);
            for (std::size_t m = 0; m < kMetrics; ++m) {
                if (!has[static_cast<std::size_t>(g)][m]) continue;
                for (std::int64_t k = 0; k < samples; ++k) values[static_cast<std::size_t>(k)] = value(readings[static_cast<std::size_t>(k)], m);
                const std::size_t at = m * static_cast<std::size_t>(gpus) + static_cast<std::size_t>(g);
                if (keepRaw) {
                    TelemetryRawSeries& r = raw[at];
                    r.metric = static_cast<std::int32_t>(m);
                    r.gpu = g;
                    r.times.resize(static_cast<std::size_t>(samples));
                    for (std::int64_t k = 0; k < samples; ++k) r.times[static_cast<std::size_t>(k)] = model.time(k);
                    r.values = values;
                }
                for (std::size_t l = 0; l < plans.size(); ++l) {
                    const LevelPlan& plan = plans[l];
                    TelemetrySummarySeries& target = levels[l][at];
                    target.metric = static_cast<std::int32_t>(m);
                    target.gpu = g;
                    target.buckets = plan.buckets;
                    const std::size_t n = plan.buckets.size();
                    target.min.resize(n);
                    target.mean.resize(n);
                    target.max.resize(n);
                    if (l == 0) summarizeSamples(values, plan, target, sums);
                    else summarizeFiner(levels[l - 1][at], plans[l - 1], plan, target, sums);
                    for (std::size_t j = 0; j < n; ++j) target.mean[j] = static_cast<float>(sums[j] / plan.counts[j]);
                }
            }
        }
    };
    const auto threads = static_cast<std::int32_t>(std::clamp<unsigned>(std::thread::hardware_concurrency(), 1, 8));
    if (threads == 1 || gpus < 64) {
        summarizeGpus(0, 1);
    } else {
        std::vector<std::thread> pool;
        for (std::int32_t t = 0; t < threads; ++t) pool.emplace_back(summarizeGpus, t, threads);
        for (std::thread& t : pool) t.join();
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
