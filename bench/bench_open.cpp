// Opening a run file, as `summary` and the app's first screen do: the stored figures alone
// (readStoredFigures), the whole run without its telemetry series (readRunFile), the first
// screen's incidents (with the early warnings in the failed GPUs' counters) and the cluster's
// power chart, then the finest telemetry level, which a view of every GPU at the finest zoom
// reads (the incidents read it whole before they read the failed GPUs' rows alone). Time and
// peak memory after each.
//
//   faultline_bench_open RUN.faultline
#include "analysis/cluster_power.h"
#include "analysis/incidents.h"
#include "model/error.h"
#include "model/run_file.h"

#include <chrono>
#include <cstdio>
#include <sys/resource.h>

namespace {

using Clock = std::chrono::steady_clock;

long peakMegabytes() {
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss / 1024;
}

double secondsSince(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s RUN.faultline\n", argv[0]);
        return 2;
    }
    try {
        auto t = Clock::now();
        const auto figures = faultline::readStoredFigures(argv[1]);
        std::printf("stored figures   %7.3f s  peak RSS %5ld MB  (%s)\n", secondsSince(t), peakMegabytes(), figures ? "stored at import" : "none: an older file");
        t = Clock::now();
        const faultline::Run run = faultline::readRunFile(argv[1]);
        std::printf("open the run     %7.3f s  peak RSS %5ld MB  (%zu steps, %zu telemetry levels)\n", secondsSince(t), peakMegabytes(), run.steps.size(),
                    run.telemetry.levels.size());
        t = Clock::now();
        const std::vector<faultline::Incident> incidents = faultline::buildIncidents(run);
        std::printf("incidents        %7.3f s  peak RSS %5ld MB  (%zu incidents)\n", secondsSince(t), peakMegabytes(), incidents.size());
        t = Clock::now();
        const faultline::ClusterPower power = faultline::clusterPower(run);
        std::printf("cluster power    %7.3f s  peak RSS %5ld MB  (%zu points, %s)\n", secondsSince(t), peakMegabytes(), power.curve.size(),
                    power.fromTelemetry ? "from telemetry" : "from the model");
        if (!run.telemetry.levels.empty()) {
            t = Clock::now();
            const faultline::TelemetryLevel& level = run.telemetry.level(0);
            std::printf("finest level     %7.3f s  peak RSS %5ld MB  (%zu series)\n", secondsSince(t), peakMegabytes(), level.series.size());
        }
    } catch (const faultline::Error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
    return 0;
}
