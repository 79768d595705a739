// libFuzzer harness for run files whose telemetry is damaged (issue 39): a whole run file
// mutated byte by byte rarely gets past SQLite's pages to the telemetry it holds, so this one
// starts from a valid run with GPU telemetry and lets the input rewrite its telemetry rows,
// column by column: indexes at full 64 bits, blobs cut, padded or overwritten, levels and
// metrics removed. Reading the file must then end in faultline::Error (corrupt, named) or give
// a run every reader can use: summarised, and every metric read at instants across the run as
// the replay does. Any other exception, a crash, an allocation sized from the file (libFuzzer's
// -malloc_limit_mb) or undefined behaviour is a defect.
#include "analysis/summary.h"
#include "model/error.h"
#include "model/metric_at_instant.h"
#include "model/run_file.h"
#include "simulator/simulator.h"

#include <fuzzer/FuzzedDataProvider.h>
#include <sqlite3.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

const std::string& scratchFile() {
    static const auto* path = new std::string("/tmp/faultline-fuzz-" + std::to_string(::getpid()) + "-run-file-telemetry.faultline");
    return *path;
}

void removeScratchFile() { std::remove(scratchFile().c_str()); }

[[maybe_unused]] const bool scratchRemovedAtExit = (std::atexit(removeScratchFile), true);

// A small valid run with telemetry, as file bytes: the tiny preset for two hours, its
// telemetry cut to a few GPUs' series so that each input rewrites a file of a few hundred KB.
const std::string& baseRunFile() {
    static const auto* bytes = [] {
        faultline::SimulationParams params = faultline::simulationPreset("tiny");
        params.days = 2.0 / 24;
        params.seed = 7;
        faultline::Run run = faultline::simulate(params);
        auto keepFew = [](auto& series) {
            if (series.size() > 24) series.resize(24);
        };
        faultline::Telemetry& tm = run.telemetry;
        keepFew(tm.raw);
        for (faultline::TelemetryLevel& level : tm.levels) keepFew(level.series);
        // The samples stand in for the levels where each is a bucket of its own, as an import
        // keeps them: levels_from and the stand-ins are damaged and read too.
        std::vector<faultline::Nanos> buckets;
        for (const faultline::TelemetryLevel& level : tm.levels) buckets.push_back(level.bucket);
        tm.epochNs = run.info.startEpochNs;
        for (faultline::TelemetryRawSeries& raw : tm.raw) {
            raw.levelsFrom = faultline::firstMergingLevel(raw.times, buckets, tm.epochNs);
            for (std::size_t l = 0; l < static_cast<std::size_t>(raw.levelsFrom); ++l)
                std::erase_if(tm.levels[l].series, [&](const faultline::TelemetrySummarySeries& s) { return s.metric == raw.metric && s.gpu == raw.gpu; });
        }
        faultline::writeRunFile(run, scratchFile());
        std::ifstream in(scratchFile(), std::ios::binary);
        return new std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    }();
    return *bytes;
}

// Values that broke readers before: past 32 bits, negative, the extremes.
std::int64_t interestingInteger(FuzzedDataProvider& in) {
    static constexpr std::int64_t kValues[] = {-1, 0, 1, 2, 5, 255, 256, 65535, std::numeric_limits<std::int32_t>::max(),
                                               std::int64_t{1} << 31, (std::int64_t{1} << 32) + 3, std::numeric_limits<std::int64_t>::min(),
                                               std::numeric_limits<std::int64_t>::max(), 1'000'000'000, -1'000'000'000'000'000'000};
    if (in.ConsumeBool()) return in.PickValueInArray(kValues);
    return in.ConsumeIntegral<std::int64_t>();
}

struct Column {
    const char* table;
    const char* name;
    bool blob;
};

constexpr Column kColumns[] = {
    {"telemetry_raw", "metric", false},      {"telemetry_raw", "gpu", false},          {"telemetry_raw", "times", true},
    {"telemetry_raw", "levels_from", false},
    {"telemetry_raw", "samples", true},      {"telemetry_summary", "level", false},    {"telemetry_summary", "metric", false},
    {"telemetry_summary", "gpu", false},     {"telemetry_summary", "buckets", true},   {"telemetry_summary", "min", true},
    {"telemetry_summary", "mean", true},     {"telemetry_summary", "max", true},       {"telemetry_levels", "bucket_ns", false},
    {"telemetry_levels", "level", false},    {"telemetry_metrics", "id", false},
};

void exec(sqlite3* db, const std::string& sql, const std::string& blob = {}, bool bindBlob = false) {
    sqlite3_stmt* s = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr) != SQLITE_OK) return;  // a constraint or a missing table: no change
    if (bindBlob) sqlite3_bind_blob64(s, 1, blob.data(), blob.size(), SQLITE_TRANSIENT);
    sqlite3_step(s);
    sqlite3_finalize(s);
}

std::string currentBlob(sqlite3* db, const Column& c, std::int64_t row) {
    std::string out;
    sqlite3_stmt* s = nullptr;
    const std::string sql = std::string("SELECT ") + c.name + " FROM " + c.table + " WHERE rowid = " + std::to_string(row);
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr) == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW) {
        const void* p = sqlite3_column_blob(s, 0);
        out.assign(static_cast<const char*>(p ? p : ""), static_cast<std::size_t>(sqlite3_column_bytes(s, 0)));
    }
    sqlite3_finalize(s);
    return out;
}

// One damage the input describes, to a row of a telemetry table.
void damage(sqlite3* db, FuzzedDataProvider& in) {
    const Column& c = in.PickValueInArray(kColumns);
    const std::int64_t row = in.ConsumeIntegralInRange<std::int64_t>(1, 32);
    const std::string where = std::string(" WHERE rowid = ") + std::to_string(row);
    switch (in.ConsumeIntegralInRange(0, 4)) {
        case 0:
            if (!c.blob) exec(db, std::string("UPDATE ") + c.table + " SET " + c.name + " = " + std::to_string(interestingInteger(in)) + where);
            else {
                // Bytes overwritten in place: the blob keeps its length, its numbers change.
                std::string blob = currentBlob(db, c, row);
                const std::string patch = in.ConsumeBytesAsString(in.ConsumeIntegralInRange<std::size_t>(1, 16));
                if (!blob.empty()) blob.replace(in.ConsumeIntegralInRange<std::size_t>(0, blob.size() - 1), patch.size(), patch);
                exec(db, std::string("UPDATE ") + c.table + " SET " + c.name + " = ?" + where, blob, true);
            }
            break;
        case 1: {  // cut short or padded: a length that is not a whole number of values
            std::string blob = currentBlob(db, c, row);
            blob.resize(in.ConsumeIntegralInRange<std::size_t>(0, blob.size() + 9), '\x7f');
            exec(db, std::string("UPDATE ") + c.table + " SET " + c.name + " = ?" + where, blob, true);
            break;
        }
        case 2: exec(db, std::string("DELETE FROM ") + c.table + where); break;
        case 3: exec(db, std::string("UPDATE ") + c.table + " SET " + c.name + " = NULL" + where); break;
        default:
            exec(db, std::string("INSERT OR REPLACE INTO meta(key, value) VALUES('") + (in.ConsumeBool() ? "telemetry_raw_dropped" : "telemetry_stand_ins") + "', " +
                         std::to_string(interestingInteger(in)) + ")");
            break;
    }
}

// What the readers do with a run's telemetry: every level read, the summary, and the replay's
// reading of every metric at instants across the run (before it, at its start, through it,
// past its end).
void useRun(const faultline::Run& run) {
    // A run file's telemetry is read when first asked for, not on opening: ask for all of it.
    const faultline::Telemetry& tm = run.telemetry;
    for (std::size_t l = 0; l < tm.levels.size(); ++l) (void)tm.level(l);
    (void)tm.rawSeries();
    // As views read them: a metric over the cluster, a few GPUs' series, stand-ins among them.
    for (std::size_t l = 0; l < tm.levels.size(); ++l)
        for (std::size_t m = 0; m < tm.metrics.size(); ++m) {
            std::vector<faultline::TelemetrySummarySeries> read;
            (void)tm.metricSeries(l, static_cast<std::int32_t>(m), read);
            (void)tm.levelSeries(l, static_cast<std::int32_t>(m), {0, 1, 2, 3});
        }
    (void)faultline::summaryToText(faultline::summarize(run));
    std::vector<float> values;
    for (std::size_t m = 0; m < run.telemetry.metrics.size(); ++m) {
        faultline::MetricAtInstant reader(run, static_cast<std::int32_t>(m));
        for (int i = -1; i <= 5; ++i) reader.valuesAt(run.info.duration / 4 * i, values);
        (void)reader.dataMin();
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string& base = baseRunFile();
    {
        std::ofstream out(scratchFile(), std::ios::binary | std::ios::trunc);
        out.write(base.data(), static_cast<std::streamsize>(base.size()));
        if (!out) std::abort();
    }
    sqlite3* db = nullptr;
    if (sqlite3_open(scratchFile().c_str(), &db) != SQLITE_OK) std::abort();
    FuzzedDataProvider in(data, size);
    for (int i = 0; i < 8 && in.remaining_bytes() > 0; ++i) damage(db, in);
    sqlite3_close(db);
    try {
        useRun(faultline::readRunFile(scratchFile()));
    } catch (const faultline::Error&) {
        // Corrupt, and said so naming the file: the right answer.
    }
    return 0;
}
