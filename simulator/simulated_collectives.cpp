#include "simulated_collectives.h"

#include <algorithm>

namespace faultline {

void addSimulatedCollectives(Run& run, const CollectiveTraceParams& p, Random& random) {
    const int ranks = std::min<int>(p.ranks, static_cast<int>(run.topology.gpus.size()));
    if (ranks <= 0 || p.steps <= 0 || p.bucketsPerStep <= 0) return;
    run.collectiveOps = {"allreduce"};
    run.processGroups = {{"data_parallel", {}}};
    run.rankToGpu.resize(static_cast<std::size_t>(ranks));
    for (int r = 0; r < ranks; ++r) {
        run.rankToGpu[static_cast<std::size_t>(r)] = r;
        run.processGroups[0].ranks.push_back(r);
    }
    std::vector<Nanos> clockOffset(run.topology.hosts.size());
    for (Nanos& offset : clockOffset) offset = static_cast<Nanos>(random.uniform(-1.0, 1.0) * static_cast<double>(p.hostClockSpread));

    std::vector<StragglerEpisode> episodes = run.stragglers;
    std::sort(episodes.begin(), episodes.end(), [](const auto& a, const auto& b) { return a.begin < b.begin; });
    auto first = std::lower_bound(run.steps.begin(), run.steps.end(), p.begin, [](const Step& s, Nanos t) { return s.time - s.duration < t; });
    const auto stepCount = std::min<std::ptrdiff_t>(p.steps, run.steps.end() - first);
    run.collectives.reserve(static_cast<std::size_t>(stepCount) * static_cast<std::size_t>(p.bucketsPerStep) * static_cast<std::size_t>(ranks));

    std::vector<double> slowdown(static_cast<std::size_t>(ranks));
    std::int64_t seq = 0;
    for (auto step = first; step != first + stepCount; ++step) {
        const Nanos stepBegin = step->time - step->duration;
        std::fill(slowdown.begin(), slowdown.end(), 1.0);
        double worst = 1.0;
        for (const StragglerEpisode& e : episodes) {
            if (e.begin > step->time) break;
            if (e.end <= stepBegin || e.gpu >= ranks) continue;
            slowdown[static_cast<std::size_t>(e.gpu)] = std::max(slowdown[static_cast<std::size_t>(e.gpu)], e.slowdown);
            worst = std::max(worst, e.slowdown);
        }
        // The step's length already includes the worst straggler: the others finish their
        // compute earlier and wait in the collective.
        const Nanos bucket = step->duration / p.bucketsPerStep;
        const double compute = 0.9 * static_cast<double>(bucket);
        for (int b = 0; b < p.bucketsPerStep; ++b) {
            const Nanos bucketBegin = stepBegin + b * bucket;
            const Nanos exit = bucketBegin + bucket;
            ++seq;
            for (int r = 0; r < ranks; ++r) {
                const double work = compute * slowdown[static_cast<std::size_t>(r)] / worst * (1.0 + p.computeJitter * random.normal());
                const Nanos enter = bucketBegin + std::clamp(static_cast<Nanos>(work), Nanos{0}, bucket - kMicrosecond);
                const Nanos offset = clockOffset[static_cast<std::size_t>(run.topology.gpus[static_cast<std::size_t>(r)].host)];
                run.collectives.push_back({r, 0, 0, seq, enter + offset, exit + offset + static_cast<Nanos>(random.uniform() * 20'000), 25 << 20});
            }
        }
    }
}

}  // namespace faultline
