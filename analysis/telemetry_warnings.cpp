#include "telemetry_warnings.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <utility>

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

std::string throttleReasons(std::uint64_t mask) {
    static constexpr std::pair<std::uint64_t, const char*> kBits[] = {
        {0x4, "SW power cap"}, {0x8, "HW slowdown"}, {0x10, "sync boost"}, {0x20, "SW thermal slowdown"},
        {0x40, "HW thermal slowdown"}, {0x80, "HW power brake"}, {0x100, "display clock setting"}};
    std::string out;
    for (const auto& [bit, name] : kBits)
        if (mask & bit) out += (out.empty() ? "" : ", ") + std::string(name);
    return out;
}

namespace {

// The GPU's mean (and max) over the window, and the median of its peers' means (NaN without
// peers, so no comparison holds); nullopt when the GPU has no reading then.
struct Comparison {
    double mine = 0, peers = 0, mineMax = 0;
};

std::optional<Comparison> compare(const Run& run, const TelemetryLevel& level, std::int32_t metric, std::int32_t gpu, Nanos begin, Nanos end) {
    std::vector<double> peerMeans;
    std::optional<Comparison> out;
    for (const TelemetrySummarySeries& s : level.series) {
        if (s.metric != metric) continue;
        double sum = 0, top = 0;
        int n = 0;
        for (std::size_t k = 0; k < s.buckets.size(); ++k) {
            const Nanos start = s.buckets[k] * level.bucket - run.info.startEpochNs;
            if (start + level.bucket <= begin || start > end) continue;
            sum += s.mean[k];
            top = n == 0 ? s.max[k] : std::max(top, static_cast<double>(s.max[k]));
            ++n;
        }
        if (n == 0) continue;
        if (s.gpu == gpu) out = Comparison{sum / n, 0, top};
        else peerMeans.push_back(sum / n);
    }
    if (!out) return std::nullopt;
    if (peerMeans.empty()) {
        out->peers = std::nan("");  // no peers to compare with: only the GPU's own readings count
        return out;
    }
    std::nth_element(peerMeans.begin(), peerMeans.begin() + static_cast<std::ptrdiff_t>(peerMeans.size() / 2), peerMeans.end());
    out->peers = peerMeans[peerMeans.size() / 2];
    return out;
}

std::string grouped(double v) {
    const auto n = static_cast<long long>(std::llround(v));
    std::string digits = std::to_string(n < 0 ? -n : n), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return (n < 0 ? "-" : "") + out;
}

}  // namespace

std::string stragglerEvidence(const Run& run, std::int32_t gpu, Nanos begin, Nanos end) {
    const Telemetry& tm = run.telemetry;
    if (tm.levels.empty()) return "";
    const TelemetryLevel& level = tm.levels.front();
    std::vector<std::string> said;
    if (const auto m = tm.metricIndex(kSmClockMetric))
        if (const auto c = compare(run, level, *m, gpu, begin, end); c && c->mine < 0.97 * c->peers)
            said.push_back("SM clock " + grouped(c->mine) + " MHz vs peers " + grouped(c->peers));
    if (const auto m = tm.metricIndex("DCGM_FI_DEV_CLOCK_THROTTLE_REASONS"))
        if (const auto c = compare(run, level, *m, gpu, begin, end))
            if (const std::string reasons = throttleReasons(static_cast<std::uint64_t>(c->mineMax)); !reasons.empty()) said.push_back(reasons);
    if (const auto m = tm.metricIndex(kTemperatureMetric))
        if (const auto c = compare(run, level, *m, gpu, begin, end); c && c->mine > c->peers + 5)
            said.push_back(grouped(c->mine) + " °C vs peers " + grouped(c->peers));
    if (const auto m = tm.metricIndex(kPowerMetric))
        if (const auto c = compare(run, level, *m, gpu, begin, end); c && c->mine < 0.9 * c->peers)
            said.push_back("power " + grouped(c->mine) + " W vs peers " + grouped(c->peers));
    std::string out;
    for (const std::string& s : said) out += (out.empty() ? "" : "; ") + s;
    return out;
}

}  // namespace faultline
