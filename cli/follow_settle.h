#pragma once
// When `import --follow` looks after the folder changed (issue #40): a job writes in bursts (a
// log line, then the next), and a look per change kept a core busy at 16 ranks x 1 MB/s. A
// look waits until the folder has been quiet for the settle time, or until the longest delay
// since the first change not yet looked at has passed, so that a folder written without pause
// is still looked at that often. Times are given, not read: the policy is tested on a fake
// clock, and the follower feeds it the steady clock.
#include <cstdint>
#include <optional>

namespace faultline::cli {

class FollowSettle {
public:
    // `settleNs`: the quiet a look waits for (0: look at once); `maxDelayNs`: the most a change
    // waits for its look, however busy the folder.
    FollowSettle(std::int64_t settleNs, std::int64_t maxDelayNs);

    // A change was told at `nowNs`.
    void changed(std::int64_t nowNs);
    // A look began: the changes before it are in it.
    void looked();
    // Nanoseconds from `nowNs` until the look is due (0: due now); empty while no change waits.
    std::optional<std::int64_t> dueIn(std::int64_t nowNs) const;

private:
    std::int64_t m_settle;
    std::int64_t m_maxDelay;
    std::optional<std::int64_t> m_firstChange;  // the oldest change not yet looked at
    std::int64_t m_lastChange = 0;
};

}  // namespace faultline::cli
