// Telemetry series held compactly (issue 39): an import holds a series in a few dozen bytes
// plus its samples, the names of GPUs and metrics once each; series that name no GPU are
// skipped, never made into GPUs or hosts, and the report says how many of which metrics.
#include "file_bytes.h"
#include "import_test_util.h"

#include <fstream>

namespace faultline {
namespace {

using test::writeFile;
using test::importPaths;

bool hasExactNote(const FileReport& f, const std::string& note) {
    for (const std::string& n : f.notes)
        if (n == note) return true;
    return false;
}

// A node exporter's and a dcgm-exporter's scrape in one file, twice: the node's series (CPU
// seconds per core and mode, the exporter's own go_* and process_*) are counted once each,
// per metric, and become no host; the one GPU series is the run's only GPU.
TEST(TelemetrySeries, SeriesOfNoGpuAreCountedPerMetricAndBecomeNoHostOrGpu) {
    test::ScratchDir dir;
    std::string text;
    for (const char* ms : {"1735689600000", "1735689615000"}) {
        for (const char* mode : {"idle", "user"})
            for (int cpu = 0; cpu < 4; ++cpu)
                text += std::string("node_cpu_seconds_total{cpu=\"") + std::to_string(cpu) + "\",mode=\"" + mode + "\",instance=\"cpu-node:9100\"} 1234.5 " + ms + "\n";
        text += std::string("go_gc_duration_seconds{quantile=\"0.5\",instance=\"other-node:9400\"} 0.001 ") + ms + "\n";
        text += std::string("go_gc_duration_seconds{quantile=\"1\",instance=\"other-node:9400\"} 0.002 ") + ms + "\n";
        text += std::string("process_resident_memory_bytes 1.2e8 ") + ms + "\n";
        text += std::string("DCGM_FI_DEV_POWER_USAGE{gpu=\"0\",Hostname=\"gpu-node\"} 300 ") + ms + "\n";
    }
    const ImportResult r = importPaths({writeFile(dir, "mixed.prom", text)});
    const FileReport& f = r.summary.files.at(0);
    EXPECT_TRUE(hasExactNote(f, "11 series of 3 metrics name no GPU: skipped (node_cpu_seconds_total, go_gc_duration_seconds, process_resident_memory_bytes)"))
        << ::testing::PrintToString(f.notes);
    EXPECT_EQ(f.counts.at("samples of no GPU (skipped)"), 22);
    EXPECT_EQ(f.counts.at("telemetry series"), 1);
    ASSERT_EQ(r.run.topology.hosts.size(), 1u);
    EXPECT_EQ(r.run.topology.hosts[0].name, "gpu-node");
    EXPECT_EQ(r.run.topology.gpus.size(), 1u);
    EXPECT_EQ(r.run.telemetry.metrics, std::vector<std::string>{std::string(kPowerMetric)});
}

// The same in a query_range response: the note names the metrics with the most series first,
// five at most.
TEST(TelemetrySeries, QueryRangeSeriesOfNoGpuAreNamedMostFirst) {
    test::ScratchDir dir;
    std::string result;
    auto series = [&](const std::string& labels) {
        result += (result.empty() ? "" : ",") + std::string("{\"metric\":{") + labels + "},\"values\":[[1735689600,\"1\"]]}";
    };
    for (int i = 0; i < 3; ++i) series("\"__name__\":\"node_load1\",\"instance\":\"n" + std::to_string(i) + "\"");
    for (int i = 0; i < 4; ++i) series("\"__name__\":\"node_cpu_seconds_total\",\"cpu\":\"" + std::to_string(i) + "\"");
    for (const char* name : {"up", "go_goroutines", "process_open_fds", "scrape_duration_seconds"}) series(std::string("\"__name__\":\"") + name + "\"");
    series("\"__name__\":\"DCGM_FI_DEV_GPU_TEMP\",\"gpu\":\"1\",\"Hostname\":\"g1\"");
    const std::string path = writeFile(dir, "range.json", "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[" + result + "]}}");
    const ImportResult r = importPaths({path});
    EXPECT_TRUE(hasExactNote(r.summary.files.at(0),
                        "11 series of 6 metrics name no GPU: skipped (node_cpu_seconds_total, node_load1, up, go_goroutines, process_open_fds, ...)"))
        << ::testing::PrintToString(r.summary.files.at(0).notes);
    ASSERT_EQ(r.run.topology.hosts.size(), 1u);
    EXPECT_EQ(r.run.topology.hosts[0].name, "g1");
}

// 100,000 one-sample series on 8 GPUs, each a metric of its own (prom-series-memory-blowup.sh
// scaled down): the import holds each in well under 200 bytes with its name, its sample and
// its cell, where a series of strings and vectors took 2 KB.
TEST(TelemetrySeries, AOneSampleSeriesTakesAFewDozenBytesPlusItsNameAndSample) {
    ImportedTelemetry t;
    const std::int64_t n = 100'000;
    for (std::int64_t i = 0; i < n; ++i) {
        const std::int32_t id = t.series(TelemetryGpu{"n1", "", "", static_cast<std::int32_t>(i % 8)}, "DCGM_FI_DEV_X" + std::to_string(i));
        t.add(id, 1735689600'000'000'000 + i, 1.0);
    }
    t.shrink();
    EXPECT_EQ(t.series().size(), static_cast<std::size_t>(n));
    EXPECT_EQ(t.gpuCount(), 8u);
    EXPECT_EQ(t.metricCount(), static_cast<std::size_t>(n));
    EXPECT_LT(t.bytes() / static_cast<std::size_t>(n), 200u) << t.bytes() << " bytes";
    // The same GPU and metric is the same series; its samples come back in the order read.
    const std::int32_t again = t.series(TelemetryGpu{"n1", "", "", 3}, "DCGM_FI_DEV_X3");
    EXPECT_EQ(again, 3);
    t.add(again, 1735689600'000'000'000 + 20 * kSecond, 2.0);
    const auto samples = t.rawSamples(t.series()[3]);
    ASSERT_EQ(samples.size(), 2u);
    EXPECT_EQ(samples[1].first, 1735689600'000'000'000 + 20 * kSecond);
    EXPECT_FLOAT_EQ(samples[1].second, 2.f);
    std::vector<TelemetryCell> cells;
    t.appendCells(t.series()[3], cells);
    ASSERT_EQ(cells.size(), 2u) << "two 10-second buckets";
    EXPECT_EQ(t.metric(t.series()[3].metric), "DCGM_FI_DEV_X3");
    EXPECT_EQ(t.gpu(t.series()[3].gpu).index, 3);
}

// Two files' telemetry merged: names are held once, each file's series keep their own
// samples (the run builder merges series of one GPU and metric), series() finds the first.
TEST(TelemetrySeries, AppendedFilesShareTheNameTablesAndKeepEachFilesSamples) {
    ImportedTelemetry a, b;
    const TelemetryGpu gpu{"n1", "0000:53:00", "", 0};
    a.add(a.series(gpu, kPowerMetric), 1735689600'000'000'000, 300);
    b.add(b.series(TelemetryGpu{"n2", "", "", 1}, kTemperatureMetric), 1735689600'000'000'000, 60);
    b.add(b.series(gpu, kPowerMetric), 1735689660'000'000'000, 310);
    a.append(std::move(b));
    ASSERT_EQ(a.series().size(), 3u);
    EXPECT_EQ(a.gpuCount(), 2u);
    EXPECT_EQ(a.metricCount(), 2u);
    EXPECT_EQ(a.samples(), 3);
    EXPECT_EQ(a.series()[2].gpu, a.series()[0].gpu);
    EXPECT_EQ(a.series()[2].metric, a.series()[0].metric);
    EXPECT_EQ(a.rawSamples(a.series()[2]).at(0).second, 310.f);
    EXPECT_EQ(a.series(gpu, kPowerMetric), 0);
    EXPECT_EQ(a.metric(a.series()[1].metric), kTemperatureMetric);
    EXPECT_EQ(a.gpu(a.series()[1].gpu).host, "n2");
}

}  // namespace
}  // namespace faultline
