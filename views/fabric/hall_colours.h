#pragma once
// The colours of the data hall around the GPUs for the light and the dark theme: the floor
// (the view's background), its grid and zone names, the labels, the selection outline and
// the legend's panel.
// The GPUs' state colours are the same in both (gpu_palette.h).
#include "views/gpu_palette.h"

namespace faultline {

struct HallColours {
    Rgb background;
    Rgb floorLine;
    Rgb floorText;
    Rgb label;
    Rgb highlight;
    Rgb legendPanel;   // the legend in the view: its panel and border
    Rgb legendBorder;
};

inline constexpr HallColours kLightHall{kBackground, kFloorLineColour, kFloorTextColour, {38, 43, 56}, kHighlightColour, {250, 251, 253}, {178, 185, 197}};
inline constexpr HallColours kDarkHall{{30, 32, 37}, {62, 67, 78}, {150, 158, 172}, {215, 220, 228}, {245, 245, 245}, {42, 45, 52}, {86, 92, 106}};

}  // namespace faultline
