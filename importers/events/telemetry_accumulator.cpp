#include "importers/events/telemetry_accumulator.h"

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

std::string grouped(std::size_t n) {
    std::string digits = std::to_string(n), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

}  // namespace

TooManyTelemetrySeries::TooManyTelemetrySeries(std::size_t cap)
    : Error("more than " + grouped(cap) + " telemetry series (one per GPU and metric) in this import, the most one import holds; import fewer files "
            "at once, or raise the cap with --max-series N (each series takes memory while the import runs)") {}

std::int32_t ImportedTelemetry::series(const TelemetryGpu& gpu, std::string_view metric) {
    auto [it, added] = m_index.try_emplace(keyOf(gpu, metric), static_cast<std::int32_t>(m_series.size()));
    if (added && m_index.size() > m_maxSeries) throw TooManyTelemetrySeries(m_maxSeries);
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
    const Nanos size = kTelemetryBucketSizes[m_level];
    std::vector<TelemetryCell>& cells = s.cells;
    // Samples mostly come in time order: the open bucket is the last one (a multiply tells;
    // a division per sample would cost more than the parsing). Any other order makes a
    // second cell for the same bucket, merged when the run is built.
    if (!cells.empty() && static_cast<std::uint64_t>(time - cells.back().bucket * size) < static_cast<std::uint64_t>(size)) {
        TelemetryCell& c = cells.back();
        c.sum += value;
        c.min = std::min(c.min, v);
        c.max = std::max(c.max, v);
        ++c.count;
    } else {
        cells.push_back({static_cast<std::int32_t>(floorDiv(time, size)), 1, value, v, v});
        ++m_cells;
    }
    if (m_raw > kMaxRawSamples || m_cells > kMaxTelemetryCells) enforceBudgets();
}

void mergeCells(std::vector<TelemetryCell>& cells) {
    if (!std::is_sorted(cells.begin(), cells.end(), [](const TelemetryCell& a, const TelemetryCell& b) { return a.bucket < b.bucket; }))
        std::stable_sort(cells.begin(), cells.end(), [](const TelemetryCell& a, const TelemetryCell& b) { return a.bucket < b.bucket; });
    std::size_t out = 0;
    for (std::size_t k = 0; k < cells.size(); ++k) {
        if (out > 0 && cells[out - 1].bucket == cells[k].bucket) {
            TelemetryCell& m = cells[out - 1];
            m.sum += cells[k].sum;
            m.count += cells[k].count;
            m.min = std::min(m.min, cells[k].min);
            m.max = std::max(m.max, cells[k].max);
        } else {
            cells[out++] = cells[k];
        }
    }
    cells.resize(out);
}

std::vector<TelemetryCell> rollUpCells(const std::vector<TelemetryCell>& cells, std::size_t fromLevel, std::size_t toLevel) {
    const std::int64_t ratio = kTelemetryBucketSizes[toLevel] / kTelemetryBucketSizes[fromLevel];
    std::vector<TelemetryCell> out;
    for (const TelemetryCell& c : cells) {
        const auto bucket = static_cast<std::int32_t>(floorDiv(c.bucket, ratio));
        if (!out.empty() && out.back().bucket == bucket) {
            TelemetryCell& m = out.back();
            m.sum += c.sum;
            m.count += c.count;
            m.min = std::min(m.min, c.min);
            m.max = std::max(m.max, c.max);
        } else {
            out.push_back({bucket, c.count, c.sum, c.min, c.max});
        }
    }
    mergeCells(out);
    return out;
}

void ImportedTelemetry::rollUpTo(std::size_t level) {
    if (level <= m_level) return;
    m_cells = 0;
    for (ImportedSeries& s : m_series) {
        s.cells = rollUpCells(s.cells, m_level, level);
        m_cells += s.cells.size();
    }
    m_level = level;
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
    // The coarsest level is always kept: a day's cells of every series fit.
    while (m_cells > kMaxTelemetryCells && m_level + 1 < kTelemetryLevels) rollUpTo(m_level + 1);
}

void ImportedTelemetry::shrink() {
    for (ImportedSeries& s : m_series) {
        s.rawTimes.shrink_to_fit();
        s.rawValues.shrink_to_fit();
        s.cells.shrink_to_fit();
    }
}

void ImportedTelemetry::append(ImportedTelemetry&& other) {
    if (other.m_samples == 0 && other.m_series.empty()) return;
    if (m_samples == 0 || (other.m_samples > 0 && other.m_earliest < m_earliest)) m_earliest = other.m_earliest;
    if (m_samples == 0 || (other.m_samples > 0 && other.m_latest > m_latest)) m_latest = other.m_latest;
    m_samples += other.m_samples;
    m_rawDropped = m_rawDropped || other.m_rawDropped;
    const std::size_t level = std::max(m_level, other.m_level);
    rollUpTo(level);
    other.rollUpTo(level);
    for (ImportedSeries& s : other.m_series) {
        // The same GPU and metric in two files stays two series here; the run builder merges them.
        m_index.try_emplace(keyOf(s.gpu, s.metric), static_cast<std::int32_t>(m_series.size()));
        m_series.push_back(std::move(s));
    }
    m_maxSeries = other.m_maxSeries;
    if (m_index.size() > m_maxSeries) throw TooManyTelemetrySeries(m_maxSeries);
    m_raw = 0;
    m_cells = 0;
    for (ImportedSeries& s : m_series) {
        if (m_rawDropped) {
            std::vector<EpochNs>().swap(s.rawTimes);
            std::vector<float>().swap(s.rawValues);
        }
        m_raw += s.rawTimes.size();
        m_cells += s.cells.size();
    }
    other = ImportedTelemetry();
    enforceBudgets();
}

}  // namespace faultline
