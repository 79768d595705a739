#include "importers/events/telemetry_accumulator.h"

#include <algorithm>
#include <limits>

namespace faultline {

namespace {

// A GPU's identity as one string: the key of the import's table of GPUs.
std::string keyOf(const TelemetryGpu& gpu) {
    std::string key;
    key.reserve(gpu.host.size() + gpu.pciBusId.size() + gpu.uuid.size() + 16);
    key.append(gpu.host).append(1, '\x1f').append(gpu.pciBusId).append(1, '\x1f').append(gpu.uuid).append(1, '\x1f');
    key.append(std::to_string(gpu.index));
    return key;
}

std::size_t hashOf(std::int32_t gpu, std::int32_t metric) {
    const std::uint64_t k = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(gpu)) << 32) | static_cast<std::uint32_t>(metric);
    return static_cast<std::size_t>((k ^ (k >> 29)) * 0x9E3779B97F4A7C15ull >> 16);
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

std::int32_t ImportedTelemetry::gpuId(const TelemetryGpu& gpu) {
    bool added = false;
    const std::int32_t id = m_gpuKeys.intern(keyOf(gpu), &added);
    if (added) m_gpus.push_back(gpu);
    return id;
}

std::size_t ImportedTelemetry::slotOf(std::int32_t gpu, std::int32_t metric) const {
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t slot = hashOf(gpu, metric) & mask;; slot = (slot + 1) & mask) {
        const std::int32_t id = m_slots[slot];
        if (id < 0) return slot;
        const ImportedSeries& s = m_series[static_cast<std::size_t>(id)];
        if (s.gpu == gpu && s.metric == metric) return slot;
    }
}

void ImportedTelemetry::growSlots() {
    std::vector<std::int32_t> slots(m_slots.empty() ? 64 : m_slots.size() * 2, -1);
    m_slots.swap(slots);
    for (const std::int32_t id : slots)
        if (id >= 0) {
            const ImportedSeries& s = m_series[static_cast<std::size_t>(id)];
            m_slots[slotOf(s.gpu, s.metric)] = id;
        }
}

std::int32_t ImportedTelemetry::series(const TelemetryGpu& gpu, std::string_view metric) {
    const std::int32_t g = gpuId(gpu);
    const std::int32_t m = m_metrics.intern(metric);
    if ((m_distinct + 1) * 2 > m_slots.size()) growSlots();
    const std::size_t slot = slotOf(g, m);
    if (m_slots[slot] >= 0) return m_slots[slot];
    if (m_distinct + 1 > m_maxSeries) throw TooManyTelemetrySeries(m_maxSeries);
    ImportedSeries s;
    s.gpu = g;
    s.metric = m;
    m_series.push_back(s);
    ++m_distinct;
    return m_slots[slot] = static_cast<std::int32_t>(m_series.size() - 1);
}

void ImportedTelemetry::pushCell(ImportedSeries& s, const TelemetryCell& c) {
    // Links are 32-bit: past 2^31 cells (48 GB) an import is refused, not misread.
    if (m_cellArena.size() >= static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max())) throw Error("more than 2,147,483,647 telemetry summary cells in this import: import fewer files at once");
    const auto at = static_cast<std::int32_t>(m_cellArena.size());
    m_cellArena.push_back({c.sum, c.bucket, c.count, c.min, c.max, -1});
    if (s.lastCell >= 0) m_cellArena[static_cast<std::size_t>(s.lastCell)].next = at;
    else s.firstCell = at;
    s.lastCell = at;
    ++s.cellCount;
}

void ImportedTelemetry::add(std::int32_t id, EpochNs time, double value) {
    ImportedSeries& s = m_series[static_cast<std::size_t>(id)];
    const auto v = static_cast<float>(value);
    ++m_samples;
    if (m_samples == 1 || time < m_earliest) m_earliest = time;
    if (m_samples == 1 || time > m_latest) m_latest = time;
    if (!m_rawDropped) {
        const auto at = static_cast<std::int32_t>(m_raw.size());
        m_raw.push_back({time, v, -1});
        if (s.lastRaw >= 0) m_raw[static_cast<std::size_t>(s.lastRaw)].next = at;
        else s.firstRaw = at;
        s.lastRaw = at;
        ++s.rawCount;
    }
    const Nanos size = kTelemetryBucketSizes[m_level];
    // Samples mostly come in time order: the open bucket is the last one (a multiply tells;
    // a division per sample would cost more than the parsing). Any other order makes a
    // second cell for the same bucket, merged when the run is built.
    Cell* open = s.lastCell >= 0 ? &m_cellArena[static_cast<std::size_t>(s.lastCell)] : nullptr;
    if (open && static_cast<std::uint64_t>(time - open->bucket * size) < static_cast<std::uint64_t>(size)) {
        open->sum += value;
        open->min = std::min(open->min, v);
        open->max = std::max(open->max, v);
        ++open->count;
    } else {
        pushCell(s, {static_cast<std::int32_t>(floorDiv(time, size)), 1, value, v, v});
    }
    if (m_raw.size() > kMaxRawSamples || m_cellArena.size() > kMaxTelemetryCells) enforceBudgets();
}

std::vector<std::pair<EpochNs, float>> ImportedTelemetry::rawSamples(const ImportedSeries& s) const {
    std::vector<std::pair<EpochNs, float>> out;
    out.reserve(s.rawCount);
    for (std::int32_t k = s.firstRaw; k >= 0; k = m_raw[static_cast<std::size_t>(k)].next) out.emplace_back(m_raw[static_cast<std::size_t>(k)].time, m_raw[static_cast<std::size_t>(k)].value);
    return out;
}

void ImportedTelemetry::appendCells(const ImportedSeries& s, std::vector<TelemetryCell>& out) const {
    for (std::int32_t k = s.firstCell; k >= 0; k = m_cellArena[static_cast<std::size_t>(k)].next) out.push_back(m_cellArena[static_cast<std::size_t>(k)].cell());
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
    std::deque<Cell> old;
    old.swap(m_cellArena);
    std::vector<TelemetryCell> cells;
    for (ImportedSeries& s : m_series) {
        cells.clear();
        for (std::int32_t k = s.firstCell; k >= 0; k = old[static_cast<std::size_t>(k)].next) cells.push_back(old[static_cast<std::size_t>(k)].cell());
        s.firstCell = s.lastCell = -1;
        s.cellCount = 0;
        for (const TelemetryCell& c : rollUpCells(cells, m_level, level)) pushCell(s, c);
    }
    m_level = level;
}

void ImportedTelemetry::dropRaw() {
    m_rawDropped = true;
    std::deque<RawSample>().swap(m_raw);
    for (ImportedSeries& s : m_series) {
        s.firstRaw = s.lastRaw = -1;
        s.rawCount = 0;
    }
}

void ImportedTelemetry::enforceBudgets() {
    if (!m_rawDropped && m_raw.size() > kMaxRawSamples) dropRaw();
    // The coarsest level is always kept: a day's cells of every series fit.
    while (m_cellArena.size() > kMaxTelemetryCells && m_level + 1 < kTelemetryLevels) rollUpTo(m_level + 1);
}

void ImportedTelemetry::shrink() {
    m_series.shrink_to_fit();
    m_raw.shrink_to_fit();
    m_cellArena.shrink_to_fit();
}

std::size_t ImportedTelemetry::bytes() const {
    std::size_t gpus = m_gpus.capacity() * sizeof(TelemetryGpu);
    for (const TelemetryGpu& g : m_gpus)
        for (const std::string* text : {&g.host, &g.pciBusId, &g.uuid})
            if (text->capacity() > 15) gpus += text->capacity() + 1;  // past the string's own buffer
    return m_series.capacity() * sizeof(ImportedSeries) + gpus + m_gpuKeys.bytes() + m_metrics.bytes() + m_slots.capacity() * sizeof(std::int32_t) +
           m_raw.size() * sizeof(RawSample) + m_cellArena.size() * sizeof(Cell);
}

void ImportedTelemetry::append(ImportedTelemetry&& other) {
    if (other.m_samples == 0 && other.m_series.empty()) return;
    if (m_series.empty() && m_samples == 0) {
        const std::size_t cap = other.m_maxSeries;
        *this = std::move(other);
        other = ImportedTelemetry();
        m_maxSeries = cap;
        if (m_distinct > m_maxSeries) throw TooManyTelemetrySeries(m_maxSeries);
        enforceBudgets();
        return;
    }
    if (m_samples == 0 || (other.m_samples > 0 && other.m_earliest < m_earliest)) m_earliest = other.m_earliest;
    if (m_samples == 0 || (other.m_samples > 0 && other.m_latest > m_latest)) m_latest = other.m_latest;
    m_samples += other.m_samples;
    if (other.m_rawDropped && !m_rawDropped) dropRaw();
    const std::size_t level = std::max(m_level, other.m_level);
    rollUpTo(level);
    other.rollUpTo(level);
    m_maxSeries = other.m_maxSeries;
    for (const ImportedSeries& theirs : other.m_series) {
        // The same GPU and metric in two files stays two series here; the run builder merges
        // them. series() finds the first.
        ImportedSeries s;
        s.gpu = gpuId(other.m_gpus[static_cast<std::size_t>(theirs.gpu)]);
        s.metric = m_metrics.intern(other.m_metrics.at(theirs.metric));
        if ((m_distinct + 1) * 2 > m_slots.size()) growSlots();
        const std::size_t slot = slotOf(s.gpu, s.metric);
        m_series.push_back(s);
        ImportedSeries& mine = m_series.back();
        if (m_slots[slot] < 0) {
            m_slots[slot] = static_cast<std::int32_t>(m_series.size() - 1);
            if (++m_distinct > m_maxSeries) throw TooManyTelemetrySeries(m_maxSeries);
        }
        if (!m_rawDropped)
            for (std::int32_t k = theirs.firstRaw; k >= 0; k = other.m_raw[static_cast<std::size_t>(k)].next) {
                const auto at = static_cast<std::int32_t>(m_raw.size());
                const RawSample& r = other.m_raw[static_cast<std::size_t>(k)];
                m_raw.push_back({r.time, r.value, -1});
                if (mine.lastRaw >= 0) m_raw[static_cast<std::size_t>(mine.lastRaw)].next = at;
                else mine.firstRaw = at;
                mine.lastRaw = at;
                ++mine.rawCount;
            }
        for (std::int32_t k = theirs.firstCell; k >= 0; k = other.m_cellArena[static_cast<std::size_t>(k)].next)
            pushCell(mine, other.m_cellArena[static_cast<std::size_t>(k)].cell());
    }
    other = ImportedTelemetry();
    enforceBudgets();
}

}  // namespace faultline
