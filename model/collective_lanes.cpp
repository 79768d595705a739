#include "collective_lanes.h"

#include <algorithm>
#include <numeric>

namespace faultline {

CollectiveLanes buildCollectiveLanes(const Run& run) {
    CollectiveLanes out;
    const auto& records = run.collectives;
    if (records.empty()) return out;
    out.records.resize(records.size());
    std::iota(out.records.begin(), out.records.end(), 0u);
    std::sort(out.records.begin(), out.records.end(), [&](std::uint32_t a, std::uint32_t b) {
        return records[a].rank != records[b].rank ? records[a].rank < records[b].rank : records[a].enter < records[b].enter;
    });
    out.traceBegin = records.front().enter;
    out.traceEnd = records.front().exit;
    std::vector<std::pair<double, CollectiveLane>> byTimeInside;
    for (std::size_t i = 0; i < out.records.size();) {
        const std::int32_t rank = records[out.records[i]].rank;
        double inside = 0;
        std::size_t j = i;
        for (; j < out.records.size() && records[out.records[j]].rank == rank; ++j) {
            const CollectiveRecord& r = records[out.records[j]];
            inside += static_cast<double>(r.exit - r.enter);
            out.traceBegin = std::min(out.traceBegin, r.enter);
            out.traceEnd = std::max(out.traceEnd, r.exit);
        }
        byTimeInside.push_back({inside / static_cast<double>(j - i), {rank, i, j}});
        i = j;
    }
    std::stable_sort(byTimeInside.begin(), byTimeInside.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [inside, lane] : byTimeInside) out.lanes.push_back(lane);
    return out;
}

}  // namespace faultline
