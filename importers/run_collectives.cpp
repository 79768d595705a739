#include "importers/run_collectives.h"

#include "importers/pytorch/flight_recorder_collectives.h"
#include "importers/text/parallel_files.h"
#include "model/parallel.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <map>
#include <stdexcept>
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

DumpIndices dumpIndices(const FlightRecorderDump& dump, const DumpCollectivesSeen& seen, CollectiveTables& tables) {
    DumpIndices x{std::vector<std::int32_t>(dump.entryGroups.size(), -1), std::vector<std::int32_t>(dump.ops.size(), -1)};
    const FlightRecorderCollectives collectives(dump);
    for (std::uint32_t i : seen.firstOfGroup) x.groups[dump.entries[i].group] = dumpGroup(dump, dump.groupOf(dump.entries[i]), tables);
    for (std::uint32_t i : seen.firstOfOp) x.ops[dump.entries[i].op] = tables.op(collectives.opOf(dump.entries[i]));
    return x;
}

// How many records a source has, and the span of their enter times.
struct SourceExtent {
    std::size_t count = 0;
    EpochNs lo = INT64_MAX, hi = INT64_MIN;
};

// Sorts the records of the sources by time, ties in source order then record order, as
// one stable sort would, straight into their places at the end of `records`: without a sort's
// buffer of half the records (gigabytes for a job of 16,384 ranks), its passes over them all,
// or a copy of them. Each record goes straight to its slice of time (counted first), then each
// slice, a few thousand records, is sorted on its own. `extents`: each source's. `forSource(s, f)`
// calls f with every record of source s, in order, each time it is called; `release(s)` may
// free source s once its records are placed.
// Each core places the sources of its own run of them, from where that run's records begin in
// each slice: every record is read once, and each slice still receives its records in source
// order. `records` grows without being zeroed (CollectiveRecords) and a slice fills from where
// each run's part of it begins, so its pages are touched as the sources that fill them are
// freed: the sources and the records together stay near the size of the records.
template <typename ForSource, typename Release>
void fillInTimeOrder(const std::vector<SourceExtent>& extents, const ForSource& forSource, const Release& release, CollectiveRecords& records) {
    const std::size_t sources = extents.size();
    std::size_t total = 0;
    EpochNs lo = INT64_MAX, hi = INT64_MIN;
    for (const SourceExtent& x : extents) {
        total += x.count;
        lo = std::min(lo, x.lo);
        hi = std::max(hi, x.hi);
    }
    if (total == 0) return;
    const std::uint64_t slices = total / 4096 + 1;
    const std::uint64_t width = (static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo)) / slices + 1;
    auto sliceOf = [&](EpochNs enter) { return static_cast<std::size_t>((static_cast<std::uint64_t>(enter) - static_cast<std::uint64_t>(lo)) / width); };

    const std::size_t runs = std::min<std::size_t>(sources, std::max(1u, std::thread::hardware_concurrency()));
    auto firstOfRun = [&](std::size_t run) { return run * sources / runs; };
    // Each run's records by slice; then where each run's part of each slice begins. The extents
    // come from another pass: records they do not hold would be placed outside the records.
    std::vector<std::vector<std::size_t>> next(runs);
    std::vector<char> held(runs, 1);
    forEachFileInParallel(runs, static_cast<int>(runs), [&](std::size_t run) {
        std::vector<std::size_t>& count = next[run];
        count.assign(slices, 0);
        for (std::size_t s = firstOfRun(run); s < firstOfRun(run + 1); ++s) {
            std::size_t n = 0;
            forSource(s, [&](const CollectiveRecord& r) {
                if (r.enter < lo || r.enter > hi) held[run] = 0;
                else ++count[sliceOf(r.enter)];
                ++n;
            });
            if (n != extents[s].count) held[run] = 0;
        }
    });
    if (std::find(held.begin(), held.end(), 0) != held.end()) throw std::logic_error("collectives: the sources' extents do not hold their records");
    const std::vector<std::size_t> start = placesOfRunsByKey(next, slices, records.size());
    records.resize(start[slices]);  // left unset until placed
    CollectiveRecord* const out = records.data();
    forEachFileInParallel(runs, static_cast<int>(runs), [&](std::size_t run) {
        std::vector<std::size_t>& cursor = next[run];
        for (std::size_t s = firstOfRun(run); s < firstOfRun(run + 1); ++s) {
            forSource(s, [&](const CollectiveRecord& r) { out[cursor[sliceOf(r.enter)]++] = r; });
            release(s);
        }
    });
    forEachInParallel(slices, [&](std::size_t s) {
        std::stable_sort(out + start[s], out + start[s + 1], [](const CollectiveRecord& a, const CollectiveRecord& b) { return a.enter < b.enter; });
    });
}

// Hands the memory of freed dumps back to the system: their many small blocks otherwise stay
// mapped while the records that replace them grow.
void releaseFreedMemory() {
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}

// Frees dumps as their records are placed, and hands their memory back each time about
// kBytesBetween more of their entries were freed: often enough that the records and the dumps
// together stay near the size of the records, seldom enough that the trims, each a walk over
// the whole heap that takes as long as placing a few dozen dumps, cost little (every 256
// dumps, they were a fifth of the placing). Called from every core.
class DumpRelease {
public:
    static constexpr std::size_t kBytesBetween = std::size_t{64} << 20;
    void release(FlightRecorderDump& dump) {
        const std::size_t bytes = dump.entries.size() * (sizeof(FlightRecorderEntry) + sizeof(FlightRecorderTiming));
        dump = FlightRecorderDump();
        const std::size_t before = m_freed.fetch_add(bytes);
        if ((before + bytes) / kBytesBetween != before / kBytesBetween) releaseFreedMemory();  // once each crossing
    }

private:
    std::atomic<std::size_t> m_freed{0};
};

}  // namespace

CollectiveSpan collectiveSpan(const ImportedEvents& events) {
    CollectiveSpan span;
    auto see = [&span](EpochNs enter, EpochNs exit) {
        if (enter > 0 && (span.first == 0 || enter < span.first)) span.first = enter;
        span.last = std::max(span.last, exit);
    };
    for (const ImportedCollective& c : events.collectives) see(c.enter, c.exit);
    // Each dump on every core (tens of millions of entries), then the span of them all: the
    // first and last are the same whichever order they are met in.
    const auto& dumps = events.flightRecorderDumps;
    span.dumps.resize(dumps.size());
    std::vector<CollectiveSpan> ofDump(dumps.size());
    forEachFileInParallel(dumps.size(), 0, [&](std::size_t d) {
        DumpCollectivesSeen& seen = span.dumps[d];
        const FlightRecorderDump& dump = dumps[d];
        std::vector<char> groupNamed(dump.entryGroups.size()), opNamed(dump.ops.size());
        // Kept in locals, not in `seen`, through the dump's thousands of entries: the pushes
        // below would otherwise make every one of them a store to memory.
        EpochNs first = 0, last = 0, firstEnter = INT64_MAX, lastEnter = INT64_MIN;
        std::size_t count = 0;
        forEachDumpCollective(dump, [&](const FlightRecorderEntry& e, const FlightRecorderCollective& c, const FlightRecorderCollectives&) {
            if (c.enter > 0 && (first == 0 || c.enter < first)) first = c.enter;
            last = std::max(last, c.exit);
            ++count;
            firstEnter = std::min(firstEnter, c.enter);
            lastEnter = std::max(lastEnter, c.enter);
            if (!groupNamed[e.group] || !opNamed[e.op]) [[unlikely]] {
                const auto index = static_cast<std::uint32_t>(&e - dump.entries.data());
                if (!groupNamed[e.group]) groupNamed[e.group] = 1, seen.firstOfGroup.push_back(index);
                if (!opNamed[e.op]) opNamed[e.op] = 1, seen.firstOfOp.push_back(index);
            }
        });
        ofDump[d] = {first, last, {}};
        seen.count = count;
        seen.firstEnter = firstEnter;
        seen.lastEnter = lastEnter;
    });
    for (const CollectiveSpan& s : ofDump) {
        if (s.first > 0) see(s.first, s.last);
        else span.last = std::max(span.last, s.last);
    }
    return span;
}

void addCollectives(ImportedEvents& events, const CollectiveSpan& span, EpochNs base, Run& run) {
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
    std::vector<DumpIndices> indices;
    indices.reserve(dumps.size());
    for (std::size_t d = 0; d < dumps.size(); ++d) indices.push_back(dumpIndices(dumps[d], span.dumps[d], tables));
    // Source 0: the traces' collectives; then each dump, as the span's pass saw it.
    std::vector<SourceExtent> extents(1 + dumps.size());
    for (const ImportedCollective& c : events.collectives) {
        SourceExtent& x = extents[0];
        ++x.count;
        x.lo = std::min(x.lo, c.enter - base);
        x.hi = std::max(x.hi, c.enter - base);
    }
    for (std::size_t d = 0; d < dumps.size(); ++d)
        if (const DumpCollectivesSeen& seen = span.dumps[d]; seen.count > 0) extents[1 + d] = {seen.count, seen.firstEnter - base, seen.lastEnter - base};
    CollectiveRecords& records = run.collectives;
    // Each dump is emptied once its records are placed (the records take the room the dumps
    // took), its memory handed back now and then.
    DumpRelease freed;
    fillInTimeOrder(
        extents,
        [&](std::size_t s, const auto& f) {
            if (s > 0) {
                const FlightRecorderDump& dump = dumps[s - 1];
                const DumpIndices& x = indices[s - 1];
                forEachDumpCollective(dump, [&](const FlightRecorderEntry& e, const FlightRecorderCollective& c, const FlightRecorderCollectives&) {
                    f(CollectiveRecord{dump.rank, x.groups[e.group], x.ops[e.op], c.seq, c.enter - base, c.exit - base, c.bytes});
                });
                return;
            }
            for (std::size_t i = 0; i < traced.size(); ++i) {
                const ImportedCollective& c = events.collectives[i];
                f(CollectiveRecord{c.rank, traced[i].first, traced[i].second, c.seq, c.enter - base, c.exit - base, c.bytes});
            }
        },
        [&](std::size_t s) {
            if (s > 0) freed.release(dumps[s - 1]);
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
