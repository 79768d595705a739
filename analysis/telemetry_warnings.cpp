#include "telemetry_warnings.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace faultline {

bool isErrorCounter(const std::string& m) {
    return m.find("_ECC_") != std::string::npos || m.find("PCIE_REPLAY") != std::string::npos ||
           (m.find("_NVLINK_") != std::string::npos && m.find("ERROR") != std::string::npos) || m.find("XID_ERRORS") != std::string::npos;
}

namespace {

std::string number(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.0f", v);
    return b;
}

EarlyWarning warning(Nanos t, std::int32_t gpu, const std::string& metric, double from, double to, Nanos window) {
    std::string label(metricInfo(metric).label);
    if (!label.empty()) label[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(label[0])));
    const std::string span = window == kHour ? "the hour" : "the " + std::to_string(window / kMinute) + " min";
    return {t, gpu, metric, from, to, label + " rose from " + number(from) + " to " + number(to) + " in " + span + " before"};
}

}  // namespace

std::vector<EarlyWarning> earlyWarnings(const Run& run, const std::vector<std::int32_t>& gpus, Nanos before, Nanos window) {
    std::vector<EarlyWarning> out;
    const Telemetry& tm = run.telemetry;
    if (tm.empty() || gpus.empty()) return out;
    auto wanted = [&](std::int32_t metric, std::int32_t gpu) {
        return isErrorCounter(tm.metrics[static_cast<std::size_t>(metric)]) && std::find(gpus.begin(), gpus.end(), gpu) != gpus.end();
    };
    const Nanos from = before - window;
    if (!tm.raw.empty()) {
        for (const TelemetryRawSeries& s : tm.raw) {
            if (!wanted(s.metric, s.gpu)) continue;
            const auto lo = std::lower_bound(s.times.begin(), s.times.end(), from);
            const auto hi = std::upper_bound(s.times.begin(), s.times.end(), before);
            if (hi - lo < 2) continue;
            const auto a = static_cast<std::size_t>(lo - s.times.begin());
            const auto b = static_cast<std::size_t>(hi - s.times.begin()) - 1;
            if (s.values[b] <= s.values[a]) continue;
            std::size_t first = a;
            while (first < b && s.values[first] <= s.values[a]) ++first;
            out.push_back(warning(s.times[first], s.gpu, tm.metrics[static_cast<std::size_t>(s.metric)], s.values[a], s.values[b], window));
        }
        return out;
    }
    if (tm.levels.empty()) return out;
    const TelemetryLevel& level = tm.levels.front();
    for (const TelemetrySummarySeries& s : level.series) {
        if (!wanted(s.metric, s.gpu)) continue;
        std::size_t a = s.buckets.size(), b = 0;
        for (std::size_t k = 0; k < s.buckets.size(); ++k) {
            const Nanos start = s.buckets[k] * level.bucket - run.info.startEpochNs;
            if (start + level.bucket <= from || start > before) continue;
            a = std::min(a, k);
            b = k;
        }
        if (a >= s.buckets.size() || s.max[b] <= s.min[a]) continue;
        out.push_back(warning(s.buckets[a] * level.bucket - run.info.startEpochNs, s.gpu, tm.metrics[static_cast<std::size_t>(s.metric)], s.min[a], s.max[b],
                              window));
    }
    return out;
}

}  // namespace faultline
