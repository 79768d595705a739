// `faultline-cli import --prometheus` at scale: 2 days of 5 metrics for 1,024 GPUs every 15 s
// (59 million samples) pulled from a local Prometheus server (Debian's, started here on a
// history promtool backfilled from the simulator's telemetry) and written as a run file.
// Prints the wall time of `faultline-cli import --prometheus` and the peak resident memory of
// its process (making the history is not counted). The goal: under
// 20 s and under 300 MB. Options: --gpus N (default 1024), --days D (default 2).
#include "model/run_file.h"

#include "prometheus_server.h"
#include "test_runs.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace faultline;

int main(int argc, char** argv) {
    std::int32_t gpus = 1024;
    int days = 2;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        if (a == "--gpus") gpus = std::atoi(argv[i + 1]);
        else if (a == "--days") days = std::atoi(argv[i + 1]);
    }
    if (const auto missing = test::prometheusMissing()) {
        std::printf("skipped: %s\n", missing->c_str());
        return 0;
    }
    const auto made = std::chrono::steady_clock::now();
    const test::History& history =
        test::backfilledHistory({"bench-" + std::to_string(gpus) + "gpu-" + std::to_string(days) + "d", gpus, days * kDay, 15 * kSecond, true});
    std::printf("history: %d GPUs, %zu hosts, %lld samples a series, %zu metrics (made or found in %.1f s)\n", history.gpus, history.hosts.size(),
                static_cast<long long>(history.samples), history.metrics.size(),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - made).count());
    test::PrometheusProcess server(history.blocks);
    std::fflush(stdout);

    // The pull as a user runs it: faultline-cli in a process of its own, whose peak memory is
    // the pull's alone.
    std::string hosts;
    for (const std::string& h : history.hosts) hosts += (hosts.empty() ? "" : ",") + h;
    std::string metrics;
    for (const std::string& m : history.metrics) metrics += (metrics.empty() ? "" : ",") + m;
    const std::string out = "/tmp/faultline-bench-pull-" + std::to_string(::getpid()) + ".faultline";
    const std::vector<std::string> args = {FAULTLINE_CLI, "import", "--quiet", "--prometheus", server.url(), "--from", std::to_string(history.first / kSecond),
                                           "--to", std::to_string(history.last / kSecond), "--hosts", hosts, "--metrics", metrics, "-o", out};
    const auto begin = std::chrono::steady_clock::now();
    const pid_t child = ::fork();
    if (child == 0) {
        std::vector<char*> argv2;
        for (const std::string& a : args) argv2.push_back(const_cast<char*>(a.c_str()));
        argv2.push_back(nullptr);
        ::execv(argv2[0], argv2.data());
        ::_exit(127);
    }
    int status = 0;
    rusage usage{};
    ::wait4(child, &status, 0, &usage);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::printf("faultline-cli import --prometheus failed (status %d)\n", status);
        return 1;
    }
    const Run run = readRunFile(out);
    std::remove(out.c_str());
    std::size_t series = 0;
    if (!run.telemetry.levels.empty()) series = run.telemetry.level(0).series.size();  // read from the file when asked
    std::printf("pull: %zu metrics x %zu GPUs (%zu series in the run), %lld samples, %.2f s wall, run file written\n", history.metrics.size(),
                static_cast<std::size_t>(history.gpus), series, static_cast<long long>(history.samples) * history.gpus * static_cast<long long>(history.metrics.size()),
                seconds);
    std::printf("peak resident memory of the pulling process: %ld MB (user %.1f s, system %.1f s)\n", usage.ru_maxrss / 1024,
                static_cast<double>(usage.ru_utime.tv_sec) + static_cast<double>(usage.ru_utime.tv_usec) / 1e6,
                static_cast<double>(usage.ru_stime.tv_sec) + static_cast<double>(usage.ru_stime.tv_usec) / 1e6);
    return 0;
}
