#include "straggler_analysis.h"

#include <algorithm>
#include <numeric>

namespace faultline {

namespace {

Nanos median(std::vector<Nanos>& values) {
    auto mid = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
    std::nth_element(values.begin(), mid, values.end());
    return *mid;
}

struct RankAccumulator {
    Nanos lateness = 0;
    Nanos span = 0;
    int collectives = 0;
    int late = 0;
    std::vector<LateArrival> evidence;
    std::vector<Nanos> windowLateness;
    std::vector<Nanos> windowSpan;
    std::vector<Nanos> windowLateWork;      // compute before each late arrival, to size the slowdown
    std::vector<Nanos> windowBehindMedian;  // how far those arrivals trailed the median rank
    std::vector<int> windowLate;
};

void keepWorst(std::vector<LateArrival>& evidence, const LateArrival& a) {
    constexpr std::size_t kKeep = 5;
    if (evidence.size() < kKeep) {
        evidence.push_back(a);
        return;
    }
    auto least = std::min_element(evidence.begin(), evidence.end(), [](const auto& x, const auto& y) { return x.lateness < y.lateness; });
    if (a.lateness > least->lateness) *least = a;
}

}  // namespace

StragglerReport analyzeStragglers(const Run& run, const StragglerAnalysisParams& params) {
    StragglerReport report;
    const auto& records = run.collectives;
    report.records = static_cast<std::int64_t>(records.size());
    if (records.empty()) return report;

    // Instances: records sharing (group, seq), ranks in any order.
    std::vector<std::uint32_t> order(records.size());
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        const CollectiveRecord &x = records[a], &y = records[b];
        return x.group != y.group ? x.group < y.group : x.seq < y.seq;
    });

    Nanos first = records.front().enter, last = records.front().exit;
    std::int32_t maxRank = 0;
    for (const CollectiveRecord& r : records) {
        first = std::min(first, r.enter);
        last = std::max(last, r.exit);
        maxRank = std::max(maxRank, r.rank);
    }
    const int windows = std::max(1, params.windows);
    report.traceBegin = first;
    report.windowLength = std::max<Nanos>(1, (last - first + windows - 1) / windows);
    auto windowOf = [&](Nanos t) { return std::clamp(static_cast<int>((t - first) / report.windowLength), 0, windows - 1); };

    std::vector<RankAccumulator> acc(static_cast<std::size_t>(maxRank) + 1);
    for (RankAccumulator& a : acc) {
        a.windowLateness.assign(static_cast<std::size_t>(windows), 0);
        a.windowSpan.assign(static_cast<std::size_t>(windows), 0);
        a.windowLateWork.assign(static_cast<std::size_t>(windows), 0);
        a.windowBehindMedian.assign(static_cast<std::size_t>(windows), 0);
        a.windowLate.assign(static_cast<std::size_t>(windows), 0);
    }
    // Each record's preceding work: the time since the same rank left its previous
    // collective, on that rank's own clock.
    std::vector<Nanos> workBefore(records.size(), 0);
    {
        std::vector<std::uint32_t> byRank(records.size());
        std::iota(byRank.begin(), byRank.end(), 0u);
        std::sort(byRank.begin(), byRank.end(), [&](std::uint32_t a, std::uint32_t b) {
            return records[a].rank != records[b].rank ? records[a].rank < records[b].rank : records[a].enter < records[b].enter;
        });
        for (std::size_t i = 1; i < byRank.size(); ++i) {
            const CollectiveRecord &prev = records[byRank[i - 1]], &cur = records[byRank[i]];
            if (prev.rank == cur.rank) workBefore[byRank[i]] = std::max<Nanos>(0, cur.enter - prev.exit);
        }
    }

    std::vector<Nanos> durations;
    for (std::size_t begin = 0; begin < order.size();) {
        std::size_t end = begin + 1;
        const CollectiveRecord& head = records[order[begin]];
        while (end < order.size() && records[order[end]].group == head.group && records[order[end]].seq == head.seq) ++end;
        if (end - begin >= 2) {
            ++report.instances;
            // The earliest arrival spends the longest inside; the last the shortest.
            auto inside = [&](std::size_t i) { return std::max<Nanos>(0, records[order[i]].exit - records[order[i]].enter); };
            std::size_t lastArrival = begin;
            Nanos longest = 0;
            for (std::size_t i = begin; i < end; ++i) {
                longest = std::max(longest, inside(i));
                if (inside(i) < inside(lastArrival)) lastArrival = i;
            }
            const Nanos maxLateness = longest - inside(lastArrival);
            // A slowdown is sized against the typical rank, not the earliest one.
            durations.clear();
            for (std::size_t i = begin; i < end; ++i) durations.push_back(inside(i));
            const Nanos typical = median(durations);
            bool skewed = false;
            for (std::size_t i = begin; i < end; ++i) {
                const CollectiveRecord& r = records[order[i]];
                RankAccumulator& a = acc[static_cast<std::size_t>(r.rank)];
                const auto w = static_cast<std::size_t>(windowOf(r.enter));
                ++a.collectives;
                a.span += longest;
                a.windowSpan[w] += longest;
                const Nanos lateness = longest - inside(i);  // how long the earliest arrival waited for it
                if (lateness < params.minLateness) continue;
                a.lateness += lateness;
                a.windowLateness[w] += lateness;
                keepWorst(a.evidence, {r.group, r.seq, r.op, r.enter, lateness});
                if (i == lastArrival) {
                    skewed = true;
                    ++a.late;
                }
                // Episodes look for ranks slowed for a while; several can be slow at once, and
                // all that came in with the last (within half its lateness) held the group up.
                if (lateness >= maxLateness - lateness) {  // 2 x lateness, without overflow
                    ++a.windowLate[w];
                    a.windowLateWork[w] += workBefore[order[i]];
                    a.windowBehindMedian[w] += std::max<Nanos>(0, typical - inside(i));
                }
            }
            report.skewedInstances += skewed;
        }
        begin = end;
    }

    for (std::size_t rank = 0; rank < acc.size(); ++rank) {
        RankAccumulator& a = acc[rank];
        if (a.collectives == 0) continue;
        RankStragglerScore s;
        s.rank = static_cast<std::int32_t>(rank);
        s.gpu = rank < run.rankToGpu.size() ? run.rankToGpu[rank] : -1;
        s.collectives = a.collectives;
        s.late = a.late;
        s.totalLateness = a.lateness;
        s.score = a.span > 0 ? static_cast<double>(a.lateness) / static_cast<double>(a.span) : 0.0;
        std::sort(a.evidence.begin(), a.evidence.end(), [](const auto& x, const auto& y) { return x.lateness > y.lateness; });
        s.evidence = std::move(a.evidence);
        s.timeline.resize(static_cast<std::size_t>(windows));
        for (std::size_t w = 0; w < s.timeline.size(); ++w)
            s.timeline[w] = a.windowSpan[w] > 0 ? static_cast<double>(a.windowLateness[w]) / static_cast<double>(a.windowSpan[w]) : 0.0;

        // Runs of straggling windows become episodes.
        for (int w = 0; w < windows;) {
            auto straggling = [&](int x) {
                return s.timeline[static_cast<std::size_t>(x)] >= params.episodeScore && a.windowLate[static_cast<std::size_t>(x)] >= params.episodeMinLate;
            };
            if (!straggling(w)) {
                ++w;
                continue;
            }
            int stop = w;
            Nanos late = 0, work = 0;
            while (stop < windows && straggling(stop)) {
                late += a.windowBehindMedian[static_cast<std::size_t>(stop)];
                work += a.windowLateWork[static_cast<std::size_t>(stop)];
                ++stop;
            }
            if (s.gpu >= 0) {
                // Its work took `work`; the others did the same work in `work - late`.
                const double slowdown = work > late ? static_cast<double>(work) / static_cast<double>(work - late) : 1.0;
                report.episodes.push_back({s.gpu, first + w * report.windowLength, std::min(last, first + stop * report.windowLength),
                                           slowdown, "late in collectives (trace analysis, rank " + std::to_string(rank) + ")"});
            }
            w = stop;
        }
        report.ranks.push_back(std::move(s));
    }
    // The rank that cost the job the most waiting comes first.
    std::sort(report.ranks.begin(), report.ranks.end(), [](const auto& x, const auto& y) {
        return x.totalLateness != y.totalLateness ? x.totalLateness > y.totalLateness : x.rank < y.rank;
    });
    std::sort(report.episodes.begin(), report.episodes.end(), [](const auto& x, const auto& y) { return x.begin < y.begin; });
    return report;
}

void appendDetectedStragglers(Run& run, const StragglerReport& report) {
    run.stragglers.insert(run.stragglers.end(), report.episodes.begin(), report.episodes.end());
    std::stable_sort(run.stragglers.begin(), run.stragglers.end(), [](const auto& x, const auto& y) { return x.begin < y.begin; });
}

}  // namespace faultline
