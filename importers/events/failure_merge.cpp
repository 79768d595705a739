#include "importers/events/failure_merge.h"

#include <algorithm>

namespace faultline {

namespace {

struct Group {
    Failure failure;
    bool fromJob = false;  // the kept record is the scheduler's
    Nanos last = 0;        // the latest record's time: a burst extends the group
    int records = 1;
};

bool sharesGpu(const Failure& a, const Failure& b) {
    if (a.gpus.empty() || b.gpus.empty()) return a.component.kind != ComponentKind::None && a.component == b.component;
    for (std::int32_t g : a.gpus)
        if (std::find(b.gpus.begin(), b.gpus.end(), g) != b.gpus.end()) return true;
    return false;
}

bool sameEvent(const Group& g, const FailureRecord& r) {
    if (!sharesGpu(g.failure, r.failure)) return false;
    const Nanos gap = r.failure.time - g.last;
    // A job's end follows the fault that ended it by up to the detection lag.
    if (r.fromJob && !g.fromJob) return r.failure.time - g.failure.time <= kJobEndLag;
    return gap <= kSameEventWindow;
}

std::string evidence(const FailureRecord& r) { return r.source.empty() ? r.failure.detail : r.failure.detail + " (" + r.source + ")"; }

}  // namespace

std::vector<Failure> mergeDuplicateFailures(const std::vector<FailureRecord>& records) {
    std::vector<Group> groups;
    for (const FailureRecord& r : records) {
        Group* match = nullptr;
        for (auto it = groups.rbegin(); it != groups.rend(); ++it) {
            if (r.failure.time - it->last > kJobEndLag) break;  // groups are in time order
            if (sameEvent(*it, r)) {
                match = &*it;
                break;
            }
        }
        if (!match) {
            groups.push_back({r.failure, r.fromJob, r.failure.time, 1});
            groups.back().failure.detail = evidence(r);
            continue;
        }
        match->last = std::max(match->last, r.failure.time);
        ++match->records;
        if (match->fromJob && !r.fromJob) {
            // The hardware's own record says more than the scheduler's: it leads, at the earlier time.
            Failure specific = r.failure;
            specific.time = std::min(match->failure.time, r.failure.time);
            if (specific.ranks.empty()) specific.ranks = match->failure.ranks;
            if (specific.suspectRanks.empty()) specific.suspectRanks = match->failure.suspectRanks;
            specific.detail = evidence(r) + "; also " + match->failure.detail;
            match->failure = std::move(specific);
            match->fromJob = false;
        } else if (causeSpecificity(r.failure.cause, r.failure.xid) > causeSpecificity(match->failure.cause, match->failure.xid)) {
            // The most specific line names the cause (an Xid over the NCCL error it caused, ECC
            // over the watchdog it tripped); the earlier ones stay in the evidence, and the time
            // is the first symptom's.
            Failure specific = r.failure;
            specific.time = std::min(match->failure.time, r.failure.time);
            for (std::int32_t rank : match->failure.ranks)
                if (std::find(specific.ranks.begin(), specific.ranks.end(), rank) == specific.ranks.end()) specific.ranks.push_back(rank);
            if (specific.suspectRanks.empty()) specific.suspectRanks = match->failure.suspectRanks;
            if (specific.component.kind == ComponentKind::None) {
                specific.component = match->failure.component;
                specific.gpus = match->failure.gpus;
            }
            specific.detail = evidence(r) + "; also " + match->failure.detail;
            match->failure = std::move(specific);
        } else {
            // A port counter names the very cable a host's kernel only said went down.
            if (match->failure.component.kind == ComponentKind::Host &&
                (r.failure.component.kind == ComponentKind::Link || r.failure.component.kind == ComponentKind::Nic)) {
                match->failure.component = r.failure.component;
                match->failure.gpus = r.failure.gpus;
            }
            match->failure.detail += "; also " + evidence(r);
            // Who reported it and whom it points at, from every record of the event.
            for (std::int32_t rank : r.failure.ranks)
                if (std::find(match->failure.ranks.begin(), match->failure.ranks.end(), rank) == match->failure.ranks.end()) match->failure.ranks.push_back(rank);
            if (match->failure.suspectRanks.empty()) match->failure.suspectRanks = r.failure.suspectRanks;
        }
    }
    std::vector<Failure> out;
    out.reserve(groups.size());
    for (Group& g : groups) {
        if (g.records > 1) g.failure.detail = "[" + std::to_string(g.records) + " records of one event] " + g.failure.detail;
        out.push_back(std::move(g.failure));
    }
    return out;
}

}  // namespace faultline
