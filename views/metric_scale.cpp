#include "metric_scale.h"

#include "model/telemetry.h"

#include <algorithm>
#include <cstdio>

namespace faultline {

namespace {

struct FixedRange {
    std::string_view metric;
    double min, max;
};
// Temperatures from a cool idle GPU to where H100s throttle (about 90 °C on the die, 95 °C
// for HBM); power from nothing to the H100 SXM's 700 W TDP (the run knows no GPU model).
constexpr FixedRange kFixedRanges[] = {
    {"DCGM_FI_DEV_GPU_TEMP", 20, 95},
    {"DCGM_FI_DEV_MEMORY_TEMP", 20, 95},
    {"DCGM_FI_DEV_POWER_USAGE", 0, 700},
};

std::string grouped(long long n) {
    std::string digits = std::to_string(n < 0 ? -n : n);
    for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) digits.insert(static_cast<std::size_t>(i), ",");
    return (n < 0 ? "-" : "") + digits;
}

}  // namespace

std::string metricTitle(const std::string& metric) {
    const MetricInfo info = metricInfo(metric);
    std::string title(info.label);
    if (!info.unit.empty()) title += " (" + std::string(info.unit) + ")";
    return title;
}

MetricScale metricScale(const std::string& metric, double dataMin, double dataMax) {
    MetricScale scale;
    scale.title = metricTitle(metric);
    scale.unit = std::string(metricInfo(metric).unit);
    for (const FixedRange& r : kFixedRanges)
        if (r.metric == metric) {
            scale.min = r.min, scale.max = r.max, scale.fixedRange = true;
            return scale;
        }
    if (std::isnan(dataMin) || std::isnan(dataMax)) return scale;
    scale.min = dataMin;
    // One value everywhere still gets a scale (its colour the low end), not a division by zero.
    scale.max = dataMax > dataMin ? dataMax : dataMin + std::max(1.0, std::abs(dataMin) * 0.01);
    return scale;
}

std::string formatMetricValue(double value, const std::string& unit) {
    if (std::isnan(value)) return "no data";
    std::string text;
    if (std::abs(value) >= 100 || value == std::round(value)) {
        text = grouped(std::llround(value));
    } else {
        char buffer[32];
        std::snprintf(buffer, sizeof buffer, std::abs(value) >= 10 ? "%.1f" : "%.2f", value);
        text = buffer;
    }
    return unit.empty() ? text : text + " " + unit;
}

Rgb scaleColourAt(const MetricColours& colours, double f) {
    const auto& s = colours.scale;
    const double x = std::clamp(f, 0.0, 1.0) * static_cast<double>(s.size() - 1);
    const auto i = std::min<std::size_t>(static_cast<std::size_t>(x), s.size() - 2);
    const double w = x - static_cast<double>(i);
    Rgb c{};
    for (std::size_t k = 0; k < 3; ++k) c[k] = static_cast<std::uint8_t>(std::lround(s[i][k] * (1 - w) + s[i + 1][k] * w));
    return c;
}

MetricColourTable::MetricColourTable(const MetricScale& scale, const MetricColours& colours)
    : m_min(scale.min), m_perUnit(255.0 / std::max(1e-12, scale.max - scale.min) * (256.0 / 255.0)) {
    for (std::size_t i = 0; i < m_table.size(); ++i) m_table[i] = scaleColourAt(colours, static_cast<double>(i) / 255.0);
}

}  // namespace faultline
