#pragma once
// What the telemetry importers read, before it is placed on the topology: series of samples
// named the way the file names their GPU, summarised as they stream in. Memory grows with
// what is kept (capped raw samples and summary cells), never with the file's size.
#include "importers/events/epoch.h"
#include "model/error.h"
#include "model/telemetry.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
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

struct ImportedSeries {
    TelemetryGpu gpu;
    std::string metric;
    std::vector<EpochNs> rawTimes;
    std::vector<float> rawValues;
    std::vector<TelemetryCell> cells;  // at the finest level kept; coarser ones are rolled up at the end
};

// Summary cells an import keeps in memory (24 bytes each: 144 MB). Only the finest level
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
    bool empty() const { return m_series.empty(); }
    bool rawDropped() const { return m_rawDropped; }
    bool levelKept(std::size_t level) const { return level >= m_level; }
    std::size_t finestLevel() const { return m_level; }
    // Gives back what vectors grew beyond their contents, once a file is read.
    void shrink();
    std::int64_t samples() const { return m_samples; }
    EpochNs earliest() const { return m_earliest; }
    EpochNs latest() const { return m_latest; }

private:
    void enforceBudgets();
    void rollUpTo(std::size_t level);

    std::vector<ImportedSeries> m_series;
    std::unordered_map<std::string, std::int32_t> m_index;
    std::int64_t m_samples = 0;
    std::size_t m_raw = 0;
    bool m_rawDropped = false;
    std::size_t m_cells = 0;
    std::size_t m_level = 0;
    EpochNs m_earliest = 0, m_latest = 0;
    std::size_t m_maxSeries = kDefaultMaxTelemetrySeries;
};

}  // namespace faultline
