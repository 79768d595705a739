#pragma once
// How a metric's values map onto colours for View > Colour By: the range (fixed physical ones
// for temperature and power, so that a hot GPU looks hot in any run; the run's own range for
// the others) and the palette's scale over it, as a table a frame reads without arithmetic.
// Knows nothing of Qt.
#include "views/gpu_palette.h"
#include "model/run.h"

#include <array>
#include <cmath>
#include <string>

namespace faultline {

struct MetricScale {
    std::string title;  // "Power (W)"
    std::string unit;   // "W"
    double min = 0, max = 1;
    bool fixedRange = false;  // a physical range, not the run's data
};

// The scale of `metric` in `run`; `dataMin` / `dataMax` the run's readings of it (NaN: none).
MetricScale metricScale(const std::string& metric, double dataMin, double dataMax);

// The scale's colours in 256 steps, low to high.
class MetricColourTable {
public:
    MetricColourTable() = default;
    MetricColourTable(const MetricScale& scale, const MetricColours& colours);
    // The step a value falls in (0..255; values outside the range clamp to its ends).
    int step(float value) const {
        const double f = (value - m_min) * m_perUnit;
        return f <= 0 ? 0 : f >= 255 ? 255 : static_cast<int>(f);
    }
    const Rgb& colour(float value) const { return m_table[static_cast<std::size_t>(step(value))]; }
    const std::array<Rgb, 256>& table() const { return m_table; }

private:
    std::array<Rgb, 256> m_table{};
    double m_min = 0, m_perUnit = 255;
};

// A colour of the scale at fraction f (0 low, 1 high) of its range.
Rgb scaleColourAt(const MetricColours& colours, double f);

}  // namespace faultline
