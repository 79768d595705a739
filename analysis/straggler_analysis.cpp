#include "straggler_analysis.h"

#include "model/format.h"
#include "model/parallel.h"
#include "telemetry_warnings.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <numeric>
#include <optional>
#include <span>

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

// Which of two late arrivals is the worse: the longer wait, then the earlier one. A total
// order, so that the five kept are the same however the instances were shared out.
bool worse(const LateArrival& x, const LateArrival& y) {
    if (x.lateness != y.lateness) return x.lateness > y.lateness;
    if (x.enter != y.enter) return x.enter < y.enter;
    return x.group != y.group ? x.group < y.group : x.seq < y.seq;
}

void keepWorst(std::vector<LateArrival>& evidence, const LateArrival& a) {
    constexpr std::size_t kKeep = 5;
    if (evidence.size() < kKeep) {
        evidence.push_back(a);
        return;
    }
    auto least = std::min_element(evidence.begin(), evidence.end(), [](const auto& x, const auto& y) { return worse(y, x); });
    if (worse(a, *least)) *least = a;
}

// Adds what `from` holds to `into`: both accumulated over the same windows.
void addAccumulator(RankAccumulator& into, const RankAccumulator& from) {
    into.lateness += from.lateness;
    into.span += from.span;
    into.collectives += from.collectives;
    into.late += from.late;
    for (const LateArrival& a : from.evidence) keepWorst(into.evidence, a);
    auto add = [](auto& x, const auto& y) { std::transform(x.begin(), x.end(), y.begin(), x.begin(), std::plus<>()); };
    add(into.windowLateness, from.windowLateness);
    add(into.windowSpan, from.windowSpan);
    add(into.windowLateWork, from.windowLateWork);
    add(into.windowBehindMedian, from.windowBehindMedian);
    add(into.windowLate, from.windowLate);
}

// The trace's span, cut into equal windows for the per-rank timelines.
struct Windows {
    Nanos first = 0, last = 0, length = 1;
    int count = 1;
    std::size_t of(Nanos t) const { return static_cast<std::size_t>(std::clamp(static_cast<int>((t - first) / length), 0, count - 1)); }
};

// What one pass over the records finds: their span, highest rank and range of groups. On
// every core, a block of records at a time: a run holds tens of millions.
struct RecordExtent {
    Nanos first = INT64_MAX, last = INT64_MIN;
    std::int32_t maxRank = 0;
    std::int32_t lowGroup = INT32_MAX, highGroup = INT32_MIN;
    void add(const RecordExtent& o) {
        first = std::min(first, o.first);
        last = std::max(last, o.last);
        maxRank = std::max(maxRank, o.maxRank);
        lowGroup = std::min(lowGroup, o.lowGroup);
        highGroup = std::max(highGroup, o.highGroup);
    }
};

RecordExtent extentOf(const CollectiveRecords& records) {
    std::vector<RecordExtent> ofBlock(rowBlocks(records.size()));
    forEachRowBlock(records.size(), [&](std::size_t b, std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            const CollectiveRecord& r = records[i];
            ofBlock[b].add({r.enter, r.exit, r.rank, r.group, r.group});
        }
    });
    RecordExtent all;
    for (const RecordExtent& x : ofBlock) all.add(x);
    return all;
}

Windows windowsOf(const RecordExtent& extent, int count) {
    Windows w;
    w.first = extent.first;
    w.last = std::max(extent.first, extent.last);
    w.count = std::max(1, count);
    w.length = std::max<Nanos>(1, (w.last - w.first + w.count - 1) / w.count);
    return w;
}

// Whether values from lo to hi are few enough to count: not many more than the n items.
bool countable(std::int64_t lo, std::int64_t hi, std::size_t n) {
    return static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo) <= 4 * static_cast<std::uint64_t>(n) + 1024;
}

// The instances visit the records in (group, seq) order, all over the run: each is asked of
// memory this many visits ahead, so that its wait overlaps the others' rather than adding up.
constexpr std::size_t kPrefetchAhead = 48;
void prefetchRecord(const CollectiveRecords& records, std::span<const std::uint32_t> order, std::size_t k) {
    if (k < order.size()) __builtin_prefetch(&records[order[k]]);
}

// Record indices by group (lowGroup + 0 .. groups - 1) into `order`, ties in record order;
// returns where each group's begin, and (last) their end. A counting sort on every core
// (placesOfRunsByKey).
std::vector<std::size_t> byGroup(const CollectiveRecords& records, std::int32_t lowGroup, std::size_t groups, std::vector<std::uint32_t>& order) {
    auto groupOf = [&](std::size_t i) { return static_cast<std::size_t>(records[i].group - lowGroup); };
    const std::size_t runs = parallelWorkers(rowBlocks(records.size()));
    auto firstOfRun = [&](std::size_t run) { return run * records.size() / runs; };
    std::vector<std::vector<std::uint32_t>> next(runs);
    forEachInParallel(runs, [&](std::size_t run) {
        std::vector<std::uint32_t>& count = next[run];
        count.assign(groups, 0);
        for (std::size_t i = firstOfRun(run); i < firstOfRun(run + 1); ++i) ++count[groupOf(i)];
    });
    const std::vector<std::size_t> start = placesOfRunsByKey(next, groups);
    forEachInParallel(runs, [&](std::size_t run) {
        std::vector<std::uint32_t>& cursor = next[run];
        for (std::size_t i = firstOfRun(run); i < firstOfRun(run + 1); ++i) order[cursor[groupOf(i)]++] = static_cast<std::uint32_t>(i);
    });
    return start;
}

// Record indices ordered by (group, seq), ties in record order, so that each collective
// instance (records sharing group and seq, ranks in any order) is a run of neighbours.
// Counted rather than compared where the numbers are dense (group indices, sequence numbers
// counting up): a comparison sort of tens of millions of indices took most of an import.
std::vector<std::uint32_t> byInstance(const CollectiveRecords& records, const RecordExtent& extent) {
    // Memory: the order and, for the sort by seq, one group's indices and seqs at a time (tens of
    // millions of records: each array of them is over 100 MB).
    std::vector<std::uint32_t> order(records.size());
    if (records.empty()) return order;
    auto bySeq = [&](std::uint32_t a, std::uint32_t b) { return records[a].seq != records[b].seq ? records[a].seq < records[b].seq : a < b; };
    const std::int32_t lowGroup = extent.lowGroup;
    if (!countable(lowGroup, extent.highGroup, records.size())) {
        std::iota(order.begin(), order.end(), 0u);
        std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
            return records[a].group != records[b].group ? records[a].group < records[b].group : bySeq(a, b);
        });
        return order;
    }
    const std::size_t groups = static_cast<std::size_t>(extent.highGroup - lowGroup) + 1;
    const std::vector<std::size_t> groupStart = byGroup(records, lowGroup, groups, order);
    // Each group's run is sorted by seq on its own, the groups on every core.
    forEachInParallel(groups, [&](std::size_t g) {
        const std::span<std::uint32_t> range = std::span(order).subspan(groupStart[g], groupStart[g + 1] - groupStart[g]);
        if (range.size() < 2) return;
        // The group's seqs gathered once: its records lie all over the run.
        std::vector<std::int64_t> seqs(range.size());
        for (std::size_t k = 0; k < range.size(); ++k) seqs[k] = records[range[k]].seq;
        const auto [low, high] = std::minmax_element(seqs.begin(), seqs.end());
        const std::int64_t lo = *low, hi = *high;
        if (countable(lo, hi, range.size())) {
            // A stable counting sort by seq.
            std::vector<std::uint32_t> next(static_cast<std::size_t>(hi - lo) + 2, 0);
            for (std::int64_t seq : seqs) ++next[static_cast<std::size_t>(seq - lo) + 1];
            std::partial_sum(next.begin(), next.end(), next.begin());
            std::vector<std::uint32_t> sorted(range.size());
            for (std::size_t k = 0; k < range.size(); ++k) sorted[next[static_cast<std::size_t>(seqs[k] - lo)]++] = range[k];
            std::copy(sorted.begin(), sorted.end(), range.begin());
        } else {
            std::sort(range.begin(), range.end(), bySeq);
        }
    });
    return order;
}

// A bit a record, set from every core at once: tens of millions of records share words.
class RecordMarks {
public:
    explicit RecordMarks(std::size_t records) : m_words((records + 63) / 64) {}
    void mark(std::size_t i) { m_words[i / 64].fetch_or(std::uint64_t{1} << (i % 64), std::memory_order_relaxed); }
    bool operator[](std::size_t i) const { return (m_words[i / 64].load(std::memory_order_relaxed) >> (i % 64)) & 1; }

private:
    std::vector<std::atomic<std::uint64_t>> m_words;
};

// What every collective instance is looked at with. The compute before a late arrival is
// added afterwards, in time order (addLateWork): it needs the rank's previous collective,
// which the instances, in (group, seq) order, do not reach.
struct TraceContext {
    const CollectiveRecords& records;
    const Windows& windows;
    const StragglerAnalysisParams& params;
    RecordMarks& lateWork;  // by record: its compute before counts towards windowLateWork
};

// Whether the records are in order of their enter times, looked at on every core.
bool inTimeOrder(const CollectiveRecords& records) {
    std::atomic<bool> sorted{true};
    forEachRowBlock(records.size(), [&](std::size_t, std::size_t begin, std::size_t end) {
        auto byEnter = [](const CollectiveRecord& a, const CollectiveRecord& b) { return a.enter < b.enter; };
        if (!std::is_sorted(records.begin() + static_cast<std::ptrdiff_t>(begin > 0 ? begin - 1 : 0), records.begin() + static_cast<std::ptrdiff_t>(end), byEnter))
            sorted = false;
    });
    return sorted;
}

// The compute before an arrival: the time since the same rank left its previous collective,
// on that rank's own clock.
Nanos workBefore(const CollectiveRecord& r, Nanos previousExit) { return std::max<Nanos>(0, r.enter - previousExit); }

// addLateWork for records in time order (as a run keeps them): a rank's previous collective is
// the last one seen. Each core takes a part of the records, adding into sums of its own; the
// first record of each rank in a part is left to the end, when the parts before it have said
// where that rank's collective before it ended.
void addLateWorkInTimeOrder(const CollectiveRecords& records, const RecordMarks& lateWork, const Windows& windows, std::vector<RankAccumulator>& acc) {
    const std::size_t ranks = acc.size(), perRank = static_cast<std::size_t>(windows.count);
    struct Part {
        std::vector<Nanos> lastExit;      // by rank, where `seen`
        std::vector<char> seen;
        std::vector<std::size_t> firsts;  // each rank's first record in the part
        std::vector<Nanos> lateWork;      // by rank and window
    };
    std::vector<Part> parts(parallelWorkers(rowBlocks(records.size())));
    auto firstOf = [&](std::size_t p) { return p * records.size() / parts.size(); };
    forEachInParallel(parts.size(), [&](std::size_t p) {
        Part& own = parts[p];
        own.lastExit.assign(ranks, 0);
        own.seen.assign(ranks, 0);
        own.lateWork.assign(ranks * perRank, 0);
        for (std::size_t i = firstOf(p); i < firstOf(p + 1); ++i) {
            const CollectiveRecord& c = records[i];
            const auto rank = static_cast<std::size_t>(c.rank);
            if (!own.seen[rank]) own.firsts.push_back(i);
            else if (lateWork[i]) own.lateWork[rank * perRank + windows.of(c.enter)] += workBefore(c, own.lastExit[rank]);
            own.seen[rank] = 1;
            own.lastExit[rank] = c.exit;
        }
    });
    std::vector<Nanos> lastExit(ranks, 0);
    std::vector<char> seen(ranks, 0);
    for (const Part& own : parts) {
        for (std::size_t i : own.firsts) {
            const CollectiveRecord& c = records[i];
            const auto rank = static_cast<std::size_t>(c.rank);
            if (seen[rank] && lateWork[i]) acc[rank].windowLateWork[windows.of(c.enter)] += workBefore(c, lastExit[rank]);
        }
        for (std::size_t rank = 0; rank < ranks; ++rank) {
            if (!own.seen[rank]) continue;
            seen[rank] = 1;
            lastExit[rank] = own.lastExit[rank];
            for (std::size_t w = 0; w < perRank; ++w) acc[rank].windowLateWork[w] += own.lateWork[rank * perRank + w];
        }
    }
}

// Adds to each rank's windowLateWork the compute before each arrival marked in `lateWork`
// (workBefore). A bit a record rather than a number: tens of millions of them are kept.
void addLateWork(const CollectiveRecords& records, const RecordMarks& lateWork, const Windows& windows,
                 std::vector<RankAccumulator>& acc) {
    auto add = [&](const CollectiveRecord& r, Nanos previousExit) {
        acc[static_cast<std::size_t>(r.rank)].windowLateWork[windows.of(r.enter)] += workBefore(r, previousExit);
    };
    if (inTimeOrder(records)) {
        addLateWorkInTimeOrder(records, lateWork, windows, acc);
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
            c.lateWork.mark(instance[i]);
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
    std::sort(a.evidence.begin(), a.evidence.end(), worse);
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

    const RecordExtent extent = extentOf(records);
    const Windows windows = windowsOf(extent, params.windows);
    report.traceBegin = windows.first;
    report.traceEnd = windows.last;
    report.windowLength = windows.length;
    auto accumulators = [&] {
        std::vector<RankAccumulator> acc(static_cast<std::size_t>(extent.maxRank) + 1);
        const auto perWindow = static_cast<std::size_t>(windows.count);
        for (RankAccumulator& a : acc) {
            a.windowLateness.assign(perWindow, 0);
            a.windowSpan.assign(perWindow, 0);
            a.windowLateWork.assign(perWindow, 0);
            a.windowBehindMedian.assign(perWindow, 0);
            a.windowLate.assign(perWindow, 0);
        }
        return acc;
    };

    // The instances on every core, each core taking a run of whole instances into
    // accumulators of its own (tens of millions of records: this was most of the analysis).
    RecordMarks lateWork(records.size());
    std::vector<RankAccumulator> acc;
    {
        const std::vector<std::uint32_t> order = byInstance(records, extent);
        auto sameInstance = [&](std::size_t k) { return records[order[k - 1]].group == records[order[k]].group && records[order[k - 1]].seq == records[order[k]].seq; };
        const std::size_t parts = parallelWorkers(order.size());
        std::vector<std::size_t> cut(parts + 1, order.size());
        cut[0] = 0;
        for (std::size_t p = 1; p < parts; ++p) {
            std::size_t k = std::max(cut[p - 1], p * order.size() / parts);
            while (k > 0 && k < order.size() && sameInstance(k)) ++k;
            cut[p] = k;
        }
        struct Part {
            std::vector<RankAccumulator> acc;
            std::int64_t instances = 0, skewed = 0;
        };
        std::vector<Part> part(parts);
        const TraceContext context{records, windows, params, lateWork};
        forEachInParallel(parts, [&](std::size_t p) {
            Part& own = part[p];
            own.acc = accumulators();
            std::vector<Nanos> durations;
            for (std::size_t begin = cut[p]; begin < cut[p + 1];) {
                std::size_t end = begin + 1;
                while (end < cut[p + 1] && sameInstance(end)) {
                    ++end;
                    prefetchRecord(records, order, end + kPrefetchAhead);
                }
                if (end - begin >= 2) {
                    ++own.instances;
                    own.skewed += accumulateInstance(context, std::span(order).subspan(begin, end - begin), own.acc, durations);
                }
                begin = end;
            }
        });
        acc = std::move(part[0].acc);
        for (const Part& p : part) {
            report.instances += p.instances;
            report.skewedInstances += p.skewed;
            if (&p != &part[0])
                for (std::size_t rank = 0; rank < acc.size(); ++rank) addAccumulator(acc[rank], p.acc[rank]);
        }
    }
    addLateWork(records, lateWork, windows, acc);

    // Whether a late rank's GPU was throttled, hot or short of power while traced: one pass
    // over the telemetry for all of them, made when the first late rank is found.
    std::optional<TelemetryWindow> telemetry;
    for (std::size_t rank = 0; rank < acc.size(); ++rank) {
        if (acc[rank].collectives == 0) continue;
        RankStragglerScore s = scoreRank(rank, acc[rank], run, windows);
        if (s.late > 0) {
            if (!telemetry) telemetry.emplace(run, windows.first, windows.last);
            s.telemetry = telemetry->evidence(s.gpu);
        }
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
