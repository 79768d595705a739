#include "views/metric_scale.h"

#include "model/metric_text.h"
#include "model/telemetry.h"

#include <algorithm>

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

}  // namespace

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
