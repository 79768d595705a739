// GPU telemetry import: seconds and peak memory for a generated Prometheus query_range
// export and a generated series of dcgm-exporter scrapes, each of --mb MB (default 1024),
// imported into a run file as `faultline-cli import` does.
//   faultline_bench_telemetry [--mb N] [--workers N] [--keep DIR] [--only range|scrapes]
// Run with --only to measure one form's peak memory on its own.
#include "importers/importer.h"

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

using namespace faultline;

namespace {

constexpr long long kStart = 1735689600;  // 2025-01-01T00:00:00Z
constexpr int kGpusPerHost = 8;
const char* kMetrics[] = {"DCGM_FI_DEV_POWER_USAGE", "DCGM_FI_DEV_GPU_TEMP", "DCGM_FI_DEV_SM_CLOCK"};

double value(int metric, long long gpu, long long sample) {
    const double wobble = static_cast<double>((gpu * 7919 + sample * 104729) % 1000) / 1000.0;
    switch (metric) {
        case 0: return 650.0 + 50.0 * wobble;
        case 1: return 60.0 + 10.0 * wobble;
        default: return 1980.0 - 30.0 * wobble;
    }
}

std::uint64_t fileSize(const std::string& p) { return std::filesystem::file_size(p); }

// One query_range response: hosts x 8 GPUs x 3 metrics series, a sample every 15 s, as
// many samples per series as fill `bytes`.
void writeQueryRange(const std::string& path, std::uint64_t bytes) {
    const int hosts = 512;
    const long long series = hosts * kGpusPerHost * 3;
    const long long perSeries = static_cast<long long>(bytes / static_cast<std::uint64_t>(series) / 27);
    std::FILE* f = std::fopen(path.c_str(), "w");
    std::fputs("{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[", f);
    char buf[512];
    bool first = true;
    for (int m = 0; m < 3; ++m)
        for (int h = 0; h < hosts; ++h)
            for (int g = 0; g < kGpusPerHost; ++g) {
                std::fprintf(f, "%s{\"metric\":{\"__name__\":\"%s\",\"Hostname\":\"node%04d\",\"gpu\":\"%d\",\"UUID\":\"GPU-%08x-0000-0000-0000-%012d\",\"instance\":\"10.0.%d.%d:9400\",\"job\":\"dcgm\"},\"values\":[",
                             first ? "" : ",", kMetrics[m], h, g, h, g, h / 256, h % 256);
                first = false;
                const long long gpu = h * kGpusPerHost + g;
                for (long long s = 0; s < perSeries; ++s) {
                    const int n = std::snprintf(buf, sizeof buf, "%s[%lld.%03lld,\"%.3f\"]", s ? "," : "", kStart + s * 15, (gpu * 37) % 1000, value(m, gpu, s));
                    std::fwrite(buf, 1, static_cast<std::size_t>(n), f);
                }
                std::fputs("]}", f);
            }
    std::fputs("]}}\n", f);
    std::fclose(f);
}

// dcgm-exporter scrapes with timestamps, a file per group of 32 hosts (as a collector keeps
// them), 6 metrics per GPU, a scrape every 15 s, until `bytes` are written.
std::vector<std::string> writeScrapes(const std::string& dir, std::uint64_t bytes) {
    const int files = 16, hostsPerFile = 32;
    const char* metrics[] = {"DCGM_FI_DEV_POWER_USAGE", "DCGM_FI_DEV_GPU_TEMP", "DCGM_FI_DEV_SM_CLOCK", "DCGM_FI_DEV_MEM_CLOCK",
                             "DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS"};
    std::vector<std::string> paths;
    std::vector<std::FILE*> out;
    for (int i = 0; i < files; ++i) {
        paths.push_back(dir + "/dcgm-" + std::to_string(i) + ".prom");
        out.push_back(std::fopen(paths.back().c_str(), "w"));
    }
    char buf[1024];
    std::uint64_t written = 0;
    for (long long s = 0; written < bytes; ++s) {
        const long long ms = (kStart + s * 15) * 1000;
        for (int i = 0; i < files; ++i) {
            std::FILE* f = out[static_cast<std::size_t>(i)];
            for (int m = 0; m < 6; ++m) {
                written += static_cast<std::uint64_t>(std::fprintf(f, "# HELP %s dcgm field\n# TYPE %s gauge\n", metrics[m], metrics[m]));
                for (int h = 0; h < hostsPerFile; ++h)
                    for (int g = 0; g < kGpusPerHost; ++g) {
                        const int host = i * hostsPerFile + h;
                        const long long gpu = host * kGpusPerHost + g;
                        const int n = std::snprintf(buf, sizeof buf,
                                                    "%s{gpu=\"%d\",UUID=\"GPU-%08x-0000-0000-0000-%012d\",pci_bus_id=\"00000000:%02X:00.0\",device=\"nvidia%d\",modelName=\"NVIDIA H100 80GB HBM3\",Hostname=\"node%04d\",DCGM_FI_DRIVER_VERSION=\"550.54.15\"} %.3f %lld\n",
                                                    metrics[m], g, host, g, 0x18 + 0x11 * g, g, host, m < 3 ? value(m, gpu, s) : 100.0 + m, ms);
                        std::fwrite(buf, 1, static_cast<std::size_t>(n), f);
                        written += static_cast<std::uint64_t>(n);
                    }
            }
        }
    }
    for (std::FILE* f : out) std::fclose(f);
    return paths;
}

void importAndReport(const char* what, const std::vector<std::string>& inputs, const std::string& run, int workers) {
    std::uint64_t bytes = 0;
    for (const auto& p : inputs) bytes += fileSize(p);
    ImportOptions options;
    options.workers = workers;
    options.allowDisjoint = true;
    const auto t0 = std::chrono::steady_clock::now();
    const ImportSummary summary = importToRunFile(inputs, run, options);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    std::int64_t samples = 0;
    for (const FileReport& f : summary.files)
        if (auto it = f.counts.find("telemetry samples"); it != f.counts.end()) samples += it->second;
    std::printf("%-28s %7.1f MB in %zu file(s), %lld samples, %zu GPUs: %.2f s (%.0f MB/s), run file %.1f MB, peak RSS so far %.0f MB\n", what,
                static_cast<double>(bytes) / 1e6, inputs.size(), static_cast<long long>(samples), summary.gpus, secs, static_cast<double>(bytes) / 1e6 / secs,
                static_cast<double>(fileSize(run)) / 1e6, static_cast<double>(u.ru_maxrss) / 1024.0);
}

}  // namespace

int main(int argc, char** argv) {
    std::uint64_t mb = 1024;
    int workers = 2;
    std::string keep, only;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--mb")) mb = std::stoull(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--workers")) workers = std::stoi(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--keep")) keep = argv[i + 1];
        else if (!std::strcmp(argv[i], "--only")) only = argv[i + 1];
    }
    const std::string dir = keep.empty() ? (std::filesystem::temp_directory_path() / ("faultline-bench-telemetry-" + std::to_string(::getpid()))).string() : keep;
    std::filesystem::create_directories(dir);
    const std::uint64_t bytes = mb << 20;
    std::printf("generating %llu MB of each form in %s ...\n", static_cast<unsigned long long>(mb), dir.c_str());
    const std::string range = dir + "/query_range.json";
    if (only != "scrapes" && !std::filesystem::exists(range)) writeQueryRange(range, bytes);
    std::vector<std::string> scrapes;
    for (int i = 0; i < 16; ++i) scrapes.push_back(dir + "/dcgm-" + std::to_string(i) + ".prom");
    if (only != "range" && !std::filesystem::exists(scrapes.front())) scrapes = writeScrapes(dir, bytes);
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    std::printf("peak RSS after generating: %.0f MB (workers %d)\n", static_cast<double>(u.ru_maxrss) / 1024.0, workers);
    if (only != "scrapes") importAndReport("prometheus query_range", {range}, dir + "/range.faultline", workers);
    if (only != "range") importAndReport("dcgm-exporter scrapes", scrapes, dir + "/scrapes.faultline", workers);
    if (keep.empty()) std::filesystem::remove_all(dir);
    return 0;
}
