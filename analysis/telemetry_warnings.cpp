#include "telemetry_warnings.h"

#include <algorithm>
#include <cmath>
#include <map>
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
    const Nanos from = before - window;
    // Each GPU once, in order: the warnings come in the order of the run's series, (metric, GPU).
    std::vector<std::int32_t> sorted = gpus;
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    // The error counters of these GPUs alone: a run file gives their rows through its index,
    // so a failure's warnings never read a level of every GPU (the first screen waits on them).
    for (std::size_t m = 0; m < tm.metrics.size(); ++m) {
        if (!isErrorCounter(tm.metrics[m])) continue;
        const auto metric = static_cast<std::int32_t>(m);
        if (tm.hasRawSeries()) {
            for (const TelemetryRawSeries& s : tm.rawSeriesOf(metric, sorted)) {
                const auto lo = std::lower_bound(s.times.begin(), s.times.end(), from);
                const auto hi = std::upper_bound(s.times.begin(), s.times.end(), before);
                if (hi - lo < 2) continue;
                const auto a = static_cast<std::size_t>(lo - s.times.begin());
                const auto b = static_cast<std::size_t>(hi - s.times.begin()) - 1;
                if (s.values[b] <= s.values[a]) continue;
                std::size_t first = a;
                while (first < b && s.values[first] <= s.values[a]) ++first;
                out.push_back(warning(s.times[first], s.gpu, tm.metrics[m], s.values[a], s.values[b], window));
            }
            continue;
        }
        if (tm.levels.empty()) continue;
        const Nanos bucket = tm.levels.front().bucket;
        for (const TelemetrySummarySeries& s : tm.levelSeries(0, metric, sorted)) {
            std::size_t a = s.buckets.size(), b = 0;
            for (std::size_t k = 0; k < s.buckets.size(); ++k) {
                const Nanos start = s.buckets[k] * bucket - run.info.startEpochNs;
                if (start + bucket <= from || start > before) continue;
                a = std::min(a, k);
                b = k;
            }
            if (a >= s.buckets.size() || s.max[b] <= s.min[a]) continue;
            out.push_back(warning(s.buckets[a] * bucket - run.info.startEpochNs, s.gpu, tm.metrics[m], s.min[a], s.max[b], window));
        }
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

constexpr std::string_view kThrottleMetric = "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS";

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

TelemetryWindow::TelemetryWindow(const Run& run, Nanos begin, Nanos end) {
    const Telemetry& tm = run.telemetry;
    if (tm.levels.empty()) return;
    const Nanos bucket = tm.levels.front().bucket;
    const std::size_t gpus = run.topology.gpus.size();
    for (const std::string_view name : {kSmClockMetric, kThrottleMetric, kTemperatureMetric, kPowerMetric}) {
        const auto metric = tm.metricIndex(name);
        if (!metric) continue;
        Readings& r = m_metrics[std::string(name)];
        r.mean.assign(gpus, std::nan(""));
        r.max.assign(gpus, std::nan(""));
        // This metric's rows alone (a run file reads no other metric's); each one's buckets by time.
        std::vector<TelemetrySummarySeries> read;
        const std::span<const TelemetrySummarySeries> series = tm.metricSeries(0, *metric, read);
        for (auto s = series.begin(); s != series.end(); ++s) {
            if (s->gpu < 0 || static_cast<std::size_t>(s->gpu) >= gpus) continue;
            // Buckets that overlap [begin, end]: starting after begin - bucket, at or before end.
            const auto lo = std::upper_bound(s->buckets.begin(), s->buckets.end(), begin, [&](Nanos b, std::int64_t k) {
                return b < k * bucket - run.info.startEpochNs + bucket;
            });
            double sum = 0, top = 0;
            int n = 0;
            for (auto k = lo; k != s->buckets.end() && *k * bucket - run.info.startEpochNs <= end; ++k) {
                const auto at = static_cast<std::size_t>(k - s->buckets.begin());
                sum += s->mean[at];
                top = n == 0 ? s->max[at] : std::max(top, static_cast<double>(s->max[at]));
                ++n;
            }
            if (n == 0) continue;
            r.mean[static_cast<std::size_t>(s->gpu)] = sum / n;
            r.max[static_cast<std::size_t>(s->gpu)] = top;
            r.sortedMeans.push_back(sum / n);
        }
        std::sort(r.sortedMeans.begin(), r.sortedMeans.end());
    }
}

// The GPU's mean and max over the window and the median of its peers' means (NaN without
// peers, so no comparison holds); nullopt when the metric or the GPU has no reading then.
std::optional<TelemetryWindow::Comparison> TelemetryWindow::compare(std::string_view metric, std::int32_t gpu) const {
    const auto it = m_metrics.find(std::string(metric));
    if (it == m_metrics.end() || gpu < 0 || static_cast<std::size_t>(gpu) >= it->second.mean.size()) return std::nullopt;
    const Readings& r = it->second;
    const double mine = r.mean[static_cast<std::size_t>(gpu)];
    if (std::isnan(mine)) return std::nullopt;
    Comparison c{mine, std::nan(""), r.max[static_cast<std::size_t>(gpu)]};
    // The upper median of the others: the sorted means without this GPU's own.
    const std::size_t others = r.sortedMeans.size() - 1;
    if (others == 0) return c;
    const auto self = static_cast<std::size_t>(std::lower_bound(r.sortedMeans.begin(), r.sortedMeans.end(), mine) - r.sortedMeans.begin());
    const std::size_t k = others / 2;
    c.peers = k < self ? r.sortedMeans[k] : r.sortedMeans[k + 1];
    return c;
}

std::string TelemetryWindow::evidence(std::int32_t gpu) const {
    std::vector<std::string> said;
    if (const auto c = compare(kSmClockMetric, gpu); c && c->mine < 0.97 * c->peers)
        said.push_back("SM clock " + grouped(c->mine) + " MHz vs peers " + grouped(c->peers));
    if (const auto c = compare(kThrottleMetric, gpu))
        if (const std::string reasons = throttleReasons(static_cast<std::uint64_t>(c->mineMax)); !reasons.empty()) said.push_back(reasons);
    if (const auto c = compare(kTemperatureMetric, gpu); c && c->mine > c->peers + 5)
        said.push_back(grouped(c->mine) + " °C vs peers " + grouped(c->peers));
    if (const auto c = compare(kPowerMetric, gpu); c && c->mine < 0.9 * c->peers)
        said.push_back("power " + grouped(c->mine) + " W vs peers " + grouped(c->peers));
    std::string out;
    for (const std::string& s : said) out += (out.empty() ? "" : "; ") + s;
    return out;
}

std::string stragglerEvidence(const Run& run, std::int32_t gpu, Nanos begin, Nanos end) { return TelemetryWindow(run, begin, end).evidence(gpu); }

}  // namespace faultline
