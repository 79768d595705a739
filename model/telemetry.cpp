#include "telemetry.h"

namespace faultline {

namespace {

// Series sorted by (metric, gpu), compared by their metric alone.
struct MetricOrder {
    template <typename Series>
    bool operator()(const Series& s, std::int32_t metric) const { return s.metric < metric; }
    template <typename Series>
    bool operator()(std::int32_t metric, const Series& s) const { return metric < s.metric; }
};

template <typename Series>
std::span<const Series> seriesOfMetric(const std::vector<Series>& all, std::int32_t metric) {
    const auto [first, last] = std::equal_range(all.begin(), all.end(), metric, MetricOrder{});
    return {first, last};
}

}  // namespace

TelemetrySummarySeries summaryOfRaw(const TelemetryRawSeries& raw, Nanos bucket, std::int64_t epochNs) {
    TelemetrySummarySeries out{raw.metric, raw.gpu, {}, raw.values, raw.values, raw.values};
    out.buckets.reserve(raw.times.size());
    for (Nanos t : raw.times) out.buckets.push_back(floorDiv(t + epochNs, bucket));
    return out;
}

std::int32_t firstMergingLevel(const std::vector<Nanos>& times, const std::vector<Nanos>& buckets, std::int64_t epochNs) {
    for (std::size_t l = 0; l < buckets.size(); ++l)
        for (std::size_t k = 1; k < times.size(); ++k)
            if (floorDiv(times[k] + epochNs, buckets[l]) == floorDiv(times[k - 1] + epochNs, buckets[l])) return static_cast<std::int32_t>(l);
    return static_cast<std::int32_t>(buckets.size());
}

std::vector<TelemetrySummarySeries> withStandIns(std::span<const TelemetrySummarySeries> stored, std::span<const TelemetryRawSeries> raw, std::size_t index, Nanos bucket,
                                                 std::int64_t epochNs) {
    std::vector<TelemetrySummarySeries> out;
    out.reserve(stored.size());
    auto s = stored.begin();
    for (const TelemetryRawSeries& r : raw) {
        if (static_cast<std::size_t>(r.levelsFrom) <= index) continue;
        for (; s != stored.end() && s->gpu < r.gpu; ++s) out.push_back(*s);
        if (s != stored.end() && s->gpu == r.gpu) continue;  // kept at the level after all: what is kept is read
        out.push_back(summaryOfRaw(r, bucket, epochNs));
    }
    out.insert(out.end(), s, stored.end());
    return out;
}

std::optional<std::int32_t> Telemetry::metricIndex(std::string_view name) const {
    for (std::size_t i = 0; i < metrics.size(); ++i)
        if (metrics[i] == name) return static_cast<std::int32_t>(i);
    return std::nullopt;
}

std::vector<TelemetrySummarySeries> Telemetry::levelSeries(std::size_t index, std::int32_t metric, const std::vector<std::int32_t>& gpus) const {
    if (store) return store->levelSeries(index, metric, gpus);
    std::vector<TelemetrySummarySeries> out;
    for (std::int32_t gpu : gpus) {
        std::vector<TelemetrySummarySeries> kept = pickSeries(levels[index].series, metric, {gpu});
        if (!kept.empty()) {
            out.push_back(std::move(kept.front()));
            continue;
        }
        const std::vector<TelemetryRawSeries> one = pickSeries(raw, metric, {gpu});
        if (!one.empty() && static_cast<std::size_t>(one.front().levelsFrom) > index) out.push_back(summaryOfRaw(one.front(), levels[index].bucket, epochNs));
    }
    return out;
}

std::vector<TelemetryRawSeries> Telemetry::rawSeriesOf(std::int32_t metric, const std::vector<std::int32_t>& gpus) const {
    return store ? store->rawSeries(metric, gpus) : pickSeries(raw, metric, gpus);
}

std::span<const TelemetrySummarySeries> Telemetry::metricSeries(std::size_t index, std::int32_t metric, std::vector<TelemetrySummarySeries>& read) const {
    if (store) {
        read = store->metricSeries(index, metric);
        return read;
    }
    const std::span<const TelemetrySummarySeries> stored = seriesOfMetric(levels[index].series, metric);
    const std::span<const TelemetryRawSeries> standIns = seriesOfMetric(raw, metric);
    if (std::none_of(standIns.begin(), standIns.end(), [&](const TelemetryRawSeries& r) { return static_cast<std::size_t>(r.levelsFrom) > index; })) return stored;
    read = withStandIns(stored, standIns, index, levels[index].bucket, epochNs);
    return read;
}

std::optional<std::size_t> telemetryLevelIndexFor(const Telemetry& telemetry, Nanos span, int points) {
    if (telemetry.levels.empty()) return std::nullopt;
    const Nanos wanted = points > 0 ? span / points : span;
    for (std::size_t l = 0; l < telemetry.levels.size(); ++l)
        if (telemetry.levels[l].bucket >= wanted) return l;
    return telemetry.levels.size() - 1;
}

MetricInfo metricInfo(std::string_view name) {
    static constexpr MetricInfo kKnown[] = {
        {"DCGM_FI_DEV_POWER_USAGE", "Power", "W"},
        {"DCGM_FI_DEV_GPU_TEMP", "GPU temperature", "°C"},
        {"DCGM_FI_DEV_MEMORY_TEMP", "Memory temperature", "°C"},
        {"DCGM_FI_DEV_SM_CLOCK", "SM clock", "MHz"},
        {"DCGM_FI_DEV_MEM_CLOCK", "Memory clock", "MHz"},
        {"DCGM_FI_DEV_GPU_UTIL", "GPU utilisation", "%"},
        {"DCGM_FI_DEV_MEM_COPY_UTIL", "Memory copy utilisation", "%"},
        {"DCGM_FI_DEV_FB_USED", "Frame buffer used", "MiB"},
        {"DCGM_FI_DEV_FB_FREE", "Frame buffer free", "MiB"},
        {"DCGM_FI_DEV_CLOCK_THROTTLE_REASONS", "Clock throttle reasons", "bitmask"},
        {"DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", "Energy since boot", "mJ"},
        {"DCGM_FI_DEV_XID_ERRORS", "Last Xid", ""},
        {"DCGM_FI_DEV_PCIE_REPLAY_COUNTER", "PCIe replays", ""},
        {"DCGM_FI_DEV_ECC_SBE_VOL_TOTAL", "Correctable ECC errors (volatile)", ""},
        {"DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", "Uncorrectable ECC errors (volatile)", ""},
        {"DCGM_FI_DEV_ECC_SBE_AGG_TOTAL", "Correctable ECC errors (aggregate)", ""},
        {"DCGM_FI_DEV_ECC_DBE_AGG_TOTAL", "Uncorrectable ECC errors (aggregate)", ""},
        {"DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL", "NVLink CRC flit errors", ""},
        {"DCGM_FI_DEV_NVLINK_CRC_DATA_ERROR_COUNT_TOTAL", "NVLink CRC data errors", ""},
        {"DCGM_FI_DEV_NVLINK_REPLAY_ERROR_COUNT_TOTAL", "NVLink replay errors", ""},
        {"DCGM_FI_DEV_NVLINK_RECOVERY_ERROR_COUNT_TOTAL", "NVLink recovery errors", ""},
        {"DCGM_FI_PROF_GR_ENGINE_ACTIVE", "Graphics engine active", "ratio"},
        {"DCGM_FI_PROF_SM_ACTIVE", "SM active", "ratio"},
        {"DCGM_FI_PROF_SM_OCCUPANCY", "SM occupancy", "ratio"},
        {"DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", "Tensor pipe active", "ratio"},
        {"DCGM_FI_PROF_DRAM_ACTIVE", "DRAM active", "ratio"},
        {"DCGM_FI_PROF_PCIE_TX_BYTES", "PCIe sent", "B/s"},
        {"DCGM_FI_PROF_PCIE_RX_BYTES", "PCIe received", "B/s"},
        {"DCGM_FI_PROF_NVLINK_TX_BYTES", "NVLink sent", "B/s"},
        {"DCGM_FI_PROF_NVLINK_RX_BYTES", "NVLink received", "B/s"},
    };
    for (const MetricInfo& m : kKnown)
        if (m.name == name) return m;
    return {name, name, ""};
}

}  // namespace faultline
