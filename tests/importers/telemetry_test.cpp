// GPU telemetry: dcgm-exporter scrapes and Prometheus API responses from NVIDIA's aicr
// evidence pages, Kepler's query_range export, an nvidia-smi --query-gpu log of a training
// run (../shared/realdata/telemetry), and fixtures for the spellings they lack.
#include "file_bytes.h"
#include "import_test_util.h"

#include "analysis/cluster_power.h"
#include "analysis/incidents.h"
#include "analysis/telemetry_warnings.h"
#include "importers/text/text_parse.h"
#include "model/run_file.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace faultline {
namespace {

using test::writeFile;
using test::errorOf;
using test::fixture;
using test::importPaths;
using test::realData;

const TelemetryRawSeries* rawOf(const Run& run, std::string_view metric, const std::string& host, std::int32_t local) {
    const auto m = run.telemetry.metricIndex(metric);
    const auto h = run.topology.findHost(host);
    if (!m || !h) return nullptr;
    const std::int32_t gpu = run.topology.hosts[static_cast<std::size_t>(*h)].firstGpu + local;
    for (const TelemetryRawSeries& s : run.telemetry.raw)
        if (s.metric == *m && s.gpu == gpu) return &s;
    return nullptr;
}

std::string pciOf(const Run& run, const std::string& host, std::int32_t local) {
    const auto h = run.topology.findHost(host);
    return h ? run.topology.gpus[static_cast<std::size_t>(run.topology.hosts[static_cast<std::size_t>(*h)].firstGpu + local)].pciBusId : "";
}

// The fenced blocks of an aicr evidence page: the one after the line holding `heading`.
std::string fencedBlockAfter(const std::string& page, const std::string& heading) {
    std::ifstream in(page);
    std::string line, block;
    bool seen = false, inside = false;
    while (std::getline(in, line)) {
        if (!seen) {
            seen = line.find(heading) != std::string::npos;
            continue;
        }
        if (line.rfind("```", 0) == 0) {
            if (inside) return block;
            inside = true;
            continue;
        }
        if (inside) block += line + "\n";
    }
    return block;
}

// A scrape without timestamps was taken when its file was written: the page's "Generated" time.
std::string writeScrape(const test::ScratchDir& dir, const std::string& page, const std::string& generated) {
    const std::string path = writeFile(dir, "scrape.prom", fencedBlockAfter(page, "Key GPU metrics from DCGM exporter"));
    const auto at = std::chrono::sys_time<std::chrono::nanoseconds>(std::chrono::nanoseconds(*parseIsoTime(generated)));
    std::filesystem::last_write_time(path, std::chrono::file_clock::from_sys(at));
    return path;
}

constexpr const char* kAicrFeb19 = "telemetry/aicr-4ddf3b8/docs/conformance/cncf/evidence/accelerator-metrics.md";
constexpr const char* kAicrFeb24 = "telemetry/aicr-1f1758a/docs/conformance/cncf/evidence/accelerator-metrics.md";
constexpr const char* kAicrMar10 = "telemetry/aicr-156a357/docs/conformance/cncf/evidence/accelerator-metrics.md";

TEST(Telemetry, DcgmExporterScrapeOfABusyH100HostGivesEachGpuItsPowerAndTemperature) {
    FAULTLINE_REQUIRE_REALDATA();
    test::ScratchDir dir;
    const std::string scrape = writeScrape(dir, realData(kAicrFeb19), "2026-02-19T19:30:44Z");
    const ImportResult r = importPaths({scrape});
    EXPECT_EQ(r.run.info.startEpochNs, *parseIsoTime("2026-02-19T19:30:44Z"));
    EXPECT_EQ(r.summary.files.at(0).format, "prometheus-text");
    EXPECT_EQ(r.summary.files.at(0).counts.at("telemetry samples"), 30);
    const std::string host = "ip-100-64-171-120.ec2.internal";
    ASSERT_EQ(r.run.topology.hosts.size(), 1u);
    EXPECT_EQ(r.run.topology.hosts[0].name, host);
    EXPECT_EQ(r.run.topology.gpus.size(), 8u);
    // gpu 6 is bus B9 and busy: 115.22 W, 31 C; gpu 0 idles at 26 C, 67.268 W.
    EXPECT_EQ(pciOf(r.run, host, 6), "0000:b9:00.0");
    const TelemetryRawSeries* power6 = rawOf(r.run, kPowerMetric, host, 6);
    ASSERT_NE(power6, nullptr);
    ASSERT_EQ(power6->values.size(), 1u);
    EXPECT_FLOAT_EQ(power6->values[0], 115.22f);
    EXPECT_FLOAT_EQ(rawOf(r.run, kTemperatureMetric, host, 6)->values[0], 31.f);
    EXPECT_FLOAT_EQ(rawOf(r.run, kTemperatureMetric, host, 0)->values[0], 26.f);
    EXPECT_FLOAT_EQ(rawOf(r.run, kPowerMetric, host, 0)->values[0], 67.268f);
    // MEM_COPY_UTIL is sampled for gpus 0-5 only.
    EXPECT_NE(rawOf(r.run, "DCGM_FI_DEV_MEM_COPY_UTIL", host, 5), nullptr);
    EXPECT_EQ(rawOf(r.run, "DCGM_FI_DEV_MEM_COPY_UTIL", host, 6), nullptr);
    // Every level summarises the one sample as itself, from the sample: no level stores it again.
    ASSERT_FALSE(r.run.telemetry.levels.empty());
    for (std::size_t l = 0; l < r.run.telemetry.levels.size(); ++l) {
        EXPECT_TRUE(r.run.telemetry.level(l).series.empty()) << "level " << l;
        std::size_t series = 0;
        for (std::size_t m = 0; m < r.run.telemetry.metrics.size(); ++m) {
            std::vector<TelemetrySummarySeries> read;
            for (const TelemetrySummarySeries& s : r.run.telemetry.metricSeries(l, static_cast<std::int32_t>(m), read)) {
                ++series;
                EXPECT_EQ(s.buckets.size(), 1u);
                EXPECT_EQ(s.mean, s.max);
            }
        }
        EXPECT_EQ(series, 30u) << "level " << l;
    }
}

TEST(Telemetry, PrometheusInstantQueriesMatchTheScrapeOnTheSameGpusByUuidAndBus) {
    FAULTLINE_REQUIRE_REALDATA();
    test::ScratchDir dir;
    const std::string page = realData(kAicrFeb19);
    const std::string scrape = writeScrape(dir, page, "2026-02-19T19:30:44Z");
    const std::string power = writeFile(dir, "power.json", fencedBlockAfter(page, "GPU Power Draw (DCGM_FI_DEV_POWER_USAGE)"));
    const std::string fb = writeFile(dir, "fb.json", fencedBlockAfter(page, "GPU Memory Used (DCGM_FI_DEV_FB_USED)"));
    const ImportResult r = importPaths({scrape, power, fb});
    EXPECT_EQ(r.summary.files.at(1).format, "prometheus-json");
    EXPECT_EQ(r.summary.files.at(1).counts.at("telemetry samples"), 8);
    const std::string host = "ip-100-64-171-120.ec2.internal";
    EXPECT_EQ(r.run.topology.gpus.size(), 8u);  // the queries name the scrape's GPUs, no new ones
    const TelemetryRawSeries* power6 = rawOf(r.run, kPowerMetric, host, 6);
    ASSERT_NE(power6, nullptr);
    ASSERT_EQ(power6->values.size(), 2u);  // the scrape's (written 19:30:44), then the query's (19:31:05)
    EXPECT_FLOAT_EQ(power6->values[0], 115.22f);
    EXPECT_FLOAT_EQ(power6->values[1], 115.215f);
    const TelemetryRawSeries* fb6 = rawOf(r.run, "DCGM_FI_DEV_FB_USED", host, 6);
    ASSERT_NE(fb6, nullptr);
    EXPECT_FLOAT_EQ(fb6->values[0], 74198.f);
    EXPECT_EQ(fb6->times[0] + r.run.info.startEpochNs, 1771529464'895'000'000);
}

TEST(Telemetry, TwoScrapesOfOneHostFiveDaysApartAreOneGpuSetWithBothReadings) {
    FAULTLINE_REQUIRE_REALDATA();
    test::ScratchDir dir;
    const std::string first = writeFile(dir, "feb19.json", fencedBlockAfter(realData(kAicrFeb19), "GPU Power Draw (DCGM_FI_DEV_POWER_USAGE)"));
    const std::string second = writeFile(dir, "feb24.json", fencedBlockAfter(realData(kAicrFeb24), "GPU Power Draw (DCGM_FI_DEV_POWER_USAGE)"));
    ImportOptions options;
    options.allowDisjoint = true;  // five days apart: the user says they are one run
    const ImportResult r = importPaths({first, second}, options);
    const std::string host = "ip-100-64-171-120.ec2.internal";
    EXPECT_EQ(r.run.topology.gpus.size(), 8u);
    const TelemetryRawSeries* power6 = rawOf(r.run, kPowerMetric, host, 6);
    ASSERT_NE(power6, nullptr);
    ASSERT_EQ(power6->values.size(), 2u);
    EXPECT_FLOAT_EQ(power6->values[0], 115.215f);
    EXPECT_FLOAT_EQ(power6->values[1], 68.529f);  // idle five days later
    EXPECT_FLOAT_EQ(rawOf(r.run, kPowerMetric, host, 3)->values[1], 69.771f);
    EXPECT_GT(toSeconds(r.run.info.duration), 5 * 86400 - 3600);
}

TEST(Telemetry, QueriesOfTwoHostsExtendTheTopologyWithTheSecondHostsGpus) {
    FAULTLINE_REQUIRE_REALDATA();
    test::ScratchDir dir;
    const std::string page = realData(kAicrMar10);
    const std::string scrape = writeScrape(dir, page, "2026-03-10T03:41:11Z");
    const std::string power = writeFile(dir, "power.json", fencedBlockAfter(page, "GPU Power Draw (DCGM_FI_DEV_POWER_USAGE)"));
    const ImportResult r = importPaths({scrape, power});
    EXPECT_EQ(r.summary.files.at(1).counts.at("telemetry samples"), 16);
    ASSERT_EQ(r.run.topology.hosts.size(), 2u);
    EXPECT_EQ(r.run.topology.gpus.size(), 16u);
    // gpu 0 carries pod labels (one with an empty value); it is still gpu 0 of its host.
    const TelemetryRawSeries* power0 = rawOf(r.run, kPowerMetric, "ip-10-0-171-111.ec2.internal", 0);
    ASSERT_NE(power0, nullptr);
    EXPECT_FLOAT_EQ(power0->values.back(), 113.611f);
    EXPECT_FLOAT_EQ(rawOf(r.run, kTemperatureMetric, "ip-10-0-171-111.ec2.internal", 0)->values[0], 30.f);
    EXPECT_EQ(pciOf(r.run, "ip-10-0-171-111.ec2.internal", 0), "0000:53:00.0");
    const TelemetryRawSeries* other7 = rawOf(r.run, kPowerMetric, "ip-10-0-206-2.ec2.internal", 7);
    ASSERT_NE(other7, nullptr);
    EXPECT_FLOAT_EQ(other7->values[0], 69.523f);
}

TEST(Telemetry, NvidiaSmiLogWithoutIndexColumnTakesEachBlockOfRowsInDeviceOrder) {
    FAULTLINE_REQUIRE_REALDATA();
    ImportOptions options;
    options.host = "h100-node";
    const ImportResult r = importPaths({realData("telemetry/training_profile/h100-traces/power-trace_2025-07-26-23-32-09.csv")}, options);
    const FileReport& f = r.summary.files.at(0);
    EXPECT_EQ(f.format, "nvidia-smi-csv");
    EXPECT_EQ(f.counts.at("telemetry samples"), 45'632 * 3);
    EXPECT_EQ(r.run.topology.gpus.size(), 8u);
    const TelemetryRawSeries* power0 = rawOf(r.run, kPowerMetric, "h100-node", 0);
    const TelemetryRawSeries* power6 = rawOf(r.run, kPowerMetric, "h100-node", 6);
    ASSERT_NE(power0, nullptr);
    ASSERT_NE(power6, nullptr);
    EXPECT_EQ(power0->values.size(), 5'704u);
    EXPECT_FLOAT_EQ(power0->values[0], 69.32f);  // line 2
    EXPECT_EQ(r.run.info.startEpochNs, *parseIsoTime("2025-07-26T23:32:09.703Z"));
    // The run's peak, line 15144, 7th row of its block: GPU 6 at 598.09 W.
    const auto peak = std::max_element(power6->values.begin(), power6->values.end());
    EXPECT_FLOAT_EQ(*peak, 598.09f);
    EXPECT_EQ(power6->times[static_cast<std::size_t>(peak - power6->values.begin())] + r.run.info.startEpochNs, *parseIsoTime("2025-07-26T23:35:37.461Z"));
    // The first non-zero utilisation is line 178: GPU 0's 23rd sample, 2 % at 78.73 W.
    const TelemetryRawSeries* util0 = rawOf(r.run, "DCGM_FI_DEV_GPU_UTIL", "h100-node", 0);
    ASSERT_NE(util0, nullptr);
    const auto firstBusy = std::find_if(util0->values.begin(), util0->values.end(), [](float v) { return v > 0; });
    ASSERT_EQ(firstBusy - util0->values.begin(), 22);
    EXPECT_FLOAT_EQ(*firstBusy, 2.f);
    EXPECT_FLOAT_EQ(power0->values[22], 78.73f);
    EXPECT_EQ(rawOf(r.run, "DCGM_FI_DEV_FB_USED", "h100-node", 0)->values[0], 132.f);
    // The 10 s level: 70 buckets over 11 min 39 s, the peak's bucket holding 598.09 as its max.
    EXPECT_EQ(r.run.telemetry.levels.front().bucket, 10 * kSecond);
    float maxOfMax = 0;
    std::vector<TelemetrySummarySeries> read;
    for (const auto& s : r.run.telemetry.metricSeries(0, *r.run.telemetry.metricIndex(kPowerMetric), read))
        for (float v : s.max) maxOfMax = std::max(maxOfMax, v);
    EXPECT_FLOAT_EQ(maxOfMax, 598.09f);
}

TEST(Telemetry, KeplerQueryRangeExportGivesTheNodesGpuEnergyCounters) {
    FAULTLINE_REQUIRE_REALDATA();
    const ImportResult r = importPaths({realData("telemetry/kepler-model-server/tests/data/prom_output/idle.json")});
    EXPECT_EQ(r.summary.files.at(0).format, "prometheus-json");
    ASSERT_EQ(r.run.topology.hosts.size(), 1u);
    EXPECT_EQ(r.run.topology.hosts[0].name, "kind-fms-control-plane");
    EXPECT_GE(r.run.topology.gpus.size(), 5u);
    const TelemetryRawSeries* idle0 = rawOf(r.run, "kepler_node_gpu_joules_total{mode=\"idle\"}", "kind-fms-control-plane", 0);
    ASSERT_NE(idle0, nullptr);
    ASSERT_EQ(idle0->values.size(), 7u);
    EXPECT_FLOAT_EQ(idle0->values.front(), 1586.031f);
    EXPECT_FLOAT_EQ(idle0->values.back(), 1982.526f);
    EXPECT_EQ(r.run.info.startEpochNs, 1702462599'000'000'000);
    EXPECT_EQ(r.run.info.duration, 87 * kSecond);
    // The node's own (platform, RAPL) series are no GPU's: counted, not stored.
    EXPECT_GT(r.summary.files.at(0).counts.at("samples of no GPU (skipped)"), 0);
}

TEST(Telemetry, SeriesOfTimestampedScrapesKeepsUnknownDcgmFieldsByName) {
    const ImportResult r = importPaths({fixture("telemetry/dcgm_scrapes.prom")});
    EXPECT_EQ(r.summary.files.at(0).format, "prometheus-text");
    const TelemetryRawSeries* clock1 = rawOf(r.run, kSmClockMetric, "node01", 1);
    ASSERT_NE(clock1, nullptr);
    ASSERT_EQ(clock1->values.size(), 2u);
    EXPECT_FLOAT_EQ(clock1->values[1], 1395.f);
    EXPECT_EQ(clock1->times[1], 15 * kSecond);
    EXPECT_EQ(r.run.info.startEpochNs, 1735689600'000'000'000);
    EXPECT_FLOAT_EQ(rawOf(r.run, "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS", "node01", 1)->values[0], 32.f);
    EXPECT_FLOAT_EQ(rawOf(r.run, "DCGM_FI_DEV_ECC_SBE_VOL_TOTAL", "node01", 0)->values[1], 9.f);
    EXPECT_FLOAT_EQ(rawOf(r.run, "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", "node01", 0)->values[0], 0.612f);
    EXPECT_FLOAT_EQ(rawOf(r.run, "DCGM_FI_DEV_FUTURE_FIELD", "node01", 0)->values[0], 7.f);
    EXPECT_EQ(r.summary.files.at(0).counts.at("samples of no GPU (skipped)"), 1);
    // Both scrapes fall in one minute: the minute level holds their min, mean and max.
    EXPECT_EQ(r.run.telemetry.levels.at(1).bucket, kMinute);
    const auto power = *r.run.telemetry.metricIndex(kPowerMetric);
    const auto gpu1 = *r.run.topology.findHost("node01");
    int checked = 0;
    std::vector<TelemetrySummarySeries> read;
    for (const TelemetrySummarySeries& s : r.run.telemetry.metricSeries(1, power, read)) {
        if (s.gpu != r.run.topology.hosts[static_cast<std::size_t>(gpu1)].firstGpu + 1) continue;
        ASSERT_EQ(s.buckets.size(), 1u);
        EXPECT_FLOAT_EQ(s.min[0], 440.75f);
        EXPECT_FLOAT_EQ(s.max[0], 455.25f);
        EXPECT_FLOAT_EQ(s.mean[0], 448.f);
        ++checked;
    }
    EXPECT_EQ(checked, 1) << "one minute series of that GPU's power";
}

TEST(Telemetry, OpenMetricsSecondsStopAtEofAndSkipNaN) {
    const ImportResult r = importPaths({fixture("telemetry/node02.openmetrics")});
    const TelemetryRawSeries* temp = rawOf(r.run, kTemperatureMetric, "node02", 0);
    ASSERT_NE(temp, nullptr);
    ASSERT_EQ(temp->values.size(), 2u);
    EXPECT_FLOAT_EQ(temp->values[1], 64.f);
    EXPECT_EQ(temp->times[1], 60'500'000'000);
}

TEST(Telemetry, QueryRangeMatrixWithEnvelopeSkipsNaNAndNonGpuSeries) {
    const ImportResult r = importPaths({fixture("telemetry/query_range.json")});
    EXPECT_EQ(r.summary.files.at(0).format, "prometheus-json");
    const TelemetryRawSeries* p0 = rawOf(r.run, kPowerMetric, "node03", 0);
    ASSERT_NE(p0, nullptr);
    ASSERT_EQ(p0->values.size(), 3u);
    EXPECT_FLOAT_EQ(p0->values[2], 120.5f);
    EXPECT_EQ(p0->times[2], 45 * kSecond);
    EXPECT_EQ(rawOf(r.run, kPowerMetric, "node03", 1)->times[0], 500'000'000);
    EXPECT_EQ(r.summary.files.at(0).counts.at("NaN or infinite samples (skipped)"), 1);
}

TEST(Telemetry, NvidiaSmiCsvWithoutHeaderTakesTheFieldsGiven) {
    ImportOptions options;
    options.format = "nvidia-smi-csv";
    options.host = "node04";
    EXPECT_NE(errorOf([&] { importPaths({fixture("telemetry/smi_noheader.csv")}, options); }).find("smi_noheader.csv:1: no header line"), std::string::npos);
    options.queryGpuFields = "timestamp,index,pci.bus_id,power.draw,temperature.gpu,clocks.sm";
    const ImportResult r = importPaths({fixture("telemetry/smi_noheader.csv")}, options);
    const TelemetryRawSeries* p0 = rawOf(r.run, kPowerMetric, "node04", 0);
    ASSERT_NE(p0, nullptr);
    EXPECT_EQ(p0->values.size(), 1u);  // [N/A] is no reading
    EXPECT_FLOAT_EQ(rawOf(r.run, kPowerMetric, "node04", 1)->values[1], 430.5f);
    EXPECT_FLOAT_EQ(rawOf(r.run, kSmClockMetric, "node04", 1)->values[1], 1395.f);
    EXPECT_EQ(pciOf(r.run, "node04", 1), "0000:2a:00.0");
}

TEST(Telemetry, NvidiaSmiCsvColumnsInAnyOrderWithHexThrottleReasons) {
    ImportOptions options;
    options.host = "node07";
    const ImportResult r = importPaths({fixture("telemetry/smi_index.csv")}, options);
    EXPECT_EQ(r.summary.files.at(0).format, "nvidia-smi-csv");
    EXPECT_FLOAT_EQ(rawOf(r.run, "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS", "node07", 1)->values[0], 32.f);
    EXPECT_FLOAT_EQ(rawOf(r.run, kTemperatureMetric, "node07", 1)->values[1], 82.f);
    EXPECT_FLOAT_EQ(rawOf(r.run, kSmClockMetric, "node07", 0)->values[0], 1980.f);
}

TEST(Telemetry, NvidiaSmiAndDcgmiDmonColumns) {
    const ImportResult smi = importPaths({fixture("telemetry/node05.dmon")});
    EXPECT_EQ(smi.summary.files.at(0).format, "gpu-dmon");
    const TelemetryRawSeries* p1 = rawOf(smi.run, kPowerMetric, "node05", 1);
    ASSERT_NE(p1, nullptr);
    EXPECT_EQ(p1->values.size(), 1u);  // "-": not reported
    EXPECT_FLOAT_EQ(rawOf(smi.run, kSmClockMetric, "node05", 1)->values[1], 1395.f);
    EXPECT_EQ(rawOf(smi.run, kSmClockMetric, "node05", 1)->times[1], kSecond);
    EXPECT_EQ(smi.run.info.startEpochNs, *parseIsoTime("2025-01-01T00:00:00Z"));

    const ImportResult dcgmi = importPaths({fixture("telemetry/node06.dcgmi")});
    EXPECT_EQ(dcgmi.summary.files.at(0).format, "gpu-dmon");
    const TelemetryRawSeries* d1 = rawOf(dcgmi.run, kPowerMetric, "node06", 1);
    ASSERT_NE(d1, nullptr);
    ASSERT_EQ(d1->values.size(), 2u);
    EXPECT_FLOAT_EQ(d1->values[1], 452.7f);
    EXPECT_EQ(d1->times[1] - d1->times[0], kSecond);  // dmon's default interval
    EXPECT_FLOAT_EQ(rawOf(dcgmi.run, kSmClockMetric, "node06", 1)->values[0], 1755.f);
    EXPECT_FALSE(dcgmi.summary.files.at(0).notes.empty());
}

TEST(Telemetry, RunFileKeepsTheSamplesAndSummaries) {
    test::ScratchDir dir;
    const ImportResult r = importPaths({fixture("telemetry/dcgm_scrapes.prom"), fixture("telemetry/node02.openmetrics")});
    const std::string path = dir.file("t.faultline");
    writeRunFile(r.run, path);
    const faultline::Run back = readRunFile(path);
    ASSERT_EQ(back.telemetry.metrics, r.run.telemetry.metrics);
    ASSERT_EQ(back.telemetry.rawSeries().size(), r.run.telemetry.raw.size());
    for (std::size_t i = 0; i < back.telemetry.rawSeries().size(); ++i) {
        EXPECT_EQ(back.telemetry.rawSeries()[i].times, r.run.telemetry.raw[i].times);
        EXPECT_EQ(back.telemetry.rawSeries()[i].values, r.run.telemetry.raw[i].values);
    }
    ASSERT_EQ(back.telemetry.levels.size(), r.run.telemetry.levels.size());
    for (std::size_t l = 0; l < back.telemetry.levels.size(); ++l) {
        EXPECT_EQ(back.telemetry.levels[l].bucket, r.run.telemetry.levels[l].bucket);
        ASSERT_EQ(back.telemetry.level(l).series.size(), r.run.telemetry.levels[l].series.size());
        for (std::size_t s = 0; s < back.telemetry.level(l).series.size(); ++s) {
            EXPECT_EQ(back.telemetry.level(l).series[s].buckets, r.run.telemetry.levels[l].series[s].buckets);
            EXPECT_EQ(back.telemetry.level(l).series[s].mean, r.run.telemetry.levels[l].series[s].mean);
        }
        // As a view reads them, with the series the samples stand in for.
        for (std::size_t m = 0; m < back.telemetry.metrics.size(); ++m) {
            std::vector<TelemetrySummarySeries> fromFile, inMemory;
            const auto a = back.telemetry.metricSeries(l, static_cast<std::int32_t>(m), fromFile);
            const auto b = r.run.telemetry.metricSeries(l, static_cast<std::int32_t>(m), inMemory);
            ASSERT_EQ(a.size(), b.size()) << "level " << l << ", metric " << m;
            for (std::size_t s = 0; s < a.size(); ++s) {
                EXPECT_EQ(a[s].gpu, b[s].gpu);
                EXPECT_EQ(a[s].buckets, b[s].buckets);
                EXPECT_EQ(a[s].mean, b[s].mean);
            }
        }
    }
}

// Scrapes 15 s apart: each sample is a 10 s bucket of its own, so the samples stand in for
// that level, and the minute level, where two scrapes meet, is stored. What the stand-in
// gives is what the level would have held.
TEST(Telemetry, SamplesStandInForTheLevelsThatWouldRepeatThem) {
    const ImportResult r = importPaths({fixture("telemetry/dcgm_scrapes.prom")});
    const Telemetry& tm = r.run.telemetry;
    const auto power = *tm.metricIndex(kPowerMetric);
    const std::int32_t gpu1 = r.run.topology.hosts[static_cast<std::size_t>(*r.run.topology.findHost("node01"))].firstGpu + 1;
    const TelemetryRawSeries* raw = rawOf(r.run, kPowerMetric, "node01", 1);
    ASSERT_NE(raw, nullptr);
    EXPECT_EQ(raw->levelsFrom, 1);
    EXPECT_TRUE(tm.levels[0].series.empty()) << "the 10 s level keeps no series the samples stand in for";
    const std::vector<TelemetrySummarySeries> tenSeconds = tm.levelSeries(0, power, {gpu1});
    ASSERT_EQ(tenSeconds.size(), 1u);
    ASSERT_EQ(tenSeconds[0].buckets.size(), 2u);
    const std::int64_t start = r.run.info.startEpochNs;
    EXPECT_EQ(tenSeconds[0].buckets, (std::vector<std::int64_t>{start / (10 * kSecond), (start + 15 * kSecond) / (10 * kSecond)}));
    EXPECT_EQ(tenSeconds[0].mean, raw->values);
    EXPECT_FLOAT_EQ(tm.levelSeries(1, power, {gpu1}).at(0).mean.at(0), 448.f);
}

// A scrape of one-sample series (a million made-up metric names would be the hostile case)
// costs a raw row each: no level repeats the sample, and the run file grows by a few dozen
// bytes a series.
TEST(Telemetry, OneSampleSeriesTakeAFewDozenBytesEachInTheRunFile) {
    test::ScratchDir dir;
    // The run file of a scrape of `series` one-sample series on 8 GPUs.
    auto runFileOf = [&](int series) {
        const std::string scrape = dir.file(std::to_string(series) + ".prom");
        {
            std::ofstream out(scrape);
            for (int i = 0; i < series; ++i) out << "DCGM_FI_DEV_X" << i << "{gpu=\"" << i % 8 << "\",Hostname=\"n1\"} 1 1735689600000\n";
        }
        const ImportResult r = importPaths({scrape});
        EXPECT_EQ(r.run.telemetry.raw.size(), static_cast<std::size_t>(series));
        for (const TelemetryLevel& level : r.run.telemetry.levels) EXPECT_TRUE(level.series.empty());
        const std::string path = dir.file(std::to_string(series) + ".faultline");
        writeRunFile(r.run, path);
        return path;
    };
    const std::string few = runFileOf(2'000), many = runFileOf(20'000);
    const auto perSeries = static_cast<double>(std::filesystem::file_size(many) - std::filesystem::file_size(few)) / 18'000;
    EXPECT_LT(perSeries, 80.0) << "bytes of run file per one-sample series";
    const faultline::Run back = readRunFile(many);
    std::vector<TelemetrySummarySeries> read;
    const auto day = back.telemetry.metricSeries(back.telemetry.levels.size() - 1, *back.telemetry.metricIndex("DCGM_FI_DEV_X7"), read);
    ASSERT_EQ(day.size(), 1u);
    EXPECT_EQ(day[0].mean, std::vector<float>{1.f});
}

// Two GPUs' scrapes summed: 690.5 + 455.25 W in the first 10 s, 701.5 + 440.75 W in the next.
TEST(Telemetry, ClusterPowerSumsTheGpusPowerPerBucket) {
    const ImportResult r = importPaths({fixture("telemetry/dcgm_scrapes.prom")});
    const ClusterPower p = clusterPower(r.run);
    EXPECT_TRUE(p.fromTelemetry);
    EXPECT_EQ(p.gpus, 2);
    ASSERT_EQ(p.curve.size(), 2u);
    EXPECT_DOUBLE_EQ(p.curve[0].megawatts, 1145.75e-6);
    EXPECT_DOUBLE_EQ(p.curve[1].megawatts, 1142.25e-6);
    EXPECT_EQ(p.curve[1].time - p.curve[0].time, 10 * kSecond);
    ASSERT_EQ(p.largestSwings.size(), 1u);
    EXPECT_NEAR(p.largestSwings[0].megawattsPerSecond, -3.5e-6 / 10, 1e-12);
}

// node01's gpu 0 counted 3 correctable ECC errors, then 9 fifteen seconds later: a failure of
// that GPU at 20 s lists the rise as its early warning; its neighbour's failure does not.
TEST(Telemetry, RisingEccCountersBeforeAFailureAreItsEarlyWarning) {
    ImportResult r = importPaths({fixture("telemetry/dcgm_scrapes.prom")});
    faultline::Run& run = r.run;
    const std::int32_t gpu0 = run.topology.hosts[static_cast<std::size_t>(*run.topology.findHost("node01"))].firstGpu;
    for (std::int32_t gpu : {gpu0, gpu0 + 1}) {
        Failure f;
        f.time = 20 * kSecond;
        f.cause = RootCause::GpuHbm3Memory;
        f.component = {ComponentKind::Gpu, gpu};
        f.gpus = {gpu};
        f.detail = "Xid 48";
        run.failures = {f};
        run.downtimes = {{20 * kSecond, 21 * kSecond, 22 * kSecond, 23 * kSecond, 0, false, RootCause::GpuHbm3Memory, 0, -1}};
        run.info.duration = 30 * kSecond;
        const std::vector<Incident> incidents = buildIncidents(run);
        ASSERT_EQ(incidents.size(), 1u);
        std::string warning;
        for (const IncidentEvent& e : incidents[0].chain)
            if (e.what.find("early warning") != std::string::npos) warning = e.what;
        if (gpu == gpu0) {
            EXPECT_EQ(warning, "early warning on node01-gpu0: correctable ECC errors (volatile) rose from 3 to 9 in the hour before");
        } else {
            EXPECT_EQ(warning, "");
        }
    }
}

// node01's gpu 1 ran at 1,410 and 1,395 MHz with SW thermal slowdown (0x20) while gpu 0 held
// 1,980: a straggler episode of gpu 1 then says so; gpu 0's says nothing.
TEST(Telemetry, SlowGpusClockAndThrottleReasonExplainItsStragglerEpisode) {
    const ImportResult r = importPaths({fixture("telemetry/dcgm_scrapes.prom")});
    const std::int32_t gpu0 = r.run.topology.hosts[static_cast<std::size_t>(*r.run.topology.findHost("node01"))].firstGpu;
    EXPECT_EQ(stragglerEvidence(r.run, gpu0 + 1, 0, 20 * kSecond), "SM clock 1,403 MHz vs peers 1,980; SW thermal slowdown; power 448 W vs peers 696");
    EXPECT_EQ(stragglerEvidence(r.run, gpu0, 0, 20 * kSecond), "");
    EXPECT_EQ(throttleReasons(0x1 | 0x2 | 0x80), "HW power brake");
}

// Past its budget an import keeps coarser cells: rolled up, a minute holds what its six
// 10-second buckets held, whatever order they came in.
TEST(Telemetry, CellsRolledUpKeepMinMeanMaxOfWhatTheyHeld) {
    ImportedTelemetry t;
    const std::int32_t id = t.series(TelemetryGpu{"h", "", "", 0}, kPowerMetric);
    const EpochNs minute = 1735689600'000'000'000;
    for (int k = 11; k >= 0; --k) t.add(id, minute + k * 10 * kSecond, 100.0 + k);  // two minutes, backwards
    EXPECT_EQ(t.finestLevel(), 0u);
    std::vector<TelemetryCell> cells;
    t.appendCells(t.series()[0], cells);
    const std::vector<TelemetryCell> minutes = rollUpCells(cells, 0, 1);
    ASSERT_EQ(minutes.size(), 2u);
    EXPECT_EQ(minutes[0].bucket, 1735689600 / 60);
    EXPECT_EQ(minutes[0].count, 6u);
    EXPECT_FLOAT_EQ(minutes[0].min, 100.f);
    EXPECT_FLOAT_EQ(minutes[0].max, 105.f);
    EXPECT_DOUBLE_EQ(minutes[0].sum / minutes[0].count, 102.5);
    EXPECT_FLOAT_EQ(minutes[1].max, 111.f);
}

// The JSON is read in 1 MB chunks: a separator, a string or a number cut by a chunk's end
// reads the same as anywhere else.
TEST(Telemetry, JsonTokensCutByTheReadChunkReadTheSame) {
    test::ScratchDir dir;
    const std::string head = R"({"status":"success","data":{"resultType":"matrix","result":[{"metric":{"__name__":"DCGM_FI_DEV_GPU_TEMP","gpu":"0","Hostname":"a","pad":")";
    for (int shift = -3; shift <= 3; ++shift) {
        // The metric's '}' is the chunk's last byte (shift 0), or a few bytes either side.
        const std::size_t padding = (1u << 20) - head.size() - 2 + static_cast<std::size_t>(shift + 3) - 3;
        const std::string text = head + std::string(padding, 'x') + R"("},"values":[[1735689600,"61"],[1735689615,"62.5"]]}]}})";
        const std::string path = writeFile(dir, "chunk" + std::to_string(shift + 3) + ".json", text);
        const ImportResult r = importPaths({path});
        const TelemetryRawSeries* temp = rawOf(r.run, kTemperatureMetric, "a", 0);
        ASSERT_NE(temp, nullptr) << shift;
        ASSERT_EQ(temp->values.size(), 2u) << shift;
        EXPECT_FLOAT_EQ(temp->values[1], 62.5f) << shift;
    }
}

TEST(Telemetry, OddDmonHeadersAndImpossibleDatesAreSkippedByLine) {
    test::ScratchDir dir;
    ImportOptions options;
    options.format = "gpu-dmon";
    // The index after the metrics: a short row is skipped, named, not read past its end.
    const std::string odd = writeFile(dir, "odd.dmon", "# pwr gpu\n# W Idx\n 69\n 70 0\n");
    const ImportResult r = importPaths({odd}, options);
    EXPECT_EQ(r.summary.files.at(0).skippedLines, 1);
    options.format = "nvidia-smi-csv";
    const std::string year = writeFile(dir, "year.csv", "timestamp, index, power.draw [W]\n0000/01/01 00:00:00.000, 0, 70 W\n2025/01/01 00:00:00.000, 0, 71 W\n");
    const ImportResult y = importPaths({year}, options);
    EXPECT_EQ(y.summary.files.at(0).skippedLines, 1);
    EXPECT_NE(y.summary.files.at(0).warnings.at(0).find("year.csv:2: expected a timestamp"), std::string::npos) << y.summary.files.at(0).warnings.at(0);
}

TEST(Telemetry, BrokenJsonNamesTheFileAndByte) {
    test::ScratchDir dir;
    const std::string cut = writeFile(dir, "cut.json", R"({"status":"success","data":{"resultType":"matrix","result":[{"metric":{"__name__":"DCGM_FI_DEV_GPU_TEMP","gpu":"0","Hostname":"a"},"values":[[1735689600,"61"],[17356)");
    ImportOptions options;
    options.format = "prometheus-json";
    const std::string message = errorOf([&] { importPaths({cut}, options); });
    EXPECT_NE(message.find("cut.json: byte"), std::string::npos) << message;
    EXPECT_NE(message.find("cut short"), std::string::npos) << message;
    const std::string failed = writeFile(dir, "failed.json", R"({"status":"error","errorType":"bad_data","error":"invalid parameter \"query\""})");
    EXPECT_NE(errorOf([&] { importPaths({failed}, options); }).find("the Prometheus query failed (status \"error\": invalid parameter \"query\")"), std::string::npos);
}

}  // namespace
}  // namespace faultline

namespace faultline {
namespace {

// A scrape of more series than the import's cap (prom-series-memory-blowup.sh, scaled down):
// refused with the file, the cap and the option that raises it, before the series are held;
// under a cap it fits, it imports. Series of no GPU are counted and skipped, never held.
std::string manySeriesScrape(test::ScratchDir& dir, int series) {
    const std::string path = dir.file("many.prom");
    std::ofstream out(path);
    for (int i = 0; i < series; ++i) out << "DCGM_FI_DEV_X" << i << "{gpu=\"" << i % 8 << "\",Hostname=\"n1\"} 1 1735689600000\n";
    out << "node_load1{instance=\"n1\"} 0.5 1735689600000\n";
    return path;
}

TEST(Telemetry, MoreSeriesThanTheCapAreRefusedNamingTheCapAndTheOption) {
    test::ScratchDir dir;
    const std::string path = manySeriesScrape(dir, 101);
    ImportOptions options;
    options.maxSeries = 100;
    EXPECT_EQ(errorOf([&] { importPaths({path}, options); }),
              path + ": more than 100 telemetry series (one per GPU and metric) in this import, the most one import holds; import fewer files at once, "
                     "or raise the cap with --max-series N (each series takes memory while the import runs)");
    options.maxSeries = 101;
    const ImportResult r = importPaths({path}, options);
    EXPECT_EQ(r.run.telemetry.metrics.size(), 101u);
    EXPECT_EQ(r.summary.files.at(0).counts.at("samples of no GPU (skipped)"), 1);
}

// The cap counts distinct series: the same series scraped by many files counts once.
TEST(Telemetry, TheSameSeriesInManyScrapesCountsOnceAgainstTheCap) {
    test::ScratchDir dir;
    std::vector<std::string> paths;
    for (int f = 0; f < 4; ++f) {
        paths.push_back(dir.file("scrape" + std::to_string(f) + ".prom"));
        std::ofstream out(paths.back());
        for (int g = 0; g < 8; ++g) out << "DCGM_FI_DEV_POWER_USAGE{gpu=\"" << g << "\",Hostname=\"n1\"} 300 " << 1735689600000 + f * 15000 << "\n";
    }
    ImportOptions options;
    options.maxSeries = 8;
    const ImportResult r = importPaths(paths, options);
    EXPECT_EQ(r.run.topology.gpus.size(), 8u);
    options.maxSeries = 7;
    EXPECT_NE(errorOf([&] { importPaths(paths, options); }).find("more than 7 telemetry series"), std::string::npos);
}

}  // namespace
}  // namespace faultline
