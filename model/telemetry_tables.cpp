#include "telemetry_tables.h"

#include "error.h"
#include "run_file_schema.h"

#include <cstring>

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
            const TelemetryLevel& level = telemetry.levels[l];
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
        SqliteStatement s(db, "INSERT INTO telemetry_raw(metric, gpu, times, samples) VALUES(?, ?, ?, ?)");
        for (const TelemetryRawSeries& raw : telemetry.raw) {
            s.bind(1, std::int64_t{raw.metric}).bind(2, std::int64_t{raw.gpu});
            bindArray(s, 3, raw.times);
            bindArray(s, 4, raw.values);
            s.execute();
        }
    }
    if (telemetry.rawDropped) db.exec("INSERT INTO meta(key, value) VALUES('telemetry_raw_dropped', 1)");
    db.exec(schema::kTelemetryIndexes);
}

Telemetry readTelemetryTables(SqliteDb& db, std::int64_t version) {
    Telemetry t;
    if (version < schema::kTelemetrySchemaVersion) return t;
    for (SqliteStatement s(db, "SELECT name FROM telemetry_metrics ORDER BY id"); s.next();) t.metrics.push_back(s.text(0));
    for (SqliteStatement s(db, "SELECT bucket_ns FROM telemetry_levels ORDER BY level"); s.next();) t.levels.push_back({s.int64(0), {}});
    for (SqliteStatement s(db, "SELECT level, metric, gpu, buckets, min, mean, max FROM telemetry_summary ORDER BY level, metric, gpu"); s.next();) {
        const std::int64_t level = s.int64(0);
        if (level < 0 || static_cast<std::size_t>(level) >= t.levels.size())
            throw Error("telemetry_summary: level " + std::to_string(level) + " is not one of the " + std::to_string(t.levels.size()) + " telemetry levels");
        TelemetrySummarySeries series{s.int32(1), s.int32(2), readArray<std::int64_t>(s, 3, "telemetry_summary.buckets"),
                                      readArray<float>(s, 4, "telemetry_summary.min"), readArray<float>(s, 5, "telemetry_summary.mean"),
                                      readArray<float>(s, 6, "telemetry_summary.max")};
        t.levels[static_cast<std::size_t>(level)].series.push_back(std::move(series));
    }
    for (SqliteStatement s(db, "SELECT metric, gpu, times, samples FROM telemetry_raw ORDER BY metric, gpu"); s.next();)
        t.raw.push_back({s.int32(0), s.int32(1), readArray<std::int64_t>(s, 2, "telemetry_raw.times"), readArray<float>(s, 3, "telemetry_raw.samples")});
    {
        SqliteStatement s(db, "SELECT value FROM meta WHERE key = 'telemetry_raw_dropped'");
        t.rawDropped = s.next() && s.int64(0) != 0;
    }
    return t;
}

}  // namespace faultline
