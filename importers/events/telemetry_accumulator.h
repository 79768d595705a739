#pragma once
// What the telemetry importers read, before it is placed on the topology: series of samples
// named the way the file names their GPU, summarised as they stream in. Memory grows with
// what is kept (capped raw samples and summary cells), never with the file's size.
#include "importers/events/epoch.h"
#include "importers/events/string_interner.h"
#include "model/error.h"
#include "model/telemetry.h"

#include <array>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace faultline {


// A GPU as a telemetry file names it: any of host + PCI bus id, host + index, or UUID.
struct TelemetryGpu {
    std::string host;
    std::string pciBusId;  // normalised "0000:53:00"; empty when unknown
    std::string uuid;      // "GPU-ca1b8386-..."; empty when unknown
    std::int32_t index = -1;
};

// One bucket of one series being summed up; epoch-aligned (bucket * size). 24 bytes: a
// bucket number fits 32 bits, as the finest bucket is 10 s and no time passes 2262.
struct TelemetryCell {
    std::int32_t bucket = 0;
    std::uint32_t count = 0;
    double sum = 0;
    float min = 0, max = 0;
};

// Cells of one level rolled up into the next coarser one (buckets nest: each size divides
// the next), sorted by bucket, cells of one bucket merged.
std::vector<TelemetryCell> rollUpCells(const std::vector<TelemetryCell>& cells, std::size_t fromLevel, std::size_t toLevel);
// Sorts by bucket and merges cells of one bucket (what several files, or samples out of
// time order, leave).
void mergeCells(std::vector<TelemetryCell>& cells);

inline constexpr std::size_t kTelemetryLevels = kTelemetryBucketSizes.size();

// One series as the import holds it: ids into the import's tables of GPUs and metric names,
// and where its samples and cells lie in the import's shared arenas (linked, each pointing to
// the next of its series). 32 bytes: a million one-sample series take no heap block each.
struct ImportedSeries {
    std::int32_t gpu = 0;     // ImportedTelemetry::gpu(id)
    std::int32_t metric = 0;  // ImportedTelemetry::metric(id)
    std::int32_t firstRaw = -1, lastRaw = -1;
    std::int32_t firstCell = -1, lastCell = -1;  // at the finest level kept; coarser ones are rolled up at the end
    std::uint32_t rawCount = 0, cellCount = 0;
};
static_assert(sizeof(ImportedSeries) == 32);

// Summary cells an import keeps in memory (28 bytes each with their link: 168 MB). Only the finest level
// kept is summed while reading (one cell touched per sample); past the budget it is rolled
// up into the next, so the coarse levels always survive and memory stays bounded.
inline constexpr std::size_t kMaxTelemetryCells = 6'000'000;

// Distinct series (a GPU's metric) one import holds at most unless told otherwise
// (--max-series): 16,384 GPUs x 30 DCGM fields fit; a scrape of a million made-up metric
// names is refused before it takes gigabytes.
inline constexpr std::size_t kDefaultMaxTelemetrySeries = 500'000;

// Thrown where an import would hold more series than its cap; the importer names the file.
class TooManyTelemetrySeries : public Error {
public:
    explicit TooManyTelemetrySeries(std::size_t cap);
};

class ImportedTelemetry {
public:
    // At most `cap` distinct series; the one past it throws TooManyTelemetrySeries.
    void setMaxSeries(std::size_t cap) { m_maxSeries = cap; }
    // The series of `metric` on `gpu`, made on first use.
    std::int32_t series(const TelemetryGpu& gpu, std::string_view metric);
    void add(std::int32_t series, EpochNs time, double value);
    // Another file's telemetry (files are read apart and merged in input order).
    void append(ImportedTelemetry&& other);

    const std::vector<ImportedSeries>& series() const { return m_series; }
    // The GPUs and metric names series name, each held once.
    const TelemetryGpu& gpu(std::int32_t id) const { return m_gpus[static_cast<std::size_t>(id)]; }
    std::size_t gpuCount() const { return m_gpus.size(); }
    std::string_view metric(std::int32_t id) const { return m_metrics.at(id); }
    std::size_t metricCount() const { return m_metrics.size(); }
    // A series' raw samples in the order they were read (none once dropped), and its cells at
    // the finest level kept, in the order they were opened.
    std::vector<std::pair<EpochNs, float>> rawSamples(const ImportedSeries& s) const;
    void appendCells(const ImportedSeries& s, std::vector<TelemetryCell>& out) const;
    bool empty() const { return m_series.empty(); }
    bool rawDropped() const { return m_rawDropped; }
    bool levelKept(std::size_t level) const { return level >= m_level; }
    std::size_t finestLevel() const { return m_level; }
    // Gives back what vectors grew beyond their contents, once a file is read.
    void shrink();
    std::int64_t samples() const { return m_samples; }
    // Bytes held for the series, their names and samples (what an import's memory grows with).
    std::size_t bytes() const;
    EpochNs earliest() const { return m_earliest; }
    EpochNs latest() const { return m_latest; }

private:
    struct RawSample {
        EpochNs time = 0;
        float value = 0;
        std::int32_t next = -1;
    };
    // A cell and its link in 28 bytes (4-byte aligned): the link costs 4 bytes a cell, not 8.
#pragma pack(push, 4)
    struct Cell {
        double sum = 0;
        std::int32_t bucket = 0;
        std::uint32_t count = 0;
        float min = 0, max = 0;
        std::int32_t next = -1;

        TelemetryCell cell() const { return {bucket, count, sum, min, max}; }
    };
#pragma pack(pop)
    static_assert(sizeof(Cell) == 28);

    void enforceBudgets();
    void rollUpTo(std::size_t level);
    void dropRaw();
    std::int32_t gpuId(const TelemetryGpu& gpu);
    // The series of (gpu, metric) ids, or where it would go in m_slots.
    std::size_t slotOf(std::int32_t gpu, std::int32_t metric) const;
    void growSlots();
    void pushCell(ImportedSeries& s, const TelemetryCell& c);

    std::vector<ImportedSeries> m_series;
    std::vector<TelemetryGpu> m_gpus;
    StringInterner m_gpuKeys;  // one per m_gpus entry
    StringInterner m_metrics;
    std::vector<std::int32_t> m_slots;  // (gpu, metric) -> the first series of it; open addressing, -1 empty
    std::size_t m_distinct = 0;         // (gpu, metric) pairs held
    std::deque<RawSample> m_raw;        // every series' raw samples; a deque grows without copying
    std::deque<Cell> m_cellArena;
    std::int64_t m_samples = 0;
    bool m_rawDropped = false;
    std::size_t m_level = 0;
    EpochNs m_earliest = 0, m_latest = 0;
    std::size_t m_maxSeries = kDefaultMaxTelemetrySeries;
};

}  // namespace faultline
