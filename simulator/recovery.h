#pragma once
// How a downtime ends when more interruptions are queued behind it: the one rule the
// simulator and the what-if replay share. Planned work that falls due while the job is down
// waits until half an hour after it is back; a failure during the recovery (or during a
// planned stop's save) cuts it short, striking when the job stopped at the earliest, and
// the downtime ends there with no checkpoint loaded.
#include "model/run.h"

#include <algorithm>
#include <vector>

namespace faultline {

// `pending`: what is still to come, in time order, each with `time` and `planned`; it stays
// in time order. Returns whether the recovery ran to its end, loading a checkpoint from
// d.restarted to d.end.
template <class Interruption>
bool settleRecovery(Downtime& d, std::vector<Interruption>& pending) {
    for (Interruption& next : pending) {
        if (next.time >= d.end) break;
        if (next.planned) next.time = d.end + 30 * kMinute;
    }
    std::stable_sort(pending.begin(), pending.end(), [](const Interruption& a, const Interruption& b) { return a.time < b.time; });
    if (!pending.empty() && !pending.front().planned && pending.front().time < d.end) {
        const Nanos cut = std::max(d.begin, pending.front().time);
        pending.front().time = cut;
        d.detected = std::min(d.detected, cut);
        d.restarted = std::min(d.restarted, cut);
        d.end = cut;
        return false;
    }
    return d.end > d.restarted;
}

}  // namespace faultline
