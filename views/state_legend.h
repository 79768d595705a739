#pragma once
// What the 3D view's colours mean, as the legend in the view lists them: the GPU states in
// the active palette, the flash of a failure and the outline of replaced hardware.
#include "views/gpu_palette.h"

#include <optional>
#include <string>
#include <vector>

namespace faultline {

struct LegendEntry {
    Rgb fill;
    std::string text;
    std::optional<Rgb> outline;  // for marks drawn as outlines rather than fills
};

// `untraced`: the run has GPUs no trace covers, drawn as "no data".
std::vector<LegendEntry> stateLegendEntries(const StatePalette& palette, bool untraced);

// With View > Colour By a metric: a bar of the scale's colours, low to high, with its ends.
struct LegendScale {
    std::string title;              // the legend's title: "Power (W)"
    std::vector<Rgb> colours;       // the bar, left to right
    std::string lowText, highText;  // "0 W", "700 W"
};
// What else such a view draws: GPUs without a reading, failed ones, flashes, replaced hardware.
std::vector<LegendEntry> metricLegendEntries(const StatePalette& palette);
// Colour By job: a few jobs' colours, idle and failed.
std::vector<LegendEntry> jobLegendEntries(const StatePalette& palette);

}  // namespace faultline
