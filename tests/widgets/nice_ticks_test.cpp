// Round ticks on a chart's value axis, and never more of them than a chart can lay out: a
// window that showed a run of one instant and then a run of two minutes froze laying out
// twenty billion ticks of the old interval over the new range.
#include "gui_test_app.h"

#include "widgets/nice_ticks.h"

#include <QValueAxis>

#include <gtest/gtest.h>

#include <algorithm>

namespace faultline {
namespace {

// The most dynamic ticks the axis was ever asked to lay out, watched at every change of its
// range, interval or tick type (Qt Charts lays them out on each).
struct TickWatch {
    explicit TickWatch(QValueAxis& axis) : watched(axis) {
        auto check = [this] {
            if (watched.tickType() != QValueAxis::TicksDynamic || !(watched.tickInterval() > 0)) return;
            worst = std::max(worst, (watched.max() - watched.min()) / watched.tickInterval());
        };
        QObject::connect(&axis, &QValueAxis::rangeChanged, check);
        QObject::connect(&axis, &QValueAxis::tickIntervalChanged, check);
        QObject::connect(&axis, &QValueAxis::tickTypeChanged, check);
    }
    QValueAxis& watched;
    double worst = 0;
};

TEST(NiceTicks, RoundTicksOverTheRange) {
    test::guiApp();
    QValueAxis axis;
    applyNiceTicks(&axis, 0.3, 9.7, 6);
    EXPECT_DOUBLE_EQ(axis.min(), 0);
    EXPECT_DOUBLE_EQ(axis.max(), 10);
    EXPECT_DOUBLE_EQ(axis.tickInterval(), 2);
    EXPECT_EQ(axis.tickType(), QValueAxis::TicksDynamic);
}

TEST(NiceTicks, ARangeOfOneInstantThenOfMinutesNeverAsksForMoreTicksThanItShows) {
    test::guiApp();
    QValueAxis axis;
    TickWatch watch(axis);
    applyNiceTicks(&axis, 0, 1e-9, 6);  // one instant: a tiny range, a tiny step
    applyNiceTicks(&axis, 0, 2, 6);     // then two minutes
    applyNiceTicks(&axis, 0, 1e-9, 6);  // and back
    EXPECT_LE(watch.worst, 20) << "ticks laid out at some moment of the change";
    EXPECT_LT(axis.max(), 1e-6) << "the instant's own range, not the minutes'";
}

}  // namespace
}  // namespace faultline
