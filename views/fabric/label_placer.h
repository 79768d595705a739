#pragma once
// Screen-space label placement without overlap: labels are kept in order of priority, and
// a label whose rectangle would overlap one already kept (or a blocked area, such as the
// legend) is hidden. Greedy and exact for the few dozen labels a hall carries; run when the
// camera moves. Knows nothing of VTK or Qt.
#include <vector>

namespace faultline {

struct ScreenRect {
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // x0 <= x1, y0 <= y1
    bool intersects(const ScreenRect& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
};

struct LabelCandidate {
    ScreenRect rect;
    int priority = 0;     // lower is more important: kept first
    bool onScreen = true;  // false: hidden whatever else (behind the camera)
};

// Which labels to show: shown[i] for candidates[i]. Among equal priorities the earlier wins.
std::vector<bool> placeLabels(const std::vector<LabelCandidate>& candidates, const std::vector<ScreenRect>& blocked);

}  // namespace faultline
