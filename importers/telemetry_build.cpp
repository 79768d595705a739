#include "importers/telemetry_build.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace faultline {

std::vector<GpuLocator> telemetryLocators(const ImportedTelemetry& imported) {
    // A UUID names one GPU anywhere: learn its host and place from the GPUs that say both.
    std::map<std::string, GpuLocator> byUuid;
    for (std::size_t i = 0; i < imported.gpuCount(); ++i) {
        const TelemetryGpu& g = imported.gpu(static_cast<std::int32_t>(i));
        if (!g.uuid.empty() && !g.host.empty() && (!g.pciBusId.empty() || g.index >= 0)) byUuid.try_emplace(g.uuid, GpuLocator{g.host, g.pciBusId, g.index, -1});
    }
    std::vector<GpuLocator> out;
    out.reserve(imported.gpuCount());
    for (std::size_t i = 0; i < imported.gpuCount(); ++i) {
        const TelemetryGpu& g = imported.gpu(static_cast<std::int32_t>(i));
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

namespace {

// One imported series in its (metric, GPU) group of the run: 12 bytes a series, where a map
// of groups took a node and a vector each.
struct GroupedSeries {
    std::int32_t metric, gpu, series;
};

}  // namespace

Telemetry buildTelemetry(const ImportedTelemetry& imported, const std::function<std::int32_t(const GpuLocator&)>& gpuOf, EpochNs base,
                         std::vector<std::string>& warnings) {
    Telemetry out;
    if (imported.empty()) return out;
    // The run's GPU of each imported GPU, and the run's metric of each imported name (-1 until used).
    std::vector<std::int32_t> runGpu;
    runGpu.reserve(imported.gpuCount());
    for (const GpuLocator& where : telemetryLocators(imported)) runGpu.push_back(gpuOf(where));
    std::vector<std::int32_t> runMetric(imported.metricCount(), -1);
    std::vector<GroupedSeries> grouped;
    grouped.reserve(imported.series().size());
    std::size_t unplaced = 0;
    std::string firstUnplaced;
    for (std::size_t i = 0; i < imported.series().size(); ++i) {
        const ImportedSeries& s = imported.series()[i];
        const std::int32_t gpu = runGpu[static_cast<std::size_t>(s.gpu)];
        if (gpu < 0) {
            const TelemetryGpu& g = imported.gpu(s.gpu);
            if (unplaced++ == 0) firstUnplaced = g.host + (g.pciBusId.empty() ? "" : " " + g.pciBusId) + (g.index >= 0 ? " gpu " + std::to_string(g.index) : "");
            continue;
        }
        std::int32_t& m = runMetric[static_cast<std::size_t>(s.metric)];
        if (m < 0) {
            m = static_cast<std::int32_t>(out.metrics.size());
            out.metrics.emplace_back(imported.metric(s.metric));
        }
        grouped.push_back({m, gpu, static_cast<std::int32_t>(i)});
    }
    if (unplaced > 0)
        warnings.push_back(std::to_string(unplaced) + " telemetry series name GPUs the topology lacks (the first: " + firstUnplaced + "); they are left out");
    // Sorted by (metric, gpu), series in the order read within a group.
    std::sort(grouped.begin(), grouped.end(), [](const GroupedSeries& a, const GroupedSeries& b) {
        return std::tie(a.metric, a.gpu, a.series) < std::tie(b.metric, b.gpu, b.series);
    });
    // Each group as [begin, end) of `grouped`.
    std::vector<std::pair<std::size_t, std::size_t>> groups;
    for (std::size_t k = 0; k < grouped.size();) {
        std::size_t end = k + 1;
        while (end < grouped.size() && grouped[end].metric == grouped[k].metric && grouped[end].gpu == grouped[k].gpu) ++end;
        groups.emplace_back(k, end);
        k = end;
    }

    out.rawDropped = imported.rawDropped();
    out.epochNs = base;
    const std::size_t finest = imported.finestLevel();
    for (std::size_t l = finest; l < kTelemetryLevels; ++l) out.levels.push_back({kTelemetryBucketSizes[l], {}});
    std::vector<Nanos> bucketSizes;
    for (const TelemetryLevel& level : out.levels) bucketSizes.push_back(level.bucket);
    for (const auto& [begin, end] : groups) {
        if (out.rawDropped) break;
        TelemetryRawSeries raw{grouped[begin].metric, grouped[begin].gpu, {}, {}};
        std::vector<std::pair<EpochNs, float>> samples;
        for (std::size_t k = begin; k < end; ++k) {
            const std::vector<std::pair<EpochNs, float>> part = imported.rawSamples(imported.series()[static_cast<std::size_t>(grouped[k].series)]);
            samples.insert(samples.end(), part.begin(), part.end());
        }
        std::stable_sort(samples.begin(), samples.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        raw.times.reserve(samples.size());
        raw.values.reserve(samples.size());
        for (const auto& [t, v] : samples) {
            raw.times.push_back(t - base);
            raw.values.push_back(v);
        }
        raw.levelsFrom = firstMergingLevel(raw.times, bucketSizes, base);
        out.raw.push_back(std::move(raw));
    }

    // The finest level kept, merged across the files that hold a series, then each coarser
    // level rolled up from the one below it; kept from the first level where the raw
    // samples, where kept, no longer stand in for it.
    std::vector<TelemetryCell> cells;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        const auto [begin, end] = groups[g];
        const std::size_t keptFrom = finest + (out.raw.empty() ? 0 : static_cast<std::size_t>(out.raw[g].levelsFrom));
        if (keptFrom == kTelemetryLevels) continue;
        cells.clear();
        for (std::size_t k = begin; k < end; ++k) imported.appendCells(imported.series()[static_cast<std::size_t>(grouped[k].series)], cells);
        mergeCells(cells);
        for (std::size_t l = finest; l < kTelemetryLevels; ++l) {
            if (l > finest) cells = rollUpCells(cells, l - 1, l);
            if (l < keptFrom) continue;
            TelemetrySummarySeries s{grouped[begin].metric, grouped[begin].gpu, {}, {}, {}, {}};
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
