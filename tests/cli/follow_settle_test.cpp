// The settle of `import --follow` (issue #40), on a fake clock: a burst of changes is one look
// once the folder is quiet, and a folder written without pause is still looked at every
// maxDelay, never back to back (which took a core at 16 ranks x 1 MB/s).
#include "cli/follow_settle.h"

#include <gtest/gtest.h>

namespace faultline::cli {
namespace {

constexpr std::int64_t kMs = 1'000'000;

TEST(FollowSettle, NoChangeNoLookDue) {
    FollowSettle settle(250 * kMs, 2000 * kMs);
    EXPECT_FALSE(settle.dueIn(0).has_value());
    settle.changed(10 * kMs);
    settle.looked();
    EXPECT_FALSE(settle.dueIn(20 * kMs).has_value()) << "a look took the change in";
}

TEST(FollowSettle, ALookWaitsForTheFolderToBeQuiet) {
    FollowSettle settle(250 * kMs, 2000 * kMs);
    settle.changed(1000 * kMs);
    EXPECT_EQ(settle.dueIn(1000 * kMs), 250 * kMs);
    // Each change of the burst puts the look off until 250 ms after it.
    settle.changed(1100 * kMs);
    EXPECT_EQ(settle.dueIn(1100 * kMs), 250 * kMs);
    settle.changed(1300 * kMs);
    EXPECT_EQ(settle.dueIn(1400 * kMs), 150 * kMs);
    EXPECT_EQ(settle.dueIn(1550 * kMs), 0) << "quiet for 250 ms: look now";
    EXPECT_EQ(settle.dueIn(1700 * kMs), 0) << "overdue reads as due now, never negative";
}

TEST(FollowSettle, AFolderWrittenWithoutPauseIsStillLookedAtEveryMaxDelay) {
    FollowSettle settle(250 * kMs, 2000 * kMs);
    // A change every 100 ms for ten seconds: never quiet for 250 ms.
    int looks = 0;
    std::int64_t oldestWaiting = -1, longestWait = 0;
    for (std::int64_t now = 0; now <= 10'000 * kMs; now += 100 * kMs) {
        settle.changed(now);
        if (oldestWaiting < 0) oldestWaiting = now;
        if (settle.dueIn(now) == 0) {
            ++looks;
            longestWait = std::max(longestWait, now - oldestWaiting);
            oldestWaiting = -1;
            settle.looked();
        }
    }
    // Looks at 2.0, 4.1, 6.2 and 8.3 s: one per 2 s, not one per change (101 of them).
    EXPECT_EQ(looks, 4);
    EXPECT_EQ(longestWait, 2000 * kMs) << "no change waits longer than the longest delay for its look";
    // The delay counts from the first change not yet looked at, not from the last look.
    FollowSettle idle(250 * kMs, 2000 * kMs);
    idle.changed(60'000 * kMs);
    idle.changed(60'200 * kMs);
    EXPECT_EQ(idle.dueIn(60'200 * kMs), 250 * kMs);
}

TEST(FollowSettle, ZeroSettleLooksAtOnce) {
    FollowSettle settle(0, 2000 * kMs);
    settle.changed(5 * kMs);
    EXPECT_EQ(settle.dueIn(5 * kMs), 0);
    // A negative settle is none, and the longest delay is never shorter than the settle.
    FollowSettle odd(-5, -5);
    odd.changed(0);
    EXPECT_EQ(odd.dueIn(0), 0);
    FollowSettle longer(3000 * kMs, 2000 * kMs);
    longer.changed(0);
    EXPECT_EQ(longer.dueIn(0), 3000 * kMs);
}

}  // namespace
}  // namespace faultline::cli
