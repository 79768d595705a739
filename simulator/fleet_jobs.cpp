#include "fleet_jobs.h"

#include <algorithm>
#include <limits>

namespace faultline {

namespace {

struct HostRange {
    std::int32_t first = 0, end = 0;
};

// Each cluster's hosts outside `reserved`: they are contiguous, a cluster after another.
std::vector<HostRange> freeRanges(const Topology& t, const std::vector<char>& reserved) {
    std::vector<HostRange> out;
    for (std::int32_t h = 0; h < static_cast<std::int32_t>(t.hosts.size()); ++h) {
        if (reserved[static_cast<std::size_t>(h)]) continue;
        const bool joins = !out.empty() && out.back().end == h && t.clusterOfHost(h - 1) == t.clusterOfHost(h);
        if (joins) ++out.back().end;
        else out.push_back({h, h + 1});
    }
    return out;
}

std::string sizeText(int gpus) { return std::to_string(gpus) + " GPUs"; }

}  // namespace

std::vector<Job> scheduleFleetJobs(const Topology& t, const FleetShape& shape, const std::vector<char>& reserved, Nanos until, int firstId,
                                   Random& random) {
    const std::vector<HostRange> ranges = freeRanges(t, reserved);
    const Nanos warmUp = static_cast<Nanos>(shape.warmUpDays * static_cast<double>(kDay));
    // When each host is free next; reserved hosts never are.
    std::vector<Nanos> free(t.hosts.size(), -warmUp);
    for (std::size_t h = 0; h < free.size(); ++h)
        if (reserved[h]) free[h] = std::numeric_limits<Nanos>::max();
    double totalWeight = 0;
    for (const FleetJobKind& k : shape.jobMix) totalWeight += k.weight;
    const int gpusPerHost = t.hosts.empty() ? 8 : std::max(1, t.hosts.front().gpuCount);

    std::vector<Job> jobs;
    Nanos earliestFree = -warmUp;
    for (long round = 1; earliestFree < until && totalWeight > 0; ++round) {
        double pick = random.uniform() * totalWeight;
        const FleetJobKind* kind = &shape.jobMix.back();
        for (const FleetJobKind& k : shape.jobMix)
            if ((pick -= k.weight) < 0) {
                kind = &k;
                break;
            }
        const int size = std::max(1, kind->gpus / gpusPerHost);
        // First come, first served: the aligned block of hosts that frees earliest.
        Nanos bestAt = std::numeric_limits<Nanos>::max();
        std::int32_t best = -1;
        for (const HostRange& r : ranges)
            for (std::int32_t b = r.first; b + size <= r.end; b += size) {
                const Nanos at = *std::max_element(free.begin() + b, free.begin() + b + size);
                if (at < bestAt) bestAt = at, best = b;
            }
        if (best < 0) break;  // no cluster has room for a job this size
        const Nanos start = bestAt + static_cast<Nanos>(random.logNormal(shape.idleMedianMinutes * static_cast<double>(kMinute), 0.8));
        const Nanos runFor = static_cast<Nanos>(random.logNormal(kind->medianHours * static_cast<double>(kHour), 0.7));
        if (start < until) {
            Job j;
            j.id = std::to_string(firstId + static_cast<int>(jobs.size()));
            j.name = kind->name;
            j.gpus = size * gpusPerHost;
            for (std::int32_t h = best; h < best + size; ++h) j.hosts.push_back(h);
            j.start = start;
            j.submit = start - static_cast<Nanos>(random.logNormal(20.0 * static_cast<double>(kMinute), 1.0));
            if (start + runFor < until) {
                j.end = start + runFor;
                j.state = "COMPLETED";
                j.exitCode = "0:0";
            } else {
                j.state = "RUNNING";  // still running when the run's record ends
            }
            j.reason = sizeText(j.gpus);
            jobs.push_back(std::move(j));
        }
        std::fill(free.begin() + best, free.begin() + best + size, start + runFor);
        if (round % 64 == 0) earliestFree = *std::min_element(free.begin(), free.end());  // a scan: now and then
    }
    std::stable_sort(jobs.begin(), jobs.end(), [](const Job& a, const Job& b) { return *a.start < *b.start; });
    return jobs;
}

FleetJobLedger::FleetJobLedger(const Topology& topology, std::vector<Job>& jobs)
    : m_jobs(jobs), m_hostJobs(topology.hosts.size()), m_failed(jobs.size(), 0) {
    for (std::size_t j = 0; j < jobs.size(); ++j)  // jobs come in start order
        for (std::int32_t h : jobs[j].hosts) m_hostJobs[static_cast<std::size_t>(h)].push_back(static_cast<std::int32_t>(j));
}

std::vector<std::int32_t> FleetJobLedger::holding(const std::vector<std::int32_t>& hosts, Nanos t) const {
    std::vector<std::int32_t> out;
    for (std::int32_t h : hosts) {
        const auto& list = m_hostJobs[static_cast<std::size_t>(h)];
        const auto after = std::upper_bound(list.begin(), list.end(), t, [&](Nanos at, std::int32_t j) { return at < *m_jobs[static_cast<std::size_t>(j)].start; });
        if (after == list.begin()) continue;
        const Job& j = m_jobs[static_cast<std::size_t>(*(after - 1))];
        if (j.end.value_or(std::numeric_limits<Nanos>::max()) > t) out.push_back(*(after - 1));
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

void FleetJobLedger::fail(std::int32_t job, Nanos t, Nanos detect, Nanos restart, bool hardware, const std::string& reason) {
    if (m_failed[static_cast<std::size_t>(job)]) return;  // already going down from an earlier failure
    m_failed[static_cast<std::size_t>(job)] = 1;
    Job& j = m_jobs[static_cast<std::size_t>(job)];
    const std::optional<Nanos> plannedEnd = j.end;
    const std::string plannedState = j.state, plannedExit = j.exitCode;
    const Nanos stop = std::min(t + detect, plannedEnd.value_or(std::numeric_limits<Nanos>::max()));
    j.end = stop;
    j.state = hardware ? "NODE_FAIL" : "FAILED";
    j.exitCode = hardware ? "0:0" : "1:0";
    j.reason = reason;
    const Nanos again = stop + restart;
    if (plannedEnd && again >= *plannedEnd) return;
    Job requeued = j;
    requeued.restarts = j.restarts + 1;
    requeued.submit = stop;
    requeued.start = again;
    requeued.end = plannedEnd;
    requeued.state = plannedState;
    requeued.exitCode = plannedExit;
    requeued.reason = "requeued after " + reason;
    const auto index = static_cast<std::int32_t>(m_jobs.size());
    for (std::int32_t h : requeued.hosts) {
        auto& list = m_hostJobs[static_cast<std::size_t>(h)];
        list.insert(std::upper_bound(list.begin(), list.end(), again, [&](Nanos at, std::int32_t k) { return at < *m_jobs[static_cast<std::size_t>(k)].start; }), index);
    }
    m_jobs.push_back(std::move(requeued));  // `j` is not used past here: push_back may move it
    m_failed.push_back(0);
}

}  // namespace faultline
