#include "straggler_analysis.h"

#include "model/format.h"
#include "telemetry_warnings.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <numeric>
#include <optional>
#include <span>
#include <thread>

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

// The trace's span, cut into equal windows for the per-rank timelines.
struct Windows {
    Nanos first = 0, last = 0, length = 1;
    int count = 1;
    std::size_t of(Nanos t) const { return static_cast<std::size_t>(std::clamp(static_cast<int>((t - first) / length), 0, count - 1)); }
};

Windows windowsOf(const std::vector<CollectiveRecord>& records, int count) {
    Windows w;
    w.first = records.front().enter;
    w.last = records.front().exit;
    for (const CollectiveRecord& r : records) {
        w.first = std::min(w.first, r.enter);
        w.last = std::max(w.last, r.exit);
    }
    w.count = std::max(1, count);
    w.length = std::max<Nanos>(1, (w.last - w.first + w.count - 1) / w.count);
    return w;
}

// Stable counting sort: `in`'s indices by key(i) in [0, keys), into `out`.
template <typename Indices, typename Key>
void countingSort(const Indices& in, std::size_t keys, Key key, std::span<std::uint32_t> out) {
    std::vector<std::size_t> start(keys + 1, 0);
    for (std::uint32_t i : in) ++start[key(i) + 1];
    std::partial_sum(start.begin(), start.end(), start.begin());
    for (std::uint32_t i : in) out[start[key(i)]++] = i;
}

// The indices 0..n-1 to loop over without storing them (std::views::iota does not compile
// with clang and GCC 12's library, which the fuzz build uses).
struct FirstIndices {
    std::uint32_t n;
    struct Index {
        std::uint32_t i;
        std::uint32_t operator*() const { return i; }
        Index& operator++() { return ++i, *this; }
        bool operator!=(const Index& other) const { return i != other.i; }
    };
    Index begin() const { return {0}; }
    Index end() const { return {n}; }
};

// Calls work(i) for every i in [0, count) on every core; the first exception is rethrown.
template <typename Work>
void forEachInParallel(std::size_t count, const Work& work) {
    std::atomic<std::size_t> next{0};
    std::exception_ptr error;
    std::mutex errorMutex;
    auto run = [&] {
        for (std::size_t i; (i = next.fetch_add(1)) < count;) {
            try {
                work(i);
            } catch (...) {
                const std::lock_guard lock(errorMutex);
                if (!error) error = std::current_exception();
                next = count;
            }
        }
    };
    std::vector<std::thread> pool;
    for (std::size_t t = 1; t < std::min<std::size_t>(count, std::max(1u, std::thread::hardware_concurrency())); ++t) pool.emplace_back(run);
    run();
    for (std::thread& t : pool) t.join();
    if (error) std::rethrow_exception(error);
}

// Whether values from lo to hi are few enough to count: not many more than the n items.
bool countable(std::int64_t lo, std::int64_t hi, std::size_t n) {
    return static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo) <= 4 * static_cast<std::uint64_t>(n) + 1024;
}

// Record indices ordered by (group, seq), ties in record order, so that each collective
// instance (records sharing group and seq, ranks in any order) is a run of neighbours.
// Counted rather than compared where the numbers are dense (group indices, sequence numbers
// counting up): a comparison sort of tens of millions of indices took most of an import.
std::vector<std::uint32_t> byInstance(const std::vector<CollectiveRecord>& records) {
    // Memory: the order and, for the sort by seq, one group's indices at a time (tens of
    // millions of records: each array of them is over 100 MB).
    std::vector<std::uint32_t> order(records.size());
    if (records.empty()) return order;
    const FirstIndices all{static_cast<std::uint32_t>(records.size())};
    auto bySeq = [&](std::uint32_t a, std::uint32_t b) { return records[a].seq != records[b].seq ? records[a].seq < records[b].seq : a < b; };
    const auto [gLo, gHi] = std::minmax_element(records.begin(), records.end(), [](const auto& a, const auto& b) { return a.group < b.group; });
    const std::int32_t lowGroup = gLo->group;
    if (!countable(lowGroup, gHi->group, records.size())) {
        std::iota(order.begin(), order.end(), 0u);
        std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
            return records[a].group != records[b].group ? records[a].group < records[b].group : bySeq(a, b);
        });
        return order;
    }
    const std::size_t groups = static_cast<std::size_t>(gHi->group - lowGroup) + 1;
    auto groupOf = [&](std::uint32_t i) { return static_cast<std::size_t>(records[i].group - lowGroup); };
    std::vector<std::size_t> groupStart(groups + 1, 0);
    for (std::uint32_t i : all) ++groupStart[groupOf(i) + 1];
    std::partial_sum(groupStart.begin(), groupStart.end(), groupStart.begin());
    countingSort(all, groups, groupOf, order);
    // Each group's run is sorted by seq on its own, the groups on every core.
    forEachInParallel(groups, [&](std::size_t g) {
        const std::span<std::uint32_t> range = std::span(order).subspan(groupStart[g], groupStart[g + 1] - groupStart[g]);
        if (range.size() < 2) return;
        std::int64_t lo = INT64_MAX, hi = INT64_MIN;
        for (std::uint32_t i : range) {
            lo = std::min(lo, records[i].seq);
            hi = std::max(hi, records[i].seq);
        }
        if (countable(lo, hi, range.size())) {
            std::vector<std::uint32_t> scratch(range.size());
            countingSort(range, static_cast<std::size_t>(hi - lo) + 1, [&](std::uint32_t i) { return static_cast<std::size_t>(records[i].seq - lo); }, scratch);
            std::copy(scratch.begin(), scratch.end(), range.begin());
        } else {
            std::sort(range.begin(), range.end(), bySeq);
        }
    });
    return order;
}

// What every collective instance is looked at with. The compute before a late arrival is
// added afterwards, in time order (addLateWork): it needs the rank's previous collective,
// which the instances, in (group, seq) order, do not reach.
struct TraceContext {
    const std::vector<CollectiveRecord>& records;
    const Windows& windows;
    const StragglerAnalysisParams& params;
    std::vector<bool>& lateWork;  // by record: its compute before counts towards windowLateWork
};

// Adds to each rank's windowLateWork the compute before each arrival marked in `lateWork`:
// the time since the same rank left its previous collective, on that rank's own clock.
// One bit a record rather than a number: tens of millions of them are kept.
void addLateWork(const std::vector<CollectiveRecord>& records, const std::vector<bool>& lateWork, const Windows& windows,
                 std::vector<RankAccumulator>& acc) {
    auto add = [&](const CollectiveRecord& r, Nanos previousExit) {
        acc[static_cast<std::size_t>(r.rank)].windowLateWork[windows.of(r.enter)] += std::max<Nanos>(0, r.enter - previousExit);
    };
    auto byEnter = [](const CollectiveRecord& a, const CollectiveRecord& b) { return a.enter < b.enter; };
    if (std::is_sorted(records.begin(), records.end(), byEnter)) {
        // In time order (as a run keeps them) a rank's previous collective is the last one seen.
        std::vector<std::optional<Nanos>> lastExit(acc.size());
        for (std::size_t i = 0; i < records.size(); ++i) {
            std::optional<Nanos>& last = lastExit[static_cast<std::size_t>(records[i].rank)];
            if (last && lateWork[i]) add(records[i], *last);
            last = records[i].exit;
        }
        return;
    }
    std::vector<std::uint32_t> byRank(records.size());
    std::iota(byRank.begin(), byRank.end(), 0u);
    std::sort(byRank.begin(), byRank.end(), [&](std::uint32_t a, std::uint32_t b) {
        return records[a].rank != records[b].rank ? records[a].rank < records[b].rank : records[a].enter < records[b].enter;
    });
    for (std::size_t i = 1; i < byRank.size(); ++i)
        if (records[byRank[i - 1]].rank == records[byRank[i]].rank && lateWork[byRank[i]]) add(records[byRank[i]], records[byRank[i - 1]].exit);
}

// What one collective instance says about each of its ranks: the earliest arrival spends the
// longest inside, the last the shortest; everyone else's lateness is how long the earliest
// waited for it. Returns whether some rank came in late enough to count.
bool accumulateInstance(const TraceContext& c, std::span<const std::uint32_t> instance, std::vector<RankAccumulator>& acc,
                        std::vector<Nanos>& durations) {
    auto inside = [&](std::size_t i) { return std::max<Nanos>(0, c.records[instance[i]].exit - c.records[instance[i]].enter); };
    std::size_t lastArrival = 0;
    Nanos longest = 0;
    for (std::size_t i = 0; i < instance.size(); ++i) {
        longest = std::max(longest, inside(i));
        if (inside(i) < inside(lastArrival)) lastArrival = i;
    }
    const Nanos maxLateness = longest - inside(lastArrival);
    // A slowdown is sized against the typical rank, not the earliest one: worked out when
    // first needed, as most instances have no rank late enough to size.
    std::optional<Nanos> typical;
    auto typicalInside = [&] {
        if (!typical) {
            durations.clear();
            for (std::size_t i = 0; i < instance.size(); ++i) durations.push_back(inside(i));
            typical = median(durations);
        }
        return *typical;
    };
    bool skewed = false;
    for (std::size_t i = 0; i < instance.size(); ++i) {
        const CollectiveRecord& r = c.records[instance[i]];
        RankAccumulator& a = acc[static_cast<std::size_t>(r.rank)];
        const std::size_t w = c.windows.of(r.enter);
        ++a.collectives;
        a.span += longest;
        a.windowSpan[w] += longest;
        const Nanos lateness = longest - inside(i);
        if (lateness < c.params.minLateness) continue;
        a.lateness += lateness;
        a.windowLateness[w] += lateness;
        keepWorst(a.evidence, {r.group, r.seq, r.op, r.enter, lateness});
        if (i == lastArrival) {
            skewed = true;
            ++a.late;
        }
        // Episodes look for ranks slowed for a while; several can be slow at once, and all
        // that came in with the last (within half its lateness) held the group up.
        if (lateness >= maxLateness - lateness) {  // 2 x lateness, without overflow
            ++a.windowLate[w];
            c.lateWork[instance[i]] = true;
            a.windowBehindMedian[w] += std::max<Nanos>(0, typicalInside() - inside(i));
        }
    }
    return skewed;
}

RankStragglerScore scoreRank(std::size_t rank, RankAccumulator& a, const Run& run, const Windows& windows) {
    RankStragglerScore s;
    s.rank = static_cast<std::int32_t>(rank);
    s.gpu = rank < run.rankToGpu.size() ? run.rankToGpu[rank] : -1;
    s.collectives = a.collectives;
    s.late = a.late;
    s.totalLateness = a.lateness;
    s.score = a.span > 0 ? static_cast<double>(a.lateness) / static_cast<double>(a.span) : 0.0;
    std::sort(a.evidence.begin(), a.evidence.end(), [](const auto& x, const auto& y) { return x.lateness > y.lateness; });
    s.evidence = std::move(a.evidence);
    s.timeline.resize(static_cast<std::size_t>(windows.count));
    for (std::size_t w = 0; w < s.timeline.size(); ++w)
        s.timeline[w] = a.windowSpan[w] > 0 ? static_cast<double>(a.windowLateness[w]) / static_cast<double>(a.windowSpan[w]) : 0.0;
    return s;
}

// Runs of a rank's straggling windows become episodes on its GPU.
void addEpisodes(const RankStragglerScore& s, const RankAccumulator& a, const Windows& windows, const StragglerAnalysisParams& params,
                 std::vector<StragglerEpisode>& episodes) {
    if (s.gpu < 0) return;
    auto straggling = [&](int x) {
        return s.timeline[static_cast<std::size_t>(x)] >= params.episodeScore && a.windowLate[static_cast<std::size_t>(x)] >= params.episodeMinLate;
    };
    for (int w = 0; w < windows.count;) {
        if (!straggling(w)) {
            ++w;
            continue;
        }
        int stop = w;
        Nanos late = 0, work = 0;
        while (stop < windows.count && straggling(stop)) {
            late += a.windowBehindMedian[static_cast<std::size_t>(stop)];
            work += a.windowLateWork[static_cast<std::size_t>(stop)];
            ++stop;
        }
        // Its work took `work`; the others did the same work in `work - late`.
        const double slowdown = work > late ? static_cast<double>(work) / static_cast<double>(work - late) : 1.0;
        episodes.push_back({s.gpu, windows.first + w * windows.length, std::min(windows.last, windows.first + stop * windows.length),
                            slowdown, "late in collectives (trace analysis, rank " + std::to_string(s.rank) + ")"});
        w = stop;
    }
}

}  // namespace

std::string lateRankText(const RankStragglerScore& r) {
    return "last at " + std::to_string(r.late) + " of " + std::to_string(r.collectives) + " collectives, others waited " +
           formatShortDuration(r.totalLateness) + (r.telemetry.empty() ? "" : "; " + r.telemetry);
}

StragglerReport analyzeStragglers(const Run& run, const StragglerAnalysisParams& params) {
    StragglerReport report;
    const auto& records = run.collectives;
    report.records = static_cast<std::int64_t>(records.size());
    if (records.empty()) return report;

    const Windows windows = windowsOf(records, params.windows);
    report.traceBegin = windows.first;
    report.traceEnd = windows.last;
    report.windowLength = windows.length;
    std::int32_t maxRank = 0;
    for (const CollectiveRecord& r : records) maxRank = std::max(maxRank, r.rank);
    std::vector<RankAccumulator> acc(static_cast<std::size_t>(maxRank) + 1);
    const auto perWindow = static_cast<std::size_t>(windows.count);
    for (RankAccumulator& a : acc) {
        a.windowLateness.assign(perWindow, 0);
        a.windowSpan.assign(perWindow, 0);
        a.windowLateWork.assign(perWindow, 0);
        a.windowBehindMedian.assign(perWindow, 0);
        a.windowLate.assign(perWindow, 0);
    }

    std::vector<bool> lateWork(records.size());
    {
        const std::vector<std::uint32_t> order = byInstance(records);
        const TraceContext context{records, windows, params, lateWork};
        std::vector<Nanos> durations;
        for (std::size_t begin = 0; begin < order.size();) {
            std::size_t end = begin + 1;
            const CollectiveRecord& head = records[order[begin]];
            while (end < order.size() && records[order[end]].group == head.group && records[order[end]].seq == head.seq) ++end;
            if (end - begin >= 2) {
                ++report.instances;
                report.skewedInstances += accumulateInstance(context, std::span(order).subspan(begin, end - begin), acc, durations);
            }
            begin = end;
        }
    }
    addLateWork(records, lateWork, windows, acc);

    // Whether a late rank's GPU was throttled, hot or short of power while traced: one pass
    // over the telemetry for all of them.
    const TelemetryWindow telemetry(run, windows.first, windows.last);
    for (std::size_t rank = 0; rank < acc.size(); ++rank) {
        if (acc[rank].collectives == 0) continue;
        RankStragglerScore s = scoreRank(rank, acc[rank], run, windows);
        if (s.late > 0) s.telemetry = telemetry.evidence(s.gpu);
        addEpisodes(s, acc[rank], windows, params, report.episodes);
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
