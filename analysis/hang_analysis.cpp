#include "hang_analysis.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <set>

namespace faultline {

namespace {

// What one rank's dump says about one process group.
struct RankView {
    const FlightRecorderDump* dump = nullptr;
    std::vector<const FlightRecorderEntry*> entries;  // collectives of the group, in order
    std::optional<std::int64_t> lastEnqueued;
    std::optional<std::int64_t> lastCompleted;
    bool recordedNothing = false;  // a dump with no entries at all: the rank never got going
};

RankView viewOf(const FlightRecorderDump* dump, const std::string& group) {
    RankView v;
    v.dump = dump;
    if (!dump) return v;
    v.recordedNothing = dump->entries.empty();
    for (const FlightRecorderEntry& e : dump->entries)
        if (e.processGroup == group && !e.isP2P) v.entries.push_back(&e);
    if (v.entries.empty()) return v;
    // The group's counters are kept under the rank-local id the entries carry.
    if (auto it = dump->groupStatus.find(std::to_string(v.entries.back()->pgId)); it != dump->groupStatus.end()) {
        v.lastEnqueued = it->second.lastEnqueued;
        v.lastCompleted = it->second.lastCompleted;
    }
    std::int64_t maxSeq = 0, maxDone = -1;
    for (const FlightRecorderEntry* e : v.entries) {
        maxSeq = std::max(maxSeq, e->collectiveSeqId);
        if (e->state == "completed") maxDone = std::max(maxDone, e->collectiveSeqId);
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

std::optional<HangFinding> findDivergence(const FlightRecorderGroup& group, const std::map<std::int32_t, RankView>& views) {
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
    f.groupRanks = group.ranks;
    f.seq = *seq;
    const FlightRecorderEntry* reference = nullptr;
    std::int32_t referenceRank = -1;
    for (const auto& [rank, v] : views) {
        const bool noRecord = !v.dump || v.recordedNothing;
        const bool behind = v.lastEnqueued && *v.lastEnqueued < *seq;
        if (noRecord || behind) {
            f.missing.push_back(rank);
            continue;
        }
        if (v.lastEnqueued && v.lastCompleted && *v.lastCompleted < *seq) f.stuck.push_back(rank);
        for (const FlightRecorderEntry* e : v.entries) {
            if (e->collectiveSeqId != *seq) continue;
            if (!reference) {
                reference = e;
                referenceRank = rank;
                f.enqueuedNs = e->timeCreatedNs;
                continue;
            }
            f.enqueuedNs = std::min(f.enqueuedNs, e->timeCreatedNs);
            if (e->profilingName != reference->profilingName)
                f.mismatches.push_back("rank " + std::to_string(rank) + " runs " + e->profilingName + " where rank " +
                                       std::to_string(referenceRank) + " runs " + reference->profilingName);
            else if (e->inputDtypes != reference->inputDtypes)
                f.mismatches.push_back("rank " + std::to_string(rank) + " sends " + (e->inputDtypes.empty() ? "nothing" : e->inputDtypes.front()) +
                                       " where rank " + std::to_string(referenceRank) + " sends " +
                                       (reference->inputDtypes.empty() ? "nothing" : reference->inputDtypes.front()));
            else if (sizesMustAgree(e->profilingName) && e->inputSizes != reference->inputSizes)
                f.mismatches.push_back("rank " + std::to_string(rank) + " sends " + joinSizes(e->inputSizes) + " where rank " +
                                       std::to_string(referenceRank) + " sends " + joinSizes(reference->inputSizes));
        }
    }
    if (f.missing.empty() && f.stuck.empty() && f.mismatches.empty()) return std::nullopt;
    if (reference) {
        f.op = reference->profilingName;
        f.size = joinSizes(reference->inputSizes);
        f.dtype = reference->inputDtypes.empty() ? "N/A" : reference->inputDtypes.front();
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
    std::map<std::int32_t, const FlightRecorderDump*> byRank;
    std::map<std::string, FlightRecorderGroup> groups;
    for (const FlightRecorderDump& d : dumps) {
        byRank[d.rank] = &d;
        for (const auto& [name, g] : d.groups) {
            FlightRecorderGroup& merged = groups[name];
            if (merged.name.empty()) merged = g;
            std::set<std::int32_t> ranks(merged.ranks.begin(), merged.ranks.end());
            ranks.insert(g.ranks.begin(), g.ranks.end());
            merged.ranks.assign(ranks.begin(), ranks.end());
        }
    }
    std::set<std::int32_t> allRanks;
    for (const auto& [name, g] : groups) allRanks.insert(g.ranks.begin(), g.ranks.end());
    for (std::int32_t r : allRanks)
        if (!byRank.count(r)) report.ranksWithoutDump.push_back(r);

    for (const auto& [name, group] : groups) {
        if (group.ranks.size() < 2) continue;
        std::map<std::int32_t, RankView> views;
        for (std::int32_t r : group.ranks) {
            auto it = byRank.find(r);
            views[r] = viewOf(it == byRank.end() ? nullptr : it->second, name);
        }
        if (auto finding = findDivergence(group, views)) report.findings.push_back(std::move(*finding));
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
