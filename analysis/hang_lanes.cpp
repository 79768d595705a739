#include "hang_lanes.h"

#include <algorithm>

namespace faultline {

namespace {

// The run's process group a finding names: same name, same ranks.
std::optional<std::int32_t> groupOf(const Run& run, const HangFinding& f) {
    std::optional<std::int32_t> byName;
    for (std::size_t i = 0; i < run.processGroups.size(); ++i) {
        const ProcessGroup& g = run.processGroups[i];
        if (g.name != f.processGroup) continue;
        if (g.ranks == f.groupRanks) return static_cast<std::int32_t>(i);
        if (!byName) byName = static_cast<std::int32_t>(i);
    }
    return byName;
}

}  // namespace

std::optional<RankInHang> rankInHang(const Run& run, std::int32_t rank) {
    if (!run.hang) return std::nullopt;
    auto names = [rank](const std::vector<std::int32_t>& ranks) { return std::find(ranks.begin(), ranks.end(), rank) != ranks.end(); };
    for (const HangOrigin& o : run.hang->origins) {
        const bool culprit = names(o.culprits);
        if ((!culprit && !names(o.waiting)) || o.finding >= run.hang->findings.size()) continue;
        const HangFinding& f = run.hang->findings[o.finding];
        return RankInHang{&o, &f, f.enqueuedNs - run.info.startEpochNs, culprit};
    }
    return std::nullopt;
}

std::optional<HangLanes> buildHangLanes(const Run& run, const CollectiveLanes& collectiveLanes, std::size_t origin) {
    if (!run.hang || origin >= run.hang->origins.size()) return std::nullopt;
    const HangReport& hang = *run.hang;
    const HangOrigin& o = hang.origins[origin];
    const HangFinding& f = hang.findings[o.finding];
    HangLanes out;
    out.origin = origin;
    out.hangBegin = f.enqueuedNs - run.info.startEpochNs;
    out.group = groupOf(run, f);

    std::vector<std::size_t> laneOfRank;  // rank -> index in collectiveLanes.lanes
    for (std::size_t i = 0; i < collectiveLanes.lanes.size(); ++i) {
        const auto rank = static_cast<std::size_t>(collectiveLanes.lanes[i].rank);
        if (rank >= laneOfRank.size()) laneOfRank.resize(rank + 1, SIZE_MAX);
        laneOfRank[rank] = i;
    }
    auto laneOf = [&](std::int32_t rank) { return rank >= 0 && static_cast<std::size_t>(rank) < laneOfRank.size() ? laneOfRank[static_cast<std::size_t>(rank)] : SIZE_MAX; };
    const std::size_t ranks = std::max(run.rankToGpu.size(), laneOfRank.size());
    std::vector<HangRole> role(ranks, HangRole::Other);
    for (std::int32_t r : o.waiting)
        if (static_cast<std::size_t>(r) < ranks) role[static_cast<std::size_t>(r)] = HangRole::Waiting;
    for (std::int32_t r : o.culprits)
        if (static_cast<std::size_t>(r) < ranks) role[static_cast<std::size_t>(r)] = HangRole::Culprit;
    for (HangRole wanted : {HangRole::Culprit, HangRole::Waiting, HangRole::Other})
        for (std::size_t r = 0; r < ranks; ++r)
            if (role[r] == wanted) out.lanes.push_back({static_cast<std::int32_t>(r), wanted, laneOf(static_cast<std::int32_t>(r))});

    // A rank's record in the origin's collective (its group and sequence number), else its
    // last record in that group, else its last record.
    auto recordOf = [&](std::int32_t rank, bool exactSeq) -> std::optional<std::size_t> {
        const std::size_t lane = laneOf(rank);
        if (lane == SIZE_MAX) return std::nullopt;
        const CollectiveLane& l = collectiveLanes.lanes[lane];
        std::optional<std::size_t> lastInGroup, last;
        for (std::size_t i = l.begin; i < l.end; ++i) {
            const std::size_t index = collectiveLanes.records[i];
            const CollectiveRecord& c = run.collectives[index];
            last = index;
            if (!out.group || c.group != *out.group) continue;
            if (exactSeq && c.seq == f.seq) return index;
            lastInGroup = index;
        }
        return lastInGroup ? lastInGroup : last;
    };
    std::vector<std::optional<std::size_t>> culpritRecords;
    for (std::int32_t c : o.culprits) culpritRecords.push_back(recordOf(c, false));
    for (std::int32_t w : o.waiting) {
        const std::optional<std::size_t> stuck = recordOf(w, true);
        for (std::size_t k = 0; k < o.culprits.size(); ++k) out.flows.push_back({w, o.culprits[k], stuck, culpritRecords[k]});
    }

    // From a little before the culprits' last collectives to the run's end: the moment the
    // culprit fell behind, and the waiting that followed.
    Nanos begin = out.hangBegin;
    for (const HangFlow& flow : out.flows)
        if (flow.toRecord) begin = std::min(begin, run.collectives[*flow.toRecord].enter);
    const Nanos end = std::max(run.info.duration, out.hangBegin + 1);
    const Nanos margin = std::max<Nanos>((end - begin) / 4, kMillisecond);
    out.viewBegin = std::max<Nanos>(collectiveLanes.traceBegin, begin - margin);
    out.viewEnd = end + margin / 4;
    return out;
}

}  // namespace faultline
