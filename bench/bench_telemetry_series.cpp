// Telemetry memory per series (issue 39): a Prometheus scrape of N one-sample series, as the
// reproducer prom-series-memory-blowup.sh writes it (a made-up metric name per series, on the
// 8 GPUs of one host), imported into a run file, then opened as `summary` opens it. Each step
// runs in a child process of its own, so each peak RSS is that step's alone; the figures per
// series are the peak less the child's RSS before the step, over N.
//   faultline_bench_telemetry_series [--series N[,N...]] [--keep DIR]   (default 200000,500000)
#include "importers/importer.h"
#include "model/error.h"
#include "model/run_file.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

using namespace faultline;

namespace {

using Clock = std::chrono::steady_clock;

long peakKb() {
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

// The resident set now (VmRSS), in KB: the start the peak is measured from.
long currentKb() {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
    return 0;
}

double secondsSince(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

void writeScrape(const std::string& path, long long series) {
    std::FILE* f = std::fopen(path.c_str(), "w");
    for (long long i = 0; i < series; ++i) std::fprintf(f, "DCGM_FI_DEV_X%lld{gpu=\"%lld\",Hostname=\"n1\"} 1 1735689600000\n", i, i % 8);
    std::fclose(f);
}

// Runs `step` in a child and waits for it; false when it failed.
bool inChild(const std::function<int()>& step) {
    std::fflush(stdout);
    const pid_t pid = ::fork();
    if (pid == 0) {
        int rc = 1;
        try {
            rc = step();
        } catch (const Error& e) {
            std::fprintf(stderr, "%s\n", e.what());
        }
        std::fflush(stdout);
        ::_exit(rc);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

void measure(const std::string& dir, long long n) {
    const std::string scrape = dir + "/s" + std::to_string(n) + ".prom";
    const std::string run = dir + "/s" + std::to_string(n) + ".faultline";
    writeScrape(scrape, n);
    std::filesystem::remove(run);
    const double perSeries = static_cast<double>(n);
    inChild([&] {
        ImportOptions options;
        options.allowDisjoint = true;
        options.maxSeries = static_cast<std::size_t>(n);
        const long before = currentKb();
        const auto t = Clock::now();
        const ImportSummary summary = importToRunFile({scrape}, run, options);
        std::printf("%8lld series  import  %6.2f s  peak RSS %6.0f MB  %6.0f B/series  (%zu GPUs, %zu hosts)\n", n, secondsSince(t),
                    static_cast<double>(peakKb()) / 1024.0, static_cast<double>(peakKb() - before) * 1024.0 / perSeries, summary.gpus, summary.hosts);
        return 0;
    });
    if (!std::filesystem::exists(run)) return;
    const auto bytes = std::filesystem::file_size(run);
    std::printf("%8lld series  run file %6.1f MB  %6.0f B/series\n", n, static_cast<double>(bytes) / 1e6, static_cast<double>(bytes) / perSeries);
    inChild([&] {
        const long before = currentKb();
        auto t = Clock::now();
        const auto figures = readStoredFigures(run);
        const double figuresSecs = secondsSince(t);
        t = Clock::now();
        const Run opened = readRunFile(run);
        const double openSecs = secondsSince(t);
        const long openPeak = peakKb();
        t = Clock::now();
        // Every series at the finest level, as views of all of them read it: the series the
        // level keeps, and the raw samples that stand in for the rest.
        const std::size_t rows = opened.telemetry.levels.empty() ? 0 : opened.telemetry.level(0).series.size();
        const std::size_t raw = opened.telemetry.rawSeries().size();
        std::printf("%8lld series  open    figures %.3f s (%s), run %.2f s peak RSS %.0f MB %.0f B/series; finest level %.2f s, %zu series kept + %zu raw, peak RSS %.0f MB %.0f B/series\n",
                    n, figuresSecs, figures ? "stored" : "none", openSecs, static_cast<double>(openPeak) / 1024.0, static_cast<double>(openPeak - before) * 1024.0 / perSeries,
                    secondsSince(t), rows, raw, static_cast<double>(peakKb()) / 1024.0, static_cast<double>(peakKb() - before) * 1024.0 / perSeries);
        return 0;
    });
    std::filesystem::remove(scrape);
    std::filesystem::remove(run);
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<long long> counts;
    std::string keep;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--series")) {
            for (std::string list = argv[i + 1]; !list.empty();) {
                const std::size_t comma = list.find(',');
                counts.push_back(std::stoll(list.substr(0, comma)));
                list = comma == std::string::npos ? "" : list.substr(comma + 1);
            }
        } else if (!std::strcmp(argv[i], "--keep")) {
            keep = argv[i + 1];
        }
    }
    if (counts.empty()) counts = {200'000, 500'000};
    const std::string dir = keep.empty() ? (std::filesystem::temp_directory_path() / ("faultline-bench-series-" + std::to_string(::getpid()))).string() : keep;
    std::filesystem::create_directories(dir);
    for (const long long n : counts) measure(dir, n);
    if (keep.empty()) std::filesystem::remove_all(dir);
    return 0;
}
