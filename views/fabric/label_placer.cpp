#include "views/fabric/label_placer.h"

#include <algorithm>
#include <numeric>

namespace faultline {

std::vector<bool> placeLabels(const std::vector<LabelCandidate>& candidates, const std::vector<ScreenRect>& blocked) {
    std::vector<std::size_t> order(candidates.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return candidates[a].priority < candidates[b].priority; });
    std::vector<bool> shown(candidates.size(), false);
    std::vector<ScreenRect> kept = blocked;
    for (std::size_t i : order) {
        const LabelCandidate& c = candidates[i];
        if (!c.onScreen) continue;
        if (std::any_of(kept.begin(), kept.end(), [&](const ScreenRect& k) { return k.intersects(c.rect); })) continue;
        shown[i] = true;
        kept.push_back(c.rect);
    }
    return shown;
}

}  // namespace faultline
