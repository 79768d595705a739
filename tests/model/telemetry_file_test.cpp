// The run file's telemetry tables (schema 5, levels_from since 8): what is written reads back,
// raw samples stand in for the levels that would repeat them, a version-4 file reads with
// none, and a damaged series is refused by table and row.
#include "run_file_sql.h"
#include "error_of.h"
#include "test_runs.h"

#include "model/run_file.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

namespace faultline {
namespace {

using test::runSql;
using test::errorOf;
using test::ScratchDir;
using test::tinyRun;

faultline::Run runWithTelemetry() {
    faultline::Run run = tinyRun();
    Telemetry& t = run.telemetry;
    t = {};  // the simulator's own telemetry makes way for a few known values
    t.metrics = {std::string(kPowerMetric), std::string(kTemperatureMetric)};
    t.raw.push_back({0, 1, {0, 15 * kSecond, 30 * kSecond}, {690.5f, 701.f, 120.25f}});
    const std::int64_t firstMinute = run.info.startEpochNs / kMinute;
    t.levels.push_back({kMinute, {{0, 1, {firstMinute}, {120.25f}, {503.91666f}, {701.f}}, {1, 1, {firstMinute}, {60.f}, {61.f}, {62.f}}}});
    return run;
}

// Three power samples 15 s apart on GPU 1: each is a 10-second bucket of its own, so the raw
// series stands in for the 10 s level (levelsFrom 1), which keeps no series of it.
faultline::Run runWithStandIn() {
    faultline::Run run = runWithTelemetry();
    Telemetry& t = run.telemetry;
    t.epochNs = run.info.startEpochNs;
    t.raw[0].levelsFrom = 1;
    t.levels.insert(t.levels.begin(), TelemetryLevel{10 * kSecond, {}});
    return run;
}

TEST(TelemetryFile, SamplesAndSummariesReadBackAsWritten) {
    ScratchDir dir;
    const std::string path = dir.file("t.faultline");
    const faultline::Run run = runWithTelemetry();
    writeRunFile(run, path);
    const faultline::Run back = readRunFile(path);
    EXPECT_EQ(back.telemetry.metrics, run.telemetry.metrics);
    ASSERT_EQ(back.telemetry.rawSeries().size(), 1u);
    EXPECT_EQ(back.telemetry.rawSeries()[0].times, run.telemetry.raw[0].times);
    EXPECT_EQ(back.telemetry.rawSeries()[0].values, run.telemetry.raw[0].values);
    ASSERT_EQ(back.telemetry.levels.size(), 1u);
    EXPECT_EQ(back.telemetry.levels[0].bucket, kMinute);
    ASSERT_EQ(back.telemetry.level(0).series.size(), 2u);
    EXPECT_EQ(back.telemetry.level(0).series[0].mean, run.telemetry.levels[0].series[0].mean);
    EXPECT_EQ(back.telemetry.level(0).series[1].max, std::vector<float>{62.f});
    EXPECT_FALSE(back.telemetry.rawDropped);
}

// Where no two samples share a bucket the level would repeat them: it is not stored, and every
// reader of the level (one GPU's chart, a metric over the cluster) gets the samples as buckets.
TEST(TelemetryFile, RawSamplesStandInForALevelWhereEachIsABucketOfItsOwn) {
    ScratchDir dir;
    const std::string path = dir.file("t.faultline");
    const faultline::Run run = runWithStandIn();
    ASSERT_EQ(firstMergingLevel(run.telemetry.raw[0].times, {10 * kSecond, kMinute}, run.info.startEpochNs), 1);
    writeRunFile(run, path);
    const faultline::Run back = readRunFile(path);
    EXPECT_EQ(back.telemetry.rawSeries().at(0).levelsFrom, 1);
    EXPECT_TRUE(back.telemetry.level(0).series.empty()) << "the 10 s level keeps nothing the samples hold";
    const std::int64_t start = run.info.startEpochNs;
    const std::vector<std::int64_t> buckets{start / (10 * kSecond), (start + 15 * kSecond) / (10 * kSecond), (start + 30 * kSecond) / (10 * kSecond)};
    for (const faultline::Run* r : {&run, &back}) {
        const std::vector<TelemetrySummarySeries> one = r->telemetry.levelSeries(0, 0, {0, 1});
        ASSERT_EQ(one.size(), 1u);
        EXPECT_EQ(one[0].gpu, 1);
        EXPECT_EQ(one[0].buckets, buckets);
        EXPECT_EQ(one[0].mean, run.telemetry.raw[0].values);
        EXPECT_EQ(one[0].min, run.telemetry.raw[0].values);
        EXPECT_EQ(one[0].max, run.telemetry.raw[0].values);
        std::vector<TelemetrySummarySeries> read;
        const std::span<const TelemetrySummarySeries> power = r->telemetry.metricSeries(0, 0, read);
        ASSERT_EQ(power.size(), 1u);
        EXPECT_EQ(power[0].buckets, buckets);
        // The minute level keeps its own series: two samples share a minute.
        const std::vector<TelemetrySummarySeries> minute = r->telemetry.levelSeries(1, 0, {1});
        ASSERT_EQ(minute.size(), 1u);
        EXPECT_EQ(minute[0].mean, std::vector<float>{503.91666f});
    }
    // Written again from the file it was read from (whatif -o, a comparison's export): the
    // samples still stand in, and nothing is stored twice.
    const std::string again = dir.file("again.faultline");
    writeRunFile(back, again);
    const faultline::Run twice = readRunFile(again);
    EXPECT_EQ(twice.telemetry.rawSeries().at(0).levelsFrom, 1);
    EXPECT_TRUE(twice.telemetry.level(0).series.empty());
    ASSERT_EQ(twice.telemetry.levelSeries(0, 0, {1}).size(), 1u);
    EXPECT_EQ(twice.telemetry.levelSeries(0, 0, {1})[0].buckets, buckets);
}

// A file whose levels_from says the samples stand in for a level where two of them share a
// bucket, or names a level the file lacks, is corrupt: said when that level is read.
TEST(TelemetryFile, ALevelsFromTheSamplesCannotStandInForIsCorruption) {
    ScratchDir dir;
    const std::string path = dir.file("t.faultline");
    writeRunFile(runWithStandIn(), path);
    runSql(path, "DELETE FROM telemetry_summary WHERE level = 1 AND metric = 0; UPDATE telemetry_raw SET levels_from = 2");
    const faultline::Run opened = readRunFile(path);
    EXPECT_EQ(opened.telemetry.levelSeries(0, 0, {1}).size(), 1u) << "each sample is a bucket of 10 s";
    EXPECT_EQ(errorOf([&] { (void)opened.telemetry.levelSeries(1, 0, {1}); }),
              path + " is corrupt: telemetry_raw: the series of metric 0 on GPU 1 stands in for level 1 (levels_from is above it), yet two of its samples share a bucket there");
    runSql(path, "UPDATE telemetry_raw SET levels_from = 99");
    std::vector<TelemetrySummarySeries> read;
    EXPECT_EQ(errorOf([&] { (void)readRunFile(path).telemetry.metricSeries(0, 0, read); }),
              path + " is corrupt: telemetry_raw row 0: levels_from 99 is not one of the levels (0 to 2)");
}

// A version-7 file has no levels_from: every level is stored, and it reads as before.
TEST(TelemetryFile, VersionSevenFileReadsEveryLevelAsStored) {
    ScratchDir dir;
    const std::string path = dir.file("v7.faultline");
    writeRunFile(runWithTelemetry(), path);
    runSql(path, "ALTER TABLE telemetry_raw DROP COLUMN levels_from; PRAGMA user_version=7");
    const faultline::Run back = readRunFile(path);
    ASSERT_EQ(back.telemetry.rawSeries().size(), 1u);
    EXPECT_EQ(back.telemetry.rawSeries()[0].levelsFrom, 0);
    std::vector<TelemetrySummarySeries> read;
    EXPECT_EQ(back.telemetry.metricSeries(0, 0, read).size(), 1u);
    EXPECT_EQ(back.telemetry.levelSeries(0, 1, {1}).size(), 1u);
}

TEST(TelemetryFile, VersionFourFileReadsWithoutTelemetry) {
    ScratchDir dir;
    const std::string path = dir.file("v4.faultline");
    writeRunFile(runWithTelemetry(), path);
    runSql(path, "DROP TABLE telemetry_metrics; DROP TABLE telemetry_levels; DROP TABLE telemetry_summary; DROP TABLE telemetry_raw; PRAGMA user_version=4");
    const faultline::Run back = readRunFile(path);
    EXPECT_TRUE(back.telemetry.empty());
    EXPECT_EQ(back.failures.size(), tinyRun().failures.size());
}

// Opening a run reads no telemetry series: a damaged one is refused, by table and row, when a
// view first asks for its level, and the run's other figures read as they are.
TEST(TelemetryFile, ASeriesOfAGpuTheRunLacksIsCorruptionNamedByRowWhenItsLevelIsRead) {
    ScratchDir dir;
    const std::string path = dir.file("bad.faultline");
    writeRunFile(runWithTelemetry(), path);
    runSql(path, "UPDATE telemetry_summary SET gpu = 99999 WHERE id = 2");
    const faultline::Run opened = readRunFile(path);
    EXPECT_EQ(opened.failures.size(), tinyRun().failures.size());
    EXPECT_EQ(errorOf([&] { (void)opened.telemetry.level(0); }), path + " is corrupt: telemetry_summary row 1: GPU 99999 does not exist");
    runSql(path, "UPDATE telemetry_summary SET gpu = 1; UPDATE telemetry_raw SET samples = x'0102'");
    const std::string damaged = errorOf([&] { (void)readRunFile(path).telemetry.rawSeries(); });
    EXPECT_EQ(damaged.rfind(path + " is corrupt: ", 0), 0u) << damaged;
    EXPECT_NE(damaged.find("telemetry_raw.samples: a blob of 2 bytes is not an array of 4-byte numbers"), std::string::npos) << damaged;
}

// A few GPUs' series are read alone (a failure's error counters, the inspector's chart, the
// cluster's power): they read back as the whole level holds them, a damaged row of another
// GPU or metric is not read for them, and their own damaged row is refused by table and row.
TEST(TelemetryFile, OneMetricsSeriesAreReadWithoutTheRestOfTheirLevel) {
    ScratchDir dir;
    const std::string path = dir.file("t.faultline");
    const faultline::Run run = runWithTelemetry();
    writeRunFile(run, path);
    {
        const faultline::Run opened = readRunFile(path);
        const std::vector<TelemetrySummarySeries> temperature = opened.telemetry.levelSeries(0, 1, {0, 1, 2});
        ASSERT_EQ(temperature.size(), 1u) << "GPU 1 alone has a temperature series";
        EXPECT_EQ(temperature[0].gpu, 1);
        EXPECT_EQ(temperature[0].mean, run.telemetry.levels[0].series[1].mean);
        std::vector<TelemetrySummarySeries> read;
        const std::span<const TelemetrySummarySeries> power = opened.telemetry.metricSeries(0, 0, read);
        ASSERT_EQ(power.size(), 1u);
        EXPECT_EQ(power[0].max, std::vector<float>{701.f});
        EXPECT_TRUE(opened.telemetry.hasRawSeries());
        ASSERT_EQ(opened.telemetry.rawSeriesOf(0, {1}).size(), 1u);
        EXPECT_EQ(opened.telemetry.rawSeriesOf(0, {1})[0].values, run.telemetry.raw[0].values);
        EXPECT_TRUE(opened.telemetry.rawSeriesOf(1, {1}).empty());
        // The same from a run in memory.
        EXPECT_EQ(run.telemetry.levelSeries(0, 1, {0, 1, 2}).size(), 1u);
        std::vector<TelemetrySummarySeries> unread;
        EXPECT_EQ(run.telemetry.metricSeries(0, 1, unread).size(), 1u);
        EXPECT_TRUE(unread.empty()) << "a run in memory gives its series in place";
        EXPECT_EQ(run.telemetry.rawSeriesOf(0, {1}).size(), 1u);
    }
    runSql(path, "UPDATE telemetry_summary SET gpu = 99999 WHERE id = 1");  // GPU 1's power
    const faultline::Run opened = readRunFile(path);
    EXPECT_EQ(opened.telemetry.levelSeries(0, 1, {1}).size(), 1u) << "the temperature read past a damaged power row";
    std::vector<TelemetrySummarySeries> read;
    EXPECT_EQ(opened.telemetry.metricSeries(0, 1, read).size(), 1u);
    const std::string damaged = path + " is corrupt: telemetry_summary row 0: GPU 99999 does not exist";
    EXPECT_EQ(errorOf([&] { (void)opened.telemetry.metricSeries(0, 0, read); }), damaged);
    EXPECT_EQ(errorOf([&] { (void)opened.telemetry.levelSeries(0, 0, {99999}); }), damaged);
}

// A row of a level the file does not have is refused on opening: the index says so without
// reading a series.
TEST(TelemetryFile, ARowOfALevelTheFileLacksIsRefusedOnOpening) {
    ScratchDir dir;
    const std::string path = dir.file("bad-level.faultline");
    writeRunFile(runWithTelemetry(), path);
    runSql(path, "UPDATE telemetry_summary SET level = 7 WHERE id = 2");
    EXPECT_EQ(errorOf([&] { (void)readRunFile(path); }), path + " is corrupt: telemetry_summary: level 7 is not one of the 1 telemetry levels");
}

// The run read back keeps reading its telemetry after the file it came from is replaced: the
// series are read from the file that was opened.
TEST(TelemetryFile, ALevelIsReadFromTheFileOpenedEvenAfterAnotherReplacesIt) {
    ScratchDir dir;
    const std::string path = dir.file("t.faultline");
    writeRunFile(runWithTelemetry(), path);
    const faultline::Run opened = readRunFile(path);
    faultline::Run other = runWithTelemetry();
    other.telemetry.levels[0].series[1].max = {99.f};
    writeRunFile(other, path);
    EXPECT_EQ(opened.telemetry.level(0).series[1].max, std::vector<float>{62.f});
    EXPECT_EQ(readRunFile(path).telemetry.level(0).series[1].max, std::vector<float>{99.f});
}

TEST(TelemetryFile, WriterRefusesSamplesOutOfOrder) {
    ScratchDir dir;
    faultline::Run run = runWithTelemetry();
    run.telemetry.raw[0].times = {30 * kSecond, 0, 15 * kSecond};
    const std::string refused = errorOf([&] { writeRunFile(run, dir.file("x.faultline")); });
    EXPECT_NE(refused.find("telemetry_raw row 0: a sample lies outside the run or out of time order"), std::string::npos) << refused;
}

}  // namespace
}  // namespace faultline
