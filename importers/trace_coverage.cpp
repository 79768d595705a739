#include "importers/trace_coverage.h"

#include <set>

namespace faultline {

std::vector<std::int32_t> untracedGpus(const Run& run) {
    const std::size_t gpus = run.topology.gpus.size();
    std::vector<bool> covered(gpus, false);
    std::size_t coveredCount = 0;
    auto coverRank = [&](std::int32_t rank) {
        if (rank < 0 || static_cast<std::size_t>(rank) >= run.rankToGpu.size()) return;
        const std::int32_t gpu = run.rankToGpu[static_cast<std::size_t>(rank)];
        if (gpu >= 0 && static_cast<std::size_t>(gpu) < gpus && !covered[static_cast<std::size_t>(gpu)]) {
            covered[static_cast<std::size_t>(gpu)] = true;
            ++coveredCount;
        }
    };
    // Read until every GPU is covered: in a job traced whole, long before its tens of
    // millions of collectives end.
    for (const CollectiveRecord& c : run.collectives) {
        coverRank(c.rank);
        if (coveredCount == gpus) return {};
    }
    // Step times count as a trace of each rank only when more than one rank reports them: a
    // Megatron log's one reporting rank prints the whole job's iterations.
    std::set<std::int32_t> stepRanks;
    for (const RankStep& s : run.rankSteps) stepRanks.insert(s.rank);
    if (stepRanks.size() > 1)
        for (std::int32_t rank : stepRanks) coverRank(rank);
    if (coveredCount == 0) return {};  // nothing traced: nothing to tell apart
    for (const Failure& f : run.failures)
        for (std::int32_t gpu : f.gpus)
            if (gpu >= 0 && static_cast<std::size_t>(gpu) < gpus) covered[static_cast<std::size_t>(gpu)] = true;
    for (const StragglerEpisode& s : run.stragglers)
        if (s.gpu >= 0 && static_cast<std::size_t>(s.gpu) < gpus) covered[static_cast<std::size_t>(s.gpu)] = true;
    std::vector<std::int32_t> untraced;
    for (std::size_t g = 0; g < gpus; ++g)
        if (!covered[g]) untraced.push_back(static_cast<std::int32_t>(g));
    return untraced;
}

}  // namespace faultline
