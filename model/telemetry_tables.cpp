#include "telemetry_tables.h"

#include "error.h"
#include "run_file_schema.h"
#include "run_validity.h"

#include <algorithm>
#include <cstring>
#include <mutex>

namespace faultline {

namespace {

template <typename T>
void bindArray(SqliteStatement& s, int index, const std::vector<T>& v) {
    s.bindBytes(index, v.data(), v.size() * sizeof(T));
}

template <typename T>
std::vector<T> readArray(const SqliteStatement& s, int column, const char* what) {
    const auto bytes = s.bytes(column);
    if (bytes.size() % sizeof(T) != 0) throw Error(std::string(what) + ": a blob of " + std::to_string(bytes.size()) + " bytes is not an array of " + std::to_string(sizeof(T)) + "-byte numbers");
    std::vector<T> out(bytes.size() / sizeof(T));
    if (!out.empty()) std::memcpy(out.data(), bytes.data(), bytes.size());
    return out;
}

}  // namespace

void writeTelemetryTables(SqliteDb& db, const Telemetry& telemetry) {
    db.exec(schema::kTelemetryTables);
    {
        SqliteStatement s(db, "INSERT INTO telemetry_metrics VALUES(?, ?)");
        for (std::size_t i = 0; i < telemetry.metrics.size(); ++i) s.bind(1, static_cast<std::int64_t>(i)).bind(2, std::string_view(telemetry.metrics[i])).execute();
    }
    {
        SqliteStatement levels(db, "INSERT INTO telemetry_levels VALUES(?, ?)");
        SqliteStatement s(db, "INSERT INTO telemetry_summary(level, metric, gpu, buckets, min, mean, max) VALUES(?, ?, ?, ?, ?, ?, ?)");
        for (std::size_t l = 0; l < telemetry.levels.size(); ++l) {
            const TelemetryLevel& level = telemetry.level(l);
            levels.bind(1, static_cast<std::int64_t>(l)).bind(2, level.bucket).execute();
            for (const TelemetrySummarySeries& series : level.series) {
                s.bind(1, static_cast<std::int64_t>(l)).bind(2, std::int64_t{series.metric}).bind(3, std::int64_t{series.gpu});
                bindArray(s, 4, series.buckets);
                bindArray(s, 5, series.min);
                bindArray(s, 6, series.mean);
                bindArray(s, 7, series.max);
                s.execute();
            }
        }
    }
    {
        SqliteStatement s(db, "INSERT INTO telemetry_raw(metric, gpu, levels_from, times, samples) VALUES(?, ?, ?, ?, ?)");
        for (const TelemetryRawSeries& raw : telemetry.rawSeries()) {
            s.bind(1, std::int64_t{raw.metric}).bind(2, std::int64_t{raw.gpu}).bind(3, std::int64_t{raw.levelsFrom});
            bindArray(s, 4, raw.times);
            bindArray(s, 5, raw.values);
            s.execute();
        }
    }
    if (telemetry.rawDropped) db.exec("INSERT INTO meta(key, value) VALUES('telemetry_raw_dropped', 1)");
    // Said once, so that a reader of a run whose every level is stored asks for no stand-in.
    const std::vector<TelemetryRawSeries>& raw = telemetry.rawSeries();
    if (std::any_of(raw.begin(), raw.end(), [](const TelemetryRawSeries& r) { return r.levelsFrom > 0; }))
        db.exec("INSERT INTO meta(key, value) VALUES('telemetry_stand_ins', 1)");
    db.exec(schema::kTelemetryIndexes);
}

namespace {

// A run file's telemetry, read a level at a time from the file's own connection, which stays
// open (the file read is the one opened, even if another is renamed over its path).
class RunFileTelemetry final : public TelemetryStore {
public:
    // `levelsFrom`: the column, or "0" in a file older than it. `standIns`: some raw series stand in for levels.
    RunFileTelemetry(std::shared_ptr<SqliteDb> db, const Telemetry& shape, std::vector<std::size_t> firstRows, const TelemetryBounds& bounds, bool hasRaw,
                     std::string levelsFrom, bool standIns)
        : m_db(std::move(db)), m_firstRows(std::move(firstRows)), m_bounds(bounds), m_levels(shape.levels.size()), m_hasRaw(hasRaw),
          m_levelsFrom(std::move(levelsFrom)), m_standIns(standIns) {
        for (std::size_t l = 0; l < shape.levels.size(); ++l) m_buckets.push_back(shape.levels[l].bucket);
    }

    const TelemetryLevel& level(std::size_t index) const override {
        const std::lock_guard lock(m_mutex);
        std::optional<TelemetryLevel>& held = m_levels.at(index);
        if (!held) held = readLevel(index);
        return *held;
    }

    const std::vector<TelemetryRawSeries>& raw() const override {
        const std::lock_guard lock(m_mutex);
        if (!m_raw) m_raw = readRaw();
        return *m_raw;
    }

    std::vector<TelemetrySummarySeries> levelSeries(std::size_t index, std::int32_t metric, const std::vector<std::int32_t>& gpus) const override {
        const std::lock_guard lock(m_mutex);
        std::vector<TelemetrySummarySeries> kept = keptSeries(index, metric, gpus);
        if (!m_standIns || kept.size() == gpus.size()) return kept;
        // The GPUs the level keeps no series of: their raw samples may stand in.
        std::vector<TelemetrySummarySeries> all;
        auto next = kept.begin();
        for (std::int32_t gpu : gpus) {
            if (next != kept.end() && next->gpu == gpu) {
                all.push_back(std::move(*next++));
                continue;
            }
            for (TelemetryRawSeries& raw : readRawRows("WHERE metric = ? AND gpu = ? AND levels_from > ? LIMIT 1", {metric, gpu, static_cast<std::int64_t>(index)}))
                all.push_back(standIn(raw, index));
        }
        return all;
    }

    // The series level `index` keeps of `metric` on `gpus`, in the order of the GPUs.
    std::vector<TelemetrySummarySeries> keptSeries(std::size_t index, std::int32_t metric, const std::vector<std::int32_t>& gpus) const {
        if (const std::optional<TelemetryLevel>& held = m_levels.at(index)) return pickSeries(held->series, metric, gpus);
        std::vector<TelemetrySummarySeries> out;
        TelemetryLevel picked{m_buckets[index], {}};
        std::optional<RunViolation> violation;
        try {
            SqliteStatement s(*m_db, "SELECT id, buckets, min, mean, max FROM telemetry_summary WHERE level = ? AND metric = ? AND gpu = ?");
            for (std::int32_t gpu : gpus) {
                s.reset();
                s.bind(1, static_cast<std::int64_t>(index)).bind(2, std::int64_t{metric}).bind(3, std::int64_t{gpu});
                if (!s.next()) continue;
                picked.series = {{metric, gpu, readArray<std::int64_t>(s, 1, "telemetry_summary.buckets"), readArray<float>(s, 2, "telemetry_summary.min"),
                                  readArray<float>(s, 3, "telemetry_summary.mean"), readArray<float>(s, 4, "telemetry_summary.max")}};
                // Checked as the whole level is, under the row number it has there (rows are written in order).
                if ((violation = findTelemetryLevelViolation(picked, m_bounds, static_cast<std::size_t>(s.int64(0) - 1)))) break;
                out.push_back(std::move(picked.series.front()));
            }
        } catch (const Error& e) {
            corrupt(e.what());
        }
        if (violation) corrupt(violation->text());
        return out;
    }

    std::vector<TelemetryRawSeries> rawSeries(std::int32_t metric, const std::vector<std::int32_t>& gpus) const override {
        const std::lock_guard lock(m_mutex);
        if (m_raw) return pickSeries(*m_raw, metric, gpus);
        std::vector<TelemetryRawSeries> out;
        for (std::int32_t gpu : gpus)
            for (TelemetryRawSeries& raw : readRawRows("WHERE metric = ? AND gpu = ? LIMIT 1", {metric, gpu})) out.push_back(std::move(raw));
        return out;
    }

    std::vector<TelemetrySummarySeries> metricSeries(std::size_t index, std::int32_t metric) const override {
        const std::lock_guard lock(m_mutex);
        TelemetryLevel picked{m_buckets[index], {}};
        if (const std::optional<TelemetryLevel>& held = m_levels.at(index)) {
            for (const TelemetrySummarySeries& series : held->series)
                if (series.metric == metric) picked.series.push_back(series);
            return withStandInsOf(std::move(picked.series), index, metric);
        }
        std::int64_t firstId = 0;
        try {
            SqliteStatement s(*m_db, "SELECT id, gpu, buckets, min, mean, max FROM telemetry_summary WHERE level = ? AND metric = ? ORDER BY gpu");
            s.bind(1, static_cast<std::int64_t>(index)).bind(2, std::int64_t{metric});
            while (s.next()) {
                if (picked.series.empty()) firstId = s.int64(0);
                picked.series.push_back({metric, s.int32(1), readArray<std::int64_t>(s, 2, "telemetry_summary.buckets"), readArray<float>(s, 3, "telemetry_summary.min"),
                                         readArray<float>(s, 4, "telemetry_summary.mean"), readArray<float>(s, 5, "telemetry_summary.max")});
            }
        } catch (const Error& e) {
            corrupt(e.what());
        }
        // Checked as the whole level is: a metric's rows follow each other there.
        if (const auto violation = findTelemetryLevelViolation(picked, m_bounds, static_cast<std::size_t>(std::max<std::int64_t>(firstId - 1, 0))))
            corrupt(violation->text());
        return withStandInsOf(std::move(picked.series), index, metric);
    }

    bool hasRaw() const override { return m_hasRaw; }

private:
    // SQLite's own messages name the file already: said once, as readRunFile says it.
    [[noreturn]] void corrupt(std::string what) const {
        const std::string& path = m_db->path();
        if (what.rfind(path + ": ", 0) == 0) what.erase(0, path.size() + 2);
        throw Error(path + " is corrupt: " + what);
    }

    // `stored`: one metric's series kept at level `index`, in GPU order; with those raw ones stand in for.
    std::vector<TelemetrySummarySeries> withStandInsOf(std::vector<TelemetrySummarySeries> stored, std::size_t index, std::int32_t metric) const {
        if (!m_standIns) return stored;
        std::vector<TelemetryRawSeries> raw = readRawRows("WHERE metric = ? AND levels_from > ? ORDER BY gpu", {metric, static_cast<std::int64_t>(index)});
        if (raw.empty()) return stored;
        std::vector<TelemetrySummarySeries> out = withStandIns(stored, raw, index, m_buckets[index], m_bounds.startEpochNs);
        for (const TelemetrySummarySeries& s : out) checkStandIn(s, index);
        return out;
    }

    TelemetrySummarySeries standIn(const TelemetryRawSeries& raw, std::size_t index) const {
        TelemetrySummarySeries s = summaryOfRaw(raw, m_buckets[index], m_bounds.startEpochNs);
        checkStandIn(s, index);
        return s;
    }

    // A raw series stands in for a level only where no two of its samples share a bucket:
    // levels_from says where that stops, and a file that says it wrongly is corrupt.
    void checkStandIn(const TelemetrySummarySeries& s, std::size_t index) const {
        for (std::size_t k = 1; k < s.buckets.size(); ++k)
            if (s.buckets[k] <= s.buckets[k - 1])
                corrupt("telemetry_raw: the series of metric " + std::to_string(s.metric) + " on GPU " + std::to_string(s.gpu) + " stands in for level " + std::to_string(index) +
                        " (levels_from is above it), yet two of its samples share a bucket there");
    }

    // Raw rows chosen by `where` (bound to `values` in order), checked; a broken one named by its row.
    std::vector<TelemetryRawSeries> readRawRows(const std::string& where, const std::vector<std::int64_t>& values) const {
        std::vector<TelemetryRawSeries> raw;
        std::vector<std::int64_t> ids;
        try {
            SqliteStatement s(*m_db, "SELECT id, metric, gpu, " + m_levelsFrom + ", times, samples FROM telemetry_raw " + where);
            for (std::size_t i = 0; i < values.size(); ++i) s.bind(static_cast<int>(i + 1), values[i]);
            while (s.next()) {
                ids.push_back(s.int64(0));
                raw.push_back({s.int32(1), s.int32(2), readArray<std::int64_t>(s, 4, "telemetry_raw.times"), readArray<float>(s, 5, "telemetry_raw.samples"), s.int32(3)});
            }
        } catch (const Error& e) {
            corrupt(e.what());
        }
        if (auto violation = findTelemetryRawViolation(raw, m_bounds)) {
            violation->row = ids[static_cast<std::size_t>(violation->row)] - 1;
            corrupt(violation->text());
        }
        return raw;
    }

    TelemetryLevel readLevel(std::size_t index) const {
        TelemetryLevel level{m_buckets[index], {}};
        try {
            SqliteStatement s(*m_db, "SELECT metric, gpu, buckets, min, mean, max FROM telemetry_summary WHERE level = ? ORDER BY metric, gpu");
            s.bind(1, static_cast<std::int64_t>(index));
            while (s.next())
                level.series.push_back({s.int32(0), s.int32(1), readArray<std::int64_t>(s, 2, "telemetry_summary.buckets"), readArray<float>(s, 3, "telemetry_summary.min"),
                                        readArray<float>(s, 4, "telemetry_summary.mean"), readArray<float>(s, 5, "telemetry_summary.max")});
        } catch (const Error& e) {
            corrupt(e.what());
        }
        if (const auto violation = findTelemetryLevelViolation(level, m_bounds, m_firstRows[index])) corrupt(violation->text());
        return level;
    }

    std::vector<TelemetryRawSeries> readRaw() const { return readRawRows("ORDER BY metric, gpu", {}); }

    std::shared_ptr<SqliteDb> m_db;
    std::vector<Nanos> m_buckets;
    std::vector<std::size_t> m_firstRows;
    TelemetryBounds m_bounds;
    mutable std::mutex m_mutex;
    mutable std::vector<std::optional<TelemetryLevel>> m_levels;
    mutable std::optional<std::vector<TelemetryRawSeries>> m_raw;
    bool m_hasRaw = false;
    std::string m_levelsFrom;
    bool m_standIns = false;
};

}  // namespace

Telemetry openTelemetryTables(const std::shared_ptr<SqliteDb>& db, std::int64_t version, TelemetryBounds bounds) {
    Telemetry t;
    if (version < schema::kTelemetrySchemaVersion) return t;
    for (SqliteStatement s(*db, "SELECT name FROM telemetry_metrics ORDER BY id"); s.next();) t.metrics.push_back(s.text(0));
    bounds.metrics = t.metrics.size();
    for (SqliteStatement s(*db, "SELECT bucket_ns FROM telemetry_levels ORDER BY level"); s.next();) t.levels.push_back({s.int64(0), {}});
    bounds.levels = t.levels.size();
    t.epochNs = bounds.startEpochNs;
    // Rows per level from the index alone: where each level's rows start, and no row of a
    // level that does not exist. The series themselves are read when a view asks.
    std::vector<std::size_t> rowsPerLevel(t.levels.size(), 0);
    for (SqliteStatement s(*db, "SELECT level, count(*) FROM telemetry_summary GROUP BY level"); s.next();) {
        const std::int64_t level = s.int64(0);
        if (level < 0 || static_cast<std::size_t>(level) >= t.levels.size())
            throw Error("telemetry_summary: level " + std::to_string(level) + " is not one of the " + std::to_string(t.levels.size()) + " telemetry levels");
        rowsPerLevel[static_cast<std::size_t>(level)] = static_cast<std::size_t>(s.int64(1));
    }
    std::vector<std::size_t> firstRows(t.levels.size(), 0);
    for (std::size_t l = 0; l < t.levels.size(); ++l) {
        if (t.levels[l].bucket <= 0 || t.levels[l].bucket > kLongestRun) throw Error("telemetry_levels row " + std::to_string(l) + ": a bucket of " + std::to_string(t.levels[l].bucket) + " ns");
        if (l > 0) firstRows[l] = firstRows[l - 1] + rowsPerLevel[l - 1];
    }
    {
        SqliteStatement s(*db, "SELECT value FROM meta WHERE key = 'telemetry_raw_dropped'");
        t.rawDropped = s.next() && s.int64(0) != 0;
    }
    bool hasRaw = false;
    {
        SqliteStatement s(*db, "SELECT EXISTS(SELECT 1 FROM telemetry_raw)");
        hasRaw = s.next() && s.int64(0) != 0;
    }
    const bool hasLevelsFrom = version >= schema::kTelemetryStandInVersion;
    bool standIns = false;
    if (hasLevelsFrom) {
        SqliteStatement s(*db, "SELECT value FROM meta WHERE key = 'telemetry_stand_ins'");
        standIns = s.next() && s.int64(0) != 0;
    }
    t.store = std::make_shared<RunFileTelemetry>(db, t, std::move(firstRows), bounds, hasRaw, hasLevelsFrom ? "levels_from" : "0", standIns);
    return t;
}

}  // namespace faultline
