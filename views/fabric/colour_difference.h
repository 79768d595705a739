#pragma once
// How different two colours look: CIEDE2000 (Sharma, Wu & Dalal 2005) between sRGB colours
// under D65. About 1 is the smallest difference a person notices side by side; legend entries
// want 10 or more. Knows nothing of Qt.
#include <array>
#include <cstdint>

namespace faultline {

struct Lab {
    double l, a, b;
};

Lab labFromSrgb(const std::array<std::uint8_t, 3>& rgb);
double ciede2000(const Lab& x, const Lab& y);
inline double colourDifference(const std::array<std::uint8_t, 3>& x, const std::array<std::uint8_t, 3>& y) {
    return ciede2000(labFromSrgb(x), labFromSrgb(y));
}

}  // namespace faultline
