#pragma once
// What the 3D view's colours mean, as the legend in the view lists them: the GPU states in
// the active palette, the flash of a failure and the outline of replaced hardware.
#include "gpu_palette.h"

#include <optional>
#include <string>
#include <vector>

namespace faultline {

struct LegendEntry {
    Rgb fill;
    std::string text;
    std::optional<Rgb> outline;  // for marks drawn as outlines rather than fills
};

std::vector<LegendEntry> stateLegendEntries(const StatePalette& palette);

}  // namespace faultline
