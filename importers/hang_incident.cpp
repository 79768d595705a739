#include "importers/hang_incident.h"

#include "analysis/hang_analysis.h"

#include <algorithm>

namespace faultline {

namespace {

// Inserts `f` among the failures in time order and returns its index; downtimes keep
// pointing at the failures they pointed at.
std::int32_t insertFailure(Run& run, Failure f) {
    const auto at = std::upper_bound(run.failures.begin(), run.failures.end(), f.time, [](Nanos t, const Failure& x) { return t < x.time; });
    const auto index = static_cast<std::int32_t>(at - run.failures.begin());
    run.failures.insert(at, std::move(f));
    for (Downtime& d : run.downtimes)
        if (d.failure >= index) ++d.failure;
    return index;
}

// The unexpected downtime the other files show at `t`, if any: one under way then, or one
// that began within the watchdog's reach after it (PyTorch's default timeout is 10 minutes;
// an hour covers raised ones).
Downtime* downtimeAt(Run& run, Nanos t) {
    for (Downtime& d : run.downtimes)
        if (!d.planned && d.begin <= t + kHour && d.end >= t) return &d;
    return nullptr;
}

}  // namespace

void addHangIncident(Run& run) {
    if (!run.hang || run.hang->origins.empty()) return;
    const HangReport& hang = *run.hang;
    auto gpuOf = [&](std::int32_t rank) {
        return rank >= 0 && static_cast<std::size_t>(rank) < run.rankToGpu.size() ? run.rankToGpu[static_cast<std::size_t>(rank)] : -1;
    };
    std::int32_t first = -1;
    Nanos begin = 0;
    for (const HangOrigin& origin : hang.origins) {
        Failure f;
        f.time = std::clamp(hang.findings[origin.finding].enqueuedNs - run.info.startEpochNs, Nanos{0}, run.info.duration);
        f.cause = RootCause::NcclWatchdogTimeout;
        for (std::int32_t rank : origin.culprits)
            if (const std::int32_t g = gpuOf(rank); g >= 0) f.gpus.push_back(g);
        if (!f.gpus.empty()) f.component = {ComponentKind::Gpu, f.gpus.front()};
        f.detail = "NCCL hang (Flight Recorder): " + hangOriginText(hang, origin);
        f.ranks = origin.waiting;
        f.suspectRanks = origin.culprits;
        if (Downtime* d = downtimeAt(run, f.time); d && d->failure >= 0) {
            // The other files saw it stop: the dumps say who stopped it.
            Failure& seen = run.failures[static_cast<std::size_t>(d->failure)];
            if (seen.suspectRanks.empty()) seen.suspectRanks = origin.culprits;
            if (seen.gpus.empty()) {
                seen.gpus = f.gpus;
                seen.component = f.component;
            }
            seen.detail += (seen.detail.empty() ? "" : "; ") + f.detail;
            continue;
        }
        const Nanos time = f.time;
        const std::int32_t index = insertFailure(run, std::move(f));
        if (first < 0 || time < begin) {
            first = index;
            begin = time;
        } else if (index <= first) {
            ++first;
        }
    }
    if (first < 0) return;
    // Nothing in the dumps says the job came back: it is down from the hang to the run's end.
    const Nanos end = run.info.duration;
    Downtime d{begin, end, end, end, 0, false, RootCause::NcclWatchdogTimeout, first, -1};
    const auto at = std::upper_bound(run.downtimes.begin(), run.downtimes.end(), begin, [](Nanos t, const Downtime& x) { return t < x.begin; });
    run.downtimes.insert(at, d);
}

}  // namespace faultline
