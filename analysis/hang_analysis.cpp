#include "hang_analysis.h"

#include "model/parallel.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

namespace faultline {

namespace {

// One dump's entries bucketed by process group name, built in one pass over the entries:
// every later question about a (rank, group) reads only that group's entries.
struct DumpIndex {
    const FlightRecorderDump* dump = nullptr;
    std::vector<std::uint32_t> order;                 // entry indices, grouped by name
    std::map<std::string_view, std::pair<std::uint32_t, std::uint32_t>> byName;  // name -> [begin, end) of order
};

DumpIndex indexOf(const FlightRecorderDump& dump) {
    DumpIndex x;
    x.dump = &dump;
    // Entry groups with the same name (a different desc or pg_id) share a bucket.
    std::vector<std::uint32_t> bucketOfGroup(dump.entryGroups.size());
    std::map<std::string_view, std::uint32_t> bucketOfName;
    for (std::size_t g = 0; g < dump.entryGroups.size(); ++g)
        bucketOfGroup[g] = bucketOfName.try_emplace(dump.entryGroups[g].name, static_cast<std::uint32_t>(bucketOfName.size())).first->second;
    std::vector<std::uint32_t> start(bucketOfName.size() + 1, 0);
    for (const FlightRecorderEntry& e : dump.entries)
        if (!e.isP2P) ++start[bucketOfGroup[e.group] + 1];
    for (std::size_t b = 1; b < start.size(); ++b) start[b] += start[b - 1];
    x.order.resize(start.back());
    std::vector<std::uint32_t> fillAt(start.begin(), start.end() - 1);
    for (std::size_t i = 0; i < dump.entries.size(); ++i)
        if (!dump.entries[i].isP2P) x.order[fillAt[bucketOfGroup[dump.entries[i].group]]++] = static_cast<std::uint32_t>(i);
    for (const auto& [name, b] : bucketOfName) x.byName[name] = {start[b], start[b + 1]};
    return x;
}

// What one rank's dump says about one process group.
struct RankView {
    const FlightRecorderDump* dump = nullptr;
    const std::uint32_t* begin = nullptr;  // the group's collectives, in order (indices into dump->entries)
    const std::uint32_t* end = nullptr;
    std::optional<std::int64_t> lastEnqueued;
    std::optional<std::int64_t> lastCompleted;
    bool recordedNothing = false;  // a dump with no entries at all: the rank never got going
};

RankView viewOf(const DumpIndex* index, const std::string& group) {
    RankView v;
    if (!index) return v;
    const FlightRecorderDump* dump = v.dump = index->dump;
    v.recordedNothing = dump->entries.empty();
    auto bucket = index->byName.find(group);
    if (bucket == index->byName.end() || bucket->second.first == bucket->second.second) return v;
    v.begin = index->order.data() + bucket->second.first;
    v.end = index->order.data() + bucket->second.second;
    // The group's counters are kept under the rank-local id the entries carry.
    const FlightRecorderEntry& last = dump->entries[*(v.end - 1)];
    if (auto it = dump->groupStatus.find(std::to_string(dump->groupOf(last).pgId)); it != dump->groupStatus.end()) {
        v.lastEnqueued = it->second.lastEnqueued;
        v.lastCompleted = it->second.lastCompleted;
    }
    std::int64_t maxSeq = 0, maxDone = -1;
    for (const std::uint32_t* i = v.begin; i != v.end; ++i) {
        const FlightRecorderEntry& e = dump->entries[*i];
        maxSeq = std::max(maxSeq, e.collectiveSeqId);
        if (e.state == FlightRecorderState::Completed) maxDone = std::max(maxDone, e.collectiveSeqId);
    }
    v.lastEnqueued = std::max(v.lastEnqueued.value_or(maxSeq), maxSeq);
    if (!v.lastCompleted) v.lastCompleted = maxDone;
    return v;
}

std::string joinSizes(const std::vector<std::vector<std::int64_t>>& sizes) {
    if (sizes.empty()) return "N/A";
    std::string out;
    for (std::int64_t d : sizes.front()) out += (out.empty() ? "" : "x") + std::to_string(d);
    return out.empty() ? "scalar" : out;
}

bool sizesMustAgree(const std::string& op) {
    for (const char* name : {"all_reduce", "allreduce", "broadcast", "reduce"})
        if (op.size() >= std::strlen(name) && op.compare(op.size() - std::strlen(name), std::string::npos, name) == 0) return true;
    return false;
}

std::optional<HangFinding> findDivergence(const FlightRecorderGroup& group, const std::vector<std::pair<std::int32_t, RankView>>& views) {
    std::optional<std::int64_t> top;
    for (const auto& [rank, v] : views)
        if (v.lastEnqueued) top = std::max(top.value_or(*v.lastEnqueued), *v.lastEnqueued);
    if (!top) return std::nullopt;

    // The first collective some rank never enqueued; failing that, the first one not completed.
    std::optional<std::int64_t> seq;
    for (const auto& [rank, v] : views)
        if (v.lastEnqueued && *v.lastEnqueued < *top) seq = std::min(seq.value_or(*v.lastEnqueued + 1), *v.lastEnqueued + 1);
    if (!seq)
        for (const auto& [rank, v] : views)
            if (v.lastCompleted && *v.lastCompleted < *top) seq = std::min(seq.value_or(*v.lastCompleted + 1), *v.lastCompleted + 1);
    if (!seq) return std::nullopt;

    HangFinding f;
    f.processGroup = group.name;
    f.processGroupDesc = group.desc;
    f.groupRanks = *group.ranks;
    f.seq = *seq;
    const FlightRecorderEntry* reference = nullptr;
    const FlightRecorderDump* referenceDump = nullptr;
    std::int32_t referenceRank = -1;
    for (const auto& [rank, v] : views) {
        const bool noRecord = !v.dump || v.recordedNothing;
        const bool behind = v.lastEnqueued && *v.lastEnqueued < *seq;
        if (noRecord || behind) {
            f.missing.push_back(rank);
            continue;
        }
        if (v.lastEnqueued && v.lastCompleted && *v.lastCompleted < *seq) f.stuck.push_back(rank);
        for (const std::uint32_t* i = v.begin; i != v.end; ++i) {
            const FlightRecorderEntry* e = &v.dump->entries[*i];
            if (e->collectiveSeqId != *seq) continue;
            if (!reference) {
                reference = e;
                referenceDump = v.dump;
                referenceRank = rank;
                f.enqueuedNs = e->timeCreatedNs;
                continue;
            }
            f.enqueuedNs = std::min(f.enqueuedNs, e->timeCreatedNs);
            const std::string& op = v.dump->opOf(*e);
            const std::string& refOp = referenceDump->opOf(*reference);
            const FlightRecorderTensors& in = v.dump->inputOf(*e);
            const FlightRecorderTensors& refIn = referenceDump->inputOf(*reference);
            if (op != refOp)
                f.mismatches.push_back("rank " + std::to_string(rank) + " runs " + op + " where rank " + std::to_string(referenceRank) + " runs " + refOp);
            else if (in.dtypes != refIn.dtypes)
                f.mismatches.push_back("rank " + std::to_string(rank) + " sends " + (in.dtypes.empty() ? "nothing" : in.dtypes.front()) +
                                       " where rank " + std::to_string(referenceRank) + " sends " +
                                       (refIn.dtypes.empty() ? "nothing" : refIn.dtypes.front()));
            else if (sizesMustAgree(op) && in.sizes != refIn.sizes)
                f.mismatches.push_back("rank " + std::to_string(rank) + " sends " + joinSizes(in.sizes) + " where rank " +
                                       std::to_string(referenceRank) + " sends " + joinSizes(refIn.sizes));
        }
    }
    if (f.missing.empty() && f.stuck.empty() && f.mismatches.empty()) return std::nullopt;
    if (reference) {
        const FlightRecorderTensors& in = referenceDump->inputOf(*reference);
        f.op = referenceDump->opOf(*reference);
        f.size = joinSizes(in.sizes);
        f.dtype = in.dtypes.empty() ? "N/A" : in.dtypes.front();
    } else {
        f.op = "unknown";
        f.size = f.dtype = "N/A";
        f.enqueuedNs = std::numeric_limits<std::int64_t>::max();  // no record of when: order it last
    }
    return f;
}

// A rank stuck in a collective that others never joined waits for them; when that rank is
// itself missing elsewhere, it is a victim there. The missing ranks that wait for nobody are
// the culprits, each attributed to the earliest finding it is missing from.
void findOrigins(HangReport& report) {
    std::set<std::int32_t> waitingOnOthers;
    for (const HangFinding& f : report.findings)
        if (!f.missing.empty()) waitingOnOthers.insert(f.stuck.begin(), f.stuck.end());

    std::map<std::size_t, HangOrigin> byFinding;
    std::set<std::int32_t> attributed;
    for (std::size_t i = 0; i < report.findings.size(); ++i)  // findings are earliest first
        for (std::int32_t r : report.findings[i].missing)
            if (!waitingOnOthers.count(r) && attributed.insert(r).second) byFinding[i].culprits.push_back(r);

    if (byFinding.empty() && !report.findings.empty()) {
        // Nobody stands apart: every missing rank waits on another (a cycle), or every rank
        // joined and all are stuck. The earliest finding's ranks are the best lead there is.
        const HangFinding& first = report.findings.front();
        byFinding[0].culprits = first.missing.empty() ? first.stuck : first.missing;
    }
    for (auto& [index, origin] : byFinding) {
        origin.finding = index;
        origin.waiting = report.findings[index].stuck;
        report.culprits.insert(report.culprits.end(), origin.culprits.begin(), origin.culprits.end());
        report.origins.push_back(std::move(origin));
    }
    std::sort(report.culprits.begin(), report.culprits.end());
    report.culprits.erase(std::unique(report.culprits.begin(), report.culprits.end()), report.culprits.end());
}

}  // namespace

HangReport analyzeHang(const std::vector<FlightRecorderDump>& dumps) {
    HangReport report;
    report.dumps = static_cast<int>(dumps.size());
    std::vector<DumpIndex> indexes(dumps.size());
    std::unordered_map<std::int32_t, const DumpIndex*> byRank;
    std::map<std::string, FlightRecorderGroup> groups;
    forEachInParallel(dumps.size(), [&](std::size_t d) { indexes[d] = indexOf(dumps[d]); });
    for (std::size_t d = 0; d < dumps.size(); ++d) {
        byRank[dumps[d].rank] = &indexes[d];
        for (const auto& [name, g] : dumps[d].groups) {
            if (!g.ranks) continue;
            FlightRecorderGroup& merged = groups[name];
            if (!merged.ranks) {
                merged = g;
                if (!std::is_sorted(g.ranks->begin(), g.ranks->end()) || std::adjacent_find(g.ranks->begin(), g.ranks->end()) != g.ranks->end()) {
                    const std::set<std::int32_t> sorted(g.ranks->begin(), g.ranks->end());
                    merged.ranks = std::make_shared<const std::vector<std::int32_t>>(sorted.begin(), sorted.end());
                }
                continue;
            }
            // Dumps read together share one list per distinct group: the union is rarely needed.
            if (merged.ranks == g.ranks || *merged.ranks == *g.ranks) continue;
            std::set<std::int32_t> ranks(merged.ranks->begin(), merged.ranks->end());
            ranks.insert(g.ranks->begin(), g.ranks->end());
            merged.ranks = std::make_shared<const std::vector<std::int32_t>>(ranks.begin(), ranks.end());
        }
    }
    std::set<std::int32_t> allRanks;
    for (const auto& [name, g] : groups) allRanks.insert(g.ranks->begin(), g.ranks->end());
    for (std::int32_t r : allRanks)
        if (!byRank.count(r)) report.ranksWithoutDump.push_back(r);

    // The groups of two ranks or more, and every member's view of each, read on every core: the
    // views read every entry of every dump (tens of millions for a large job).
    std::vector<const std::pair<const std::string, FlightRecorderGroup>*> shared;
    for (const auto& named : groups)
        if (named.second.ranks->size() >= 2) shared.push_back(&named);
    std::vector<std::vector<std::pair<std::int32_t, RankView>>> views(shared.size());
    std::vector<std::pair<std::size_t, std::size_t>> members;  // (group, the place of its rank)
    for (std::size_t g = 0; g < shared.size(); ++g) {
        views[g].resize(shared[g]->second.ranks->size());
        for (std::size_t k = 0; k < views[g].size(); ++k) members.emplace_back(g, k);
    }
    forEachInParallel(members.size(), [&](std::size_t m) {
        const auto [g, k] = members[m];
        const std::int32_t rank = (*shared[g]->second.ranks)[k];
        const auto it = byRank.find(rank);
        views[g][k] = {rank, viewOf(it == byRank.end() ? nullptr : it->second, shared[g]->first)};
    });
    for (std::size_t g = 0; g < shared.size(); ++g) {
        std::vector<std::pair<std::int32_t, RankView>>& of = views[g];
        std::sort(of.begin(), of.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        of.erase(std::unique(of.begin(), of.end(), [](const auto& a, const auto& b) { return a.first == b.first; }), of.end());
        if (auto finding = findDivergence(shared[g]->second, of)) report.findings.push_back(std::move(*finding));
    }
    // A rank that never arrived is a cause; ranks waiting inside a collective that everyone
    // reached are waiting on something else. Causes first, each kind earliest first.
    std::stable_sort(report.findings.begin(), report.findings.end(), [](const HangFinding& a, const HangFinding& b) {
        if (a.missing.empty() != b.missing.empty()) return !a.missing.empty();
        return a.enqueuedNs < b.enqueuedNs;
    });
    findOrigins(report);
    return report;
}

}  // namespace faultline
