#pragma once
// View > Colour By a metric: every GPU's colour at an instant from its reading then on the
// palette's scale; a GPU without a reading in the no-data colour, a failed one still in the
// failure's (its reading does not hide that it failed). Built once per metric and replay pace,
// so a frame is a lookup per GPU: no search by name or by GPU, no allocation.
#include "views/gpu_palette.h"
#include "views/metric_scale.h"
#include "model/metric_at_instant.h"

#include <span>
#include <vector>

namespace faultline {

class MetricColouring {
public:
    MetricColouring(const Run& run, std::int32_t metric, Nanos step);

    std::int32_t metric() const { return m_reader.metric(); }
    const MetricScale& scale() const { return m_scale; }
    const MetricAtInstant& reader() const { return m_reader; }
    // Colours for instant t and how much each should catch the eye (failed highest, then the
    // higher reading; no data lowest): a rack drawn as one block takes its highest GPU's.
    void colour(Nanos t, std::span<const GpuVisual> states, const StatePalette& palette, std::vector<Rgb>& colours, std::vector<int>& rank);
    // The readings the last colour() used, per GPU (NaN: no data).
    const std::vector<float>& values() const { return m_values; }

private:
    MetricAtInstant m_reader;
    MetricScale m_scale;
    MetricColourTable m_table;
    const StatePalette* m_tablePalette = nullptr;
    std::vector<float> m_values;
};

}  // namespace faultline
