#include "straggler_excess.h"

#include <algorithm>

namespace faultline {

void forEachStragglerExcess(const Run& run, const std::function<void(Nanos, Nanos, double, const StragglerEpisode&)>& add) {
    if (run.stragglers.empty()) return;
    std::vector<StragglerEpisode> episodes = run.stragglers;
    std::sort(episodes.begin(), episodes.end(), [](const auto& a, const auto& b) { return a.begin < b.begin; });
    std::vector<std::pair<Nanos, Nanos>> lost;  // redone windows: their steps were not kept
    for (const Downtime& d : run.downtimes)
        if (!d.planned) lost.emplace_back(d.begin - d.lostWork, d.begin);
    std::sort(lost.begin(), lost.end());

    std::size_t nextEpisode = 0, nextLost = 0;
    std::vector<const StragglerEpisode*> active;
    for (const Step& step : run.steps) {
        const Nanos mid = step.time - step.duration / 2;
        while (nextLost < lost.size() && lost[nextLost].second < step.time) ++nextLost;
        if (nextLost < lost.size() && lost[nextLost].first < step.time) continue;
        while (nextEpisode < episodes.size() && episodes[nextEpisode].begin <= mid) active.push_back(&episodes[nextEpisode++]);
        std::erase_if(active, [mid](const StragglerEpisode* e) { return e->end <= mid; });
        const StragglerEpisode* worst = nullptr;
        for (const StragglerEpisode* e : active)
            if (!worst || e->slowdown > worst->slowdown) worst = e;
        if (worst && worst->slowdown > 1.0) add(step.time - step.duration, step.time, 1.0 - 1.0 / worst->slowdown, *worst);
    }
}

}  // namespace faultline
