#pragma once
// What the telemetry importers read, before it is placed on the topology: series of samples
// named the way the file names their GPU, summarised as they stream in. Memory grows with
// what is kept (capped raw samples and summary cells), never with the file's size.
#include "model/telemetry.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace faultline {

using EpochNs = std::int64_t;

// A GPU as a telemetry file names it: any of host + PCI bus id, host + index, or UUID.
struct TelemetryGpu {
    std::string host;
    std::string pciBusId;  // normalised "0000:53:00"; empty when unknown
    std::string uuid;      // "GPU-ca1b8386-..."; empty when unknown
    std::int32_t index = -1;
};

// One bucket of one series being summed up; epoch-aligned (bucket * size).
struct TelemetryCell {
    std::int64_t bucket = 0;
    double sum = 0;
    float min = 0, max = 0;
    std::uint32_t count = 0;
};

inline constexpr std::size_t kTelemetryLevels = kTelemetryBucketSizes.size();

struct ImportedSeries {
    TelemetryGpu gpu;
    std::string metric;
    std::vector<EpochNs> rawTimes;
    std::vector<float> rawValues;
    std::array<std::vector<TelemetryCell>, kTelemetryLevels> cells;
};

// Summary cells an import keeps in memory (32 bytes each: 192 MB). Past it the finest level
// still kept is dropped, so the coarse levels always survive and memory stays bounded.
inline constexpr std::size_t kMaxTelemetryCells = 6'000'000;

class ImportedTelemetry {
public:
    // The series of `metric` on `gpu`, made on first use.
    std::int32_t series(const TelemetryGpu& gpu, std::string_view metric);
    void add(std::int32_t series, EpochNs time, double value);
    // Another file's telemetry (files are read apart and merged in input order).
    void append(ImportedTelemetry&& other);

    const std::vector<ImportedSeries>& series() const { return m_series; }
    bool empty() const { return m_series.empty(); }
    bool rawDropped() const { return m_rawDropped; }
    bool levelKept(std::size_t level) const { return !m_levelDropped[level]; }
    std::int64_t samples() const { return m_samples; }
    EpochNs earliest() const { return m_earliest; }
    EpochNs latest() const { return m_latest; }

private:
    void enforceBudgets();

    std::vector<ImportedSeries> m_series;
    std::unordered_map<std::string, std::int32_t> m_index;
    std::int64_t m_samples = 0;
    std::size_t m_raw = 0;
    bool m_rawDropped = false;
    std::size_t m_cells = 0;
    std::array<bool, kTelemetryLevels> m_levelDropped{};
    EpochNs m_earliest = 0, m_latest = 0;
};

}  // namespace faultline
