#include "views/fabric/metric_colouring.h"

#include <cmath>

namespace faultline {

MetricColouring::MetricColouring(const Run& run, std::int32_t metric, Nanos step)
    : m_reader(run, metric, step),
      m_scale(metricScale(run.telemetry.metrics.at(static_cast<std::size_t>(metric)), m_reader.dataMin(), m_reader.dataMax())) {}

void MetricColouring::colour(Nanos t, std::span<const GpuVisual> states, const StatePalette& palette, std::vector<Rgb>& colours,
                             std::vector<int>& rank) {
    if (m_tablePalette != &palette) {
        m_table = MetricColourTable(m_scale, palette.metric);
        m_tablePalette = &palette;
    }
    m_reader.valuesAt(t, m_values);
    const std::size_t n = states.size();
    colours.resize(n);
    rank.resize(n);
    for (std::size_t g = 0; g < n; ++g) {
        const float v = g < m_values.size() ? m_values[g] : std::nanf("");
        if (states[g].state == GpuState::Failed) {
            colours[g] = palette.failed;
            rank[g] = 1000;
        } else if (std::isnan(v)) {
            colours[g] = palette.metric.noData;
            rank[g] = 0;
        } else {
            const int step = m_table.step(v);
            colours[g] = m_table.table()[static_cast<std::size_t>(step)];
            rank[g] = 1 + step;
        }
    }
}

}  // namespace faultline
