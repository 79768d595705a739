#include "importers/run_collectives.h"

#include "importers/pytorch/flight_recorder_collectives.h"
#include "importers/text/parallel_files.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <new>
#include <numeric>
#include <span>
#include <thread>

#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace faultline {

namespace {

// Ops and process groups, each kept once in the run's tables.
class CollectiveTables {
public:
    explicit CollectiveTables(Run& run) : m_run(run) {}
    std::int32_t op(const std::string& name) {
        auto [it, added] = m_ops.try_emplace(name, static_cast<std::int32_t>(m_run.collectiveOps.size()));
        if (added) m_run.collectiveOps.push_back(name);
        return it->second;
    }
    std::int32_t group(const std::string& name, const std::vector<std::int32_t>& ranks) {
        auto [it, added] = m_groups.try_emplace({name, ranks}, static_cast<std::int32_t>(m_run.processGroups.size()));
        if (added) m_run.processGroups.push_back({name, ranks});
        return it->second;
    }

private:
    Run& m_run;
    std::map<std::string, std::int32_t> m_ops;
    std::map<std::pair<std::string, std::vector<std::int32_t>>, std::int32_t> m_groups;
};

// The group an entry names, as the run keeps it: its name (its pg_id when it has none) and
// the ranks pg_config gives that name.
std::int32_t dumpGroup(const FlightRecorderDump& dump, const FlightRecorderEntryGroup& g, CollectiveTables& tables) {
    const std::string name = g.name.empty() ? std::to_string(g.pgId) : g.name;
    static const std::vector<std::int32_t> kNoRanks;
    const auto it = dump.groups.find(name);
    return tables.group(name, it == dump.groups.end() || !it->second.ranks ? kNoRanks : *it->second.ranks);
}

// The run's index of each of a dump's groups and ops, looked up once each, in the order its
// collectives first name them.
struct DumpIndices {
    std::vector<std::int32_t> groups, ops;
};

template <typename F>
void forEachDumpCollective(const FlightRecorderDump& dump, F&& f) {
    const FlightRecorderCollectives collectives(dump);
    for (std::size_t i = 0; i < dump.entries.size(); ++i)
        if (const auto c = collectives.at(i); const auto* collective = std::get_if<FlightRecorderCollective>(&c))  // else the importer reported it
            f(dump.entries[i], *collective, collectives);
}

// The entries whose collectives first name each of a dump's groups and ops, in entry order:
// found on every core, then looked up in the run's tables dump by dump, in order.
struct FirstNamed {
    std::vector<std::uint32_t> groups, ops;
};

FirstNamed firstNamed(const FlightRecorderDump& dump) {
    FirstNamed first;
    std::vector<bool> group(dump.entryGroups.size()), op(dump.ops.size());
    forEachDumpCollective(dump, [&](const FlightRecorderEntry& e, const FlightRecorderCollective&, const FlightRecorderCollectives&) {
        const auto index = static_cast<std::uint32_t>(&e - dump.entries.data());
        if (!group[e.group]) group[e.group] = true, first.groups.push_back(index);
        if (!op[e.op]) op[e.op] = true, first.ops.push_back(index);
    });
    return first;
}

DumpIndices dumpIndices(const FlightRecorderDump& dump, const FirstNamed& first, CollectiveTables& tables) {
    DumpIndices x{std::vector<std::int32_t>(dump.entryGroups.size(), -1), std::vector<std::int32_t>(dump.ops.size(), -1)};
    const FlightRecorderCollectives collectives(dump);
    for (std::uint32_t i : first.groups) x.groups[dump.entries[i].group] = dumpGroup(dump, dump.groupOf(dump.entries[i]), tables);
    for (std::uint32_t i : first.ops) x.ops[dump.entries[i].op] = tables.op(collectives.opOf(dump.entries[i]));
    return x;
}

// Writes a dump's records from `out` on, with times from the run's start, in entry order;
// returns how many (at most one an entry).
std::size_t writeRecords(const FlightRecorderDump& dump, const DumpIndices& x, EpochNs base, CollectiveRecord* out) {
    std::size_t n = 0;
    forEachDumpCollective(dump, [&](const FlightRecorderEntry& e, const FlightRecorderCollective& c, const FlightRecorderCollectives&) {
        out[n++] = CollectiveRecord{dump.rank, x.groups[e.group], x.ops[e.op], c.seq, c.enter - base, c.exit - base, c.bytes};
    });
    return n;
}

// Records' memory that is touched only where records land, freed as a whole: a window's
// buffer grows in memory as the dumps that fill it shrink.
using RecordBuffer = std::unique_ptr<CollectiveRecord[], decltype(&std::free)>;

RecordBuffer recordBuffer(std::size_t n) {
    // CollectiveRecord is an aggregate of integers: malloc'd memory holds it as is.
    auto* p = static_cast<CollectiveRecord*>(std::malloc(std::max<std::size_t>(n, 1) * sizeof(CollectiveRecord)));
    if (!p) throw std::bad_alloc();
    return RecordBuffer(p, &std::free);
}

// Sorts the records of `sources` sources by time, ties in source order then record order, as
// one stable sort would, without its buffer of half the records (gigabytes for a job of 16,384
// ranks) or its passes over them all: each record goes straight to its slice of time (counted
// first), then each slice, a few thousand records, is sorted on its own. `forSource(s, f)`
// calls f with every record of source s, in order, each time it is called; `release(s)` may
// free source s once its records are placed. The slices are filled in windows of their own
// memory, each appended to `records` and freed in turn, so that the sources, the windows and
// `records` together stay near the size of the records: the whole of them never exists twice.
// Every pass reads the sources on every core: the placing pass a block of sources at a time,
// each worker filling the slices of its own windows, so that each slice still receives its
// records in source order.
template <typename ForSource, typename Release>
void fillInTimeOrder(std::size_t sources, const ForSource& forSource, const Release& release, std::vector<CollectiveRecord>& records) {
    struct Extent {
        std::size_t count = 0;
        EpochNs lo = INT64_MAX, hi = INT64_MIN;
    };
    std::vector<Extent> extents(sources);
    forEachFileInParallel(sources, 0, [&](std::size_t s) {
        Extent& x = extents[s];
        forSource(s, [&x](const CollectiveRecord& r) {
            ++x.count;
            x.lo = std::min(x.lo, r.enter);
            x.hi = std::max(x.hi, r.enter);
        });
    });
    std::size_t total = 0;
    EpochNs lo = INT64_MAX, hi = INT64_MIN;
    for (const Extent& x : extents) {
        total += x.count;
        lo = std::min(lo, x.lo);
        hi = std::max(hi, x.hi);
    }
    if (total == 0) return;
    const std::uint64_t slices = total / 4096 + 1;
    const std::uint64_t width = (static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo)) / slices + 1;
    auto sliceOf = [&](EpochNs enter) { return static_cast<std::size_t>((static_cast<std::uint64_t>(enter) - static_cast<std::uint64_t>(lo)) / width); };
    // Counted by runs of sources, each into counts of its own, then added up.
    const std::size_t runs = std::min<std::size_t>(sources, 16);
    std::vector<std::vector<std::size_t>> counts(runs);
    forEachFileInParallel(runs, 0, [&](std::size_t run) {
        std::vector<std::size_t>& c = counts[run];
        c.assign(slices + 1, 0);
        for (std::size_t s = run * sources / runs; s < (run + 1) * sources / runs; ++s)
            forSource(s, [&](const CollectiveRecord& r) { ++c[sliceOf(r.enter) + 1]; });
    });
    std::vector<std::size_t> start(slices + 1, 0);
    for (const std::vector<std::size_t>& c : counts)
        for (std::size_t i = 0; i < c.size(); ++i) start[i] += c[i];
    counts = {};
    std::partial_sum(start.begin(), start.end(), start.begin());

    constexpr std::size_t kSlicesPerWindow = 256;  // about a million records, 48 MB
    const std::size_t windows = (slices + kSlicesPerWindow - 1) / kSlicesPerWindow;
    auto windowBegin = [&](std::size_t w) { return start[std::min<std::size_t>(w * kSlicesPerWindow, slices)]; };
    std::vector<RecordBuffer> buffers;
    buffers.reserve(windows);
    for (std::size_t w = 0; w < windows; ++w) buffers.push_back(recordBuffer(windowBegin(w + 1) - windowBegin(w)));
    std::vector<std::size_t> next(start.begin(), start.end() - 1);
    const std::size_t workers = std::min<std::size_t>(windows, std::max(1u, std::thread::hardware_concurrency()));
    constexpr std::size_t kSourcesPerBlock = 64;
    for (std::size_t from = 0; from < sources; from += kSourcesPerBlock) {
        const std::size_t to = std::min(sources, from + kSourcesPerBlock);
        forEachFileInParallel(workers, static_cast<int>(workers), [&](std::size_t worker) {
            const std::size_t firstWindow = worker * windows / workers, endWindow = (worker + 1) * windows / workers;
            for (std::size_t s = from; s < to; ++s)
                forSource(s, [&](const CollectiveRecord& r) {
                    const std::size_t slice = sliceOf(r.enter);
                    const std::size_t w = slice / kSlicesPerWindow;
                    if (w >= firstWindow && w < endWindow) buffers[w][next[slice]++ - windowBegin(w)] = r;
                });
        });
        for (std::size_t s = from; s < to; ++s) release(s);
    }
    forEachFileInParallel(windows, 0, [&](std::size_t w) {
        CollectiveRecord* const base = buffers[w].get() - windowBegin(w);
        for (std::size_t s = w * kSlicesPerWindow; s < std::min<std::size_t>(slices, (w + 1) * kSlicesPerWindow); ++s)
            std::stable_sort(base + start[s], base + start[s + 1], [](const CollectiveRecord& a, const CollectiveRecord& b) { return a.enter < b.enter; });
    });
    records.reserve(records.size() + total);
    for (std::size_t w = 0; w < windows; ++w) {
        records.insert(records.end(), buffers[w].get(), buffers[w].get() + (windowBegin(w + 1) - windowBegin(w)));
        buffers[w].reset();
    }
}

// Hands the memory of freed dumps back to the system: their many small blocks otherwise stay
// mapped while the records that replace them grow.
void releaseFreedMemory() {
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}

// The dumps' records, made on every core a block of dumps at a time, each dump emptied once
// its records are made: the records take the room the dumps took, and each entry is looked
// at once, not in every pass of the time ordering. A block's records (about a million) lie
// in one buffer, freed whole with its last dump: a vector a dump, freed by another thread
// than made it, was not given back to the system (peak 3.3 GB for 16,384 dumps, not 1.9).
class DumpRecords {
public:
    DumpRecords(std::vector<FlightRecorderDump>& dumps, const std::vector<DumpIndices>& indices, EpochNs base)
        : m_blockOf(dumps.size()), m_begin(dumps.size()), m_count(dumps.size()) {
        constexpr std::size_t kRecordsPerBlock = std::size_t{1} << 20;
        for (std::size_t from = 0; from < dumps.size();) {
            std::size_t to = from, size = 0;
            for (; to < dumps.size() && (to == from || size + dumps[to].entries.size() <= kRecordsPerBlock); ++to) {
                m_blockOf[to] = m_blocks.size();
                m_begin[to] = size;
                size += dumps[to].entries.size();
            }
            CollectiveRecord* const records = m_blocks.emplace_back(Block{to, recordBuffer(size)}).records.get();
            forEachFileInParallel(to - from, 0, [&](std::size_t k) {
                m_count[from + k] = writeRecords(dumps[from + k], indices[from + k], base, records + m_begin[from + k]);
                dumps[from + k] = FlightRecorderDump();
            });
            releaseFreedMemory();
            from = to;
        }
    }
    std::span<const CollectiveRecord> of(std::size_t dump) const {
        return {m_blocks[m_blockOf[dump]].records.get() + m_begin[dump], m_count[dump]};
    }
    void release(std::size_t dump) {  // once its records are placed
        Block& b = m_blocks[m_blockOf[dump]];
        if (dump + 1 == b.endDump) b.records.reset();
    }

private:
    struct Block {
        std::size_t endDump;
        RecordBuffer records;
    };
    std::vector<Block> m_blocks;
    std::vector<std::size_t> m_blockOf, m_begin, m_count;  // by dump
};

}  // namespace

CollectiveSpan collectiveSpan(const ImportedEvents& events) {
    CollectiveSpan span;
    auto see = [&span](EpochNs enter, EpochNs exit) {
        if (enter > 0 && (span.first == 0 || enter < span.first)) span.first = enter;
        span.last = std::max(span.last, exit);
    };
    for (const ImportedCollective& c : events.collectives) see(c.enter, c.exit);
    // Each dump's span on every core (tens of millions of entries), then the span of them all:
    // the first and last are the same whichever order they are met in.
    const auto& dumps = events.flightRecorderDumps;
    std::vector<CollectiveSpan> ofDump(dumps.size());
    forEachFileInParallel(dumps.size(), 0, [&](std::size_t d) {
        CollectiveSpan& own = ofDump[d];
        const FlightRecorderCollectives collectives(dumps[d]);
        for (std::size_t i = 0; i < dumps[d].entries.size(); ++i)
            if (const auto c = collectives.at(i); const auto* collective = std::get_if<FlightRecorderCollective>(&c)) {
                if (collective->enter > 0 && (own.first == 0 || collective->enter < own.first)) own.first = collective->enter;
                own.last = std::max(own.last, collective->exit);
            }
    });
    for (const CollectiveSpan& s : ofDump) {
        if (s.first > 0) see(s.first, s.last);
        else span.last = std::max(span.last, s.last);
    }
    return span;
}

void addCollectives(ImportedEvents& events, EpochNs base, Run& run) {
    CollectiveTables tables(run);
    // The traces' groups and ops are looked up once; their records are made as they are placed.
    std::vector<std::pair<std::int32_t, std::int32_t>> traced;
    traced.reserve(events.collectives.size());
    bool unnumbered = false;
    for (const ImportedCollective& c : events.collectives) {
        traced.emplace_back(tables.group(c.group, c.groupRanks), tables.op(c.op));
        unnumbered |= c.seq < 0;
    }
    auto& dumps = events.flightRecorderDumps;
    std::vector<FirstNamed> first(dumps.size());
    forEachFileInParallel(dumps.size(), 0, [&](std::size_t d) { first[d] = firstNamed(dumps[d]); });
    std::vector<DumpIndices> indices;
    indices.reserve(dumps.size());
    for (std::size_t d = 0; d < dumps.size(); ++d) indices.push_back(dumpIndices(dumps[d], first[d], tables));
    first = {};
    DumpRecords made(dumps, indices, base);
    std::vector<CollectiveRecord>& records = run.collectives;
    // Source 0: the traces' collectives; then each dump.
    fillInTimeOrder(
        1 + indices.size(),
        [&](std::size_t s, const auto& f) {
            if (s > 0) {
                for (const CollectiveRecord& r : made.of(s - 1)) f(r);
                return;
            }
            for (std::size_t i = 0; i < traced.size(); ++i) {
                const ImportedCollective& c = events.collectives[i];
                f(CollectiveRecord{c.rank, traced[i].first, traced[i].second, c.seq, c.enter - base, c.exit - base, c.bytes});
            }
        },
        [&](std::size_t s) {
            if (s > 0) made.release(s - 1);
        },
        records);
    releaseFreedMemory();

    // Without the file's own sequence number, a rank's n-th collective in a group is taken
    // to be every member's n-th: true when all ranks' traces cover the same steps.
    if (unnumbered) {
        std::map<std::pair<std::int32_t, std::int32_t>, std::int64_t> nextSeq;  // (rank, group) -> seq
        for (CollectiveRecord& r : records) {
            std::int64_t& seq = nextSeq[{r.rank, r.group}];
            if (r.seq < 0) r.seq = seq;
            seq = r.seq + 1;
        }
    }
}

}  // namespace faultline
