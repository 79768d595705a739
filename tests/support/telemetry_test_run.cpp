#include "telemetry_test_run.h"

#include "test_runs.h"

#include <algorithm>
#include <stdexcept>

namespace faultline::test {

namespace {

constexpr std::int32_t kHostsWithReadings = 4;

TelemetrySummarySeries summarise(const TelemetryRawSeries& raw, std::int64_t start, Nanos bucket) {
    TelemetrySummarySeries s;
    s.metric = raw.metric, s.gpu = raw.gpu;
    std::vector<int> counts;
    for (std::size_t k = 0; k < raw.times.size(); ++k) {
        const std::int64_t b = (start + raw.times[k]) / bucket;
        const float v = raw.values[k];
        if (s.buckets.empty() || s.buckets.back() != b) {
            s.buckets.push_back(b), s.min.push_back(v), s.mean.push_back(0), s.max.push_back(v), counts.push_back(0);
        }
        s.min.back() = std::min(s.min.back(), v), s.max.back() = std::max(s.max.back(), v);
        s.mean.back() += v, ++counts.back();
    }
    for (std::size_t i = 0; i < s.mean.size(); ++i) s.mean[i] /= static_cast<float>(counts[i]);
    return s;
}

Run build() {
    Run run = tinyRun();
    run.telemetry = {};  // the simulator's own readings give way to these known ones
    const Failure& f = telemetryTestFailure(run);
    std::vector<std::int32_t> gpus;
    for (std::int32_t h = 0; h < kHostsWithReadings; ++h)
        for (std::int32_t g : run.topology.gpusOfHost(h)) gpus.push_back(g);
    gpus.push_back(f.gpus.front());
    std::sort(gpus.begin(), gpus.end());
    gpus.erase(std::unique(gpus.begin(), gpus.end()), gpus.end());
    Telemetry& tm = run.telemetry;
    tm.metrics = {"DCGM_FI_DEV_POWER_USAGE", "DCGM_FI_DEV_GPU_TEMP", "DCGM_FI_DEV_SM_CLOCK"};
    float (*formulas[])(std::int32_t, std::int64_t) = {testPower, testTemperature, testSmClock};
    const std::int64_t samples = run.info.duration / kTelemetrySampleEvery + 1;
    for (std::int32_t m = 0; m < 3; ++m)
        for (std::int32_t g : gpus) {
            TelemetryRawSeries s;
            s.metric = m, s.gpu = g;
            for (std::int64_t k = 0; k < samples; ++k) {
                s.times.push_back(k * kTelemetrySampleEvery);
                s.values.push_back(formulas[m](g, k));
            }
            tm.raw.push_back(std::move(s));
        }
    for (Nanos bucket : {10 * kMinute, kHour}) {
        TelemetryLevel level;
        level.bucket = bucket;
        for (const TelemetryRawSeries& s : tm.raw) level.series.push_back(summarise(s, run.info.startEpochNs, bucket));
        tm.levels.push_back(std::move(level));
    }
    // A straggler episode of the failed GPU in the hours before, for the inspector to shade.
    run.stragglers.push_back({f.gpus.front(), std::max<Nanos>(0, f.time - 3 * kHour), std::max<Nanos>(0, f.time - 2 * kHour), 1.3, "test"});
    std::sort(run.stragglers.begin(), run.stragglers.end(), [](const StragglerEpisode& a, const StragglerEpisode& b) { return a.begin < b.begin; });
    return run;
}

}  // namespace

const Run& telemetryTinyRun() {
    static const Run run = build();
    return run;
}

const Failure& telemetryTestFailure(const Run& run) {
    for (const Failure& f : run.failures)
        if (f.component.kind == ComponentKind::Gpu && f.gpus.size() == 1) return f;
    throw std::runtime_error("the tiny run has no single-GPU failure");
}

std::int32_t gpuWithoutTelemetry(const Run& run) {
    // The last host's first GPU: past the hosts given readings, and not the failed GPU's.
    const std::int32_t g = run.topology.hosts.back().firstGpu;
    return g == telemetryTestFailure(run).gpus.front() ? g + 1 : g;
}

}  // namespace faultline::test
