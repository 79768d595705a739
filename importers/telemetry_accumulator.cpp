#include "telemetry_accumulator.h"

#include <algorithm>

namespace faultline {

namespace {

std::int64_t floorDiv(std::int64_t a, std::int64_t b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }

std::string keyOf(const TelemetryGpu& gpu, std::string_view metric) {
    std::string key;
    key.reserve(gpu.host.size() + gpu.pciBusId.size() + gpu.uuid.size() + metric.size() + 16);
    key.append(gpu.host).append(1, '\x1f').append(gpu.pciBusId).append(1, '\x1f').append(gpu.uuid).append(1, '\x1f');
    key.append(std::to_string(gpu.index)).append(1, '\x1f').append(metric);
    return key;
}

}  // namespace

std::int32_t ImportedTelemetry::series(const TelemetryGpu& gpu, std::string_view metric) {
    auto [it, added] = m_index.try_emplace(keyOf(gpu, metric), static_cast<std::int32_t>(m_series.size()));
    if (added) {
        ImportedSeries s;
        s.gpu = gpu;
        s.metric = std::string(metric);
        m_series.push_back(std::move(s));
    }
    return it->second;
}

void ImportedTelemetry::add(std::int32_t id, EpochNs time, double value) {
    ImportedSeries& s = m_series[static_cast<std::size_t>(id)];
    const auto v = static_cast<float>(value);
    ++m_samples;
    if (m_samples == 1 || time < m_earliest) m_earliest = time;
    if (m_samples == 1 || time > m_latest) m_latest = time;
    if (!m_rawDropped) {
        s.rawTimes.push_back(time);
        s.rawValues.push_back(v);
        ++m_raw;
    }
    for (std::size_t l = 0; l < kTelemetryLevels; ++l) {
        if (m_levelDropped[l]) continue;
        const std::int64_t bucket = floorDiv(time, kTelemetryBucketSizes[l]);
        std::vector<TelemetryCell>& cells = s.cells[l];
        // Samples mostly come in time order: the open bucket is the last one. Any other
        // order makes a second cell for the same bucket, merged when the run is built.
        if (!cells.empty() && cells.back().bucket == bucket) {
            TelemetryCell& c = cells.back();
            c.sum += value;
            c.min = std::min(c.min, v);
            c.max = std::max(c.max, v);
            ++c.count;
        } else {
            cells.push_back({bucket, value, v, v, 1});
            ++m_cells;
        }
    }
    if (m_raw > kMaxRawSamples || m_cells > kMaxTelemetryCells) enforceBudgets();
}

void ImportedTelemetry::enforceBudgets() {
    if (!m_rawDropped && m_raw > kMaxRawSamples) {
        m_rawDropped = true;
        for (ImportedSeries& s : m_series) {
            std::vector<EpochNs>().swap(s.rawTimes);
            std::vector<float>().swap(s.rawValues);
        }
        m_raw = 0;
    }
    // The coarsest level is never dropped: a day's cells of every series always fit.
    for (std::size_t l = 0; l + 1 < kTelemetryLevels && m_cells > kMaxTelemetryCells; ++l) {
        if (m_levelDropped[l]) continue;
        m_levelDropped[l] = true;
        for (ImportedSeries& s : m_series) {
            m_cells -= s.cells[l].size();
            std::vector<TelemetryCell>().swap(s.cells[l]);
        }
    }
}

void ImportedTelemetry::append(ImportedTelemetry&& other) {
    if (other.m_samples == 0 && other.m_series.empty()) return;
    if (m_samples == 0 || (other.m_samples > 0 && other.m_earliest < m_earliest)) m_earliest = other.m_earliest;
    if (m_samples == 0 || (other.m_samples > 0 && other.m_latest > m_latest)) m_latest = other.m_latest;
    m_samples += other.m_samples;
    m_rawDropped = m_rawDropped || other.m_rawDropped;
    for (std::size_t l = 0; l < kTelemetryLevels; ++l) m_levelDropped[l] = m_levelDropped[l] || other.m_levelDropped[l];
    for (ImportedSeries& s : other.m_series) {
        // The same GPU and metric in two files stays two series here; the run builder merges them.
        const auto id = static_cast<std::int32_t>(m_series.size());
        m_index.try_emplace(keyOf(s.gpu, s.metric), id);
        m_series.push_back(std::move(s));
    }
    m_raw = 0;
    m_cells = 0;
    for (ImportedSeries& s : m_series) {
        if (m_rawDropped) {
            std::vector<EpochNs>().swap(s.rawTimes);
            std::vector<float>().swap(s.rawValues);
        }
        m_raw += s.rawTimes.size();
        for (std::size_t l = 0; l < kTelemetryLevels; ++l) {
            if (m_levelDropped[l]) std::vector<TelemetryCell>().swap(s.cells[l]);
            m_cells += s.cells[l].size();
        }
    }
    other = ImportedTelemetry();
    enforceBudgets();
}

}  // namespace faultline
