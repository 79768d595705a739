#include "importers/telemetry_build.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace faultline {

std::vector<GpuLocator> telemetryLocators(const ImportedTelemetry& imported) {
    // A UUID names one GPU anywhere: learn its host and place from the series that say both.
    std::map<std::string, GpuLocator> byUuid;
    for (const ImportedSeries& s : imported.series()) {
        const TelemetryGpu& g = s.gpu;
        if (!g.uuid.empty() && !g.host.empty() && (!g.pciBusId.empty() || g.index >= 0)) byUuid.try_emplace(g.uuid, GpuLocator{g.host, g.pciBusId, g.index, -1});
    }
    std::vector<GpuLocator> out;
    out.reserve(imported.series().size());
    for (const ImportedSeries& s : imported.series()) {
        const TelemetryGpu& g = s.gpu;
        if (!g.uuid.empty()) {
            if (auto it = byUuid.find(g.uuid); it != byUuid.end()) {
                out.push_back(it->second);
                continue;
            }
        }
        out.push_back({g.host, g.pciBusId, g.index, -1});
    }
    return out;
}

Telemetry buildTelemetry(const ImportedTelemetry& imported, const std::function<std::int32_t(const GpuLocator&)>& gpuOf, EpochNs base,
                         std::vector<std::string>& warnings) {
    Telemetry out;
    if (imported.empty()) return out;
    const std::vector<GpuLocator> where = telemetryLocators(imported);
    std::map<std::string, std::int32_t> metricIndex;
    // (metric, gpu) -> the imported series that make it up.
    std::map<std::pair<std::int32_t, std::int32_t>, std::vector<std::size_t>> groups;
    std::size_t unplaced = 0;
    std::string firstUnplaced;
    for (std::size_t i = 0; i < imported.series().size(); ++i) {
        const ImportedSeries& s = imported.series()[i];
        const std::int32_t gpu = gpuOf(where[i]);
        if (gpu < 0) {
            if (unplaced++ == 0) firstUnplaced = s.gpu.host + (s.gpu.pciBusId.empty() ? "" : " " + s.gpu.pciBusId) + (s.gpu.index >= 0 ? " gpu " + std::to_string(s.gpu.index) : "");
            continue;
        }
        auto [m, added] = metricIndex.try_emplace(s.metric, static_cast<std::int32_t>(out.metrics.size()));
        if (added) out.metrics.push_back(s.metric);
        groups[{m->second, gpu}].push_back(i);
    }
    if (unplaced > 0)
        warnings.push_back(std::to_string(unplaced) + " telemetry series name GPUs the topology lacks (the first: " + firstUnplaced + "); they are left out");

    out.rawDropped = imported.rawDropped();
    for (const auto& [key, parts] : groups) {
        if (out.rawDropped) break;
        TelemetryRawSeries raw{key.first, key.second, {}, {}};
        std::vector<std::pair<EpochNs, float>> samples;
        for (std::size_t i : parts) {
            const ImportedSeries& s = imported.series()[i];
            for (std::size_t k = 0; k < s.rawTimes.size(); ++k) samples.emplace_back(s.rawTimes[k], s.rawValues[k]);
        }
        std::stable_sort(samples.begin(), samples.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        raw.times.reserve(samples.size());
        raw.values.reserve(samples.size());
        for (const auto& [t, v] : samples) {
            raw.times.push_back(t - base);
            raw.values.push_back(v);
        }
        out.raw.push_back(std::move(raw));
    }

    // The finest level kept, merged across the files that hold a series, then each coarser
    // level rolled up from the one below it.
    const std::size_t finest = imported.finestLevel();
    for (std::size_t l = finest; l < kTelemetryLevels; ++l) out.levels.push_back({kTelemetryBucketSizes[l], {}});
    std::vector<TelemetryCell> cells;
    for (const auto& [key, parts] : groups) {
        cells.clear();
        for (std::size_t i : parts) {
            const auto& c = imported.series()[i].cells;
            cells.insert(cells.end(), c.begin(), c.end());
        }
        mergeCells(cells);
        for (std::size_t l = finest; l < kTelemetryLevels; ++l) {
            if (l > finest) cells = rollUpCells(cells, l - 1, l);
            TelemetrySummarySeries s{key.first, key.second, {}, {}, {}, {}};
            s.buckets.reserve(cells.size());
            s.min.reserve(cells.size());
            s.mean.reserve(cells.size());
            s.max.reserve(cells.size());
            for (const TelemetryCell& c : cells) {
                s.buckets.push_back(c.bucket);
                s.min.push_back(c.min);
                s.mean.push_back(static_cast<float>(c.sum / c.count));
                s.max.push_back(c.max);
            }
            out.levels[l - finest].series.push_back(std::move(s));
        }
    }
    return out;
}

}  // namespace faultline
