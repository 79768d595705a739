// Importing a whole run's cluster files: simulates a run (the full 54-day llama3-405b by
// default), writes the files its cluster would have left (simulate --emit-logs), then imports
// them in a fresh process and prints the wall time, the input size and the importing
// process's peak resident memory. The target: 54 days, all jobs and node logs, under 10 s and
// 1 GB.
//
//   faultline_bench_cluster_import [--preset NAME] [--days D] [--workers N] [--dir DIR] [--keep]
//   faultline_bench_cluster_import --import-only DIR [--workers N]
#include "importers/importer.h"
#include "simulator/cluster_logs.h"
#include "simulator/simulator.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

double mbIn(const std::string& dir) {
    std::uintmax_t bytes = 0;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
        if (e.is_regular_file()) bytes += e.file_size();
    return static_cast<double>(bytes) / 1e6;
}

int importOnly(const std::string& dir, int workers) {
    faultline::ImportOptions options;
    options.workers = workers;
    const auto start = std::chrono::steady_clock::now();
    const faultline::ImportResult r = faultline::importFiles({dir}, options);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    const double mb = mbIn(dir);
    std::printf("imported %zu files, %.0f MB: %zu jobs, %zu downtimes, %zu steps, %zu checkpoints\n", r.summary.files.size(), mb,
                r.run.jobs.size(), r.run.downtimes.size(), r.run.steps.size(), r.run.checkpoints.size());
    std::printf("import: %.2f s wall (%.0f MB/s), peak resident memory %ld MB\n", seconds, mb / seconds, ru.ru_maxrss / 1024);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    std::string preset = "llama3-405b", dir, importDir;
    double days = 0;
    int workers = 0;
    bool keep = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
        if (a == "--preset") preset = next();
        else if (a == "--days") days = std::atof(next().c_str());
        else if (a == "--workers") workers = std::atoi(next().c_str());
        else if (a == "--dir") dir = next();
        else if (a == "--keep") keep = true;
        else if (a == "--import-only") importDir = next();
        else {
            std::fprintf(stderr, "usage: %s [--preset NAME] [--days D] [--workers N] [--dir DIR] [--keep] | --import-only DIR\n", argv[0]);
            return 2;
        }
    }
    try {
        if (!importDir.empty()) return importOnly(importDir, workers);
        faultline::SimulationParams p = faultline::simulationPreset(preset);
        if (days > 0) p.days = days;
        if (dir.empty()) dir = (std::filesystem::temp_directory_path() / ("faultline-bench-cluster-" + std::to_string(::getpid()))).string();
        {
            const auto start = std::chrono::steady_clock::now();
            const faultline::Run run = faultline::simulate(p);
            const faultline::ClusterLogSummary s = faultline::writeClusterLogs(run, dir, preset);
            std::printf("%s, %.0f days: %d job runs, %d kernel logs, %.0f MB written in %.2f s to %s\n", preset.c_str(), p.days, s.jobs,
                        s.kernelLogs, static_cast<double>(s.bytes) / 1e6,
                        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), dir.c_str());
        }
        std::fflush(stdout);
        // A fresh process, so that its peak memory is the import's alone.
        const pid_t child = fork();
        if (child == 0) {
            const std::string w = std::to_string(workers);
            execl("/proc/self/exe", argv[0], "--import-only", dir.c_str(), "--workers", w.c_str(), static_cast<char*>(nullptr));
            _exit(127);
        }
        int status = 0;
        waitpid(child, &status, 0);
        if (!keep) std::filesystem::remove_all(dir);
        return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "faultline_bench_cluster_import: %s\n", e.what());
        return 1;
    }
}
