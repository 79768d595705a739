#include "gui_test_app.h"
#include "test_runs.h"

#include "simulator/simulator.h"
#include "views/gpu_palette.h"
#include "views/timeline_view.h"

#include <QImage>
#include <QSignalSpy>
#include <QTest>

#include <gtest/gtest.h>

namespace faultline {
namespace {

using test::tracedRun;

QImage render(TimelineView& view) {
    QImage image(view.size(), QImage::Format_RGB32);
    view.render(&image);
    if (const char* dir = std::getenv("FAULTLINE_TEST_SHOTS")) image.save(QString("%1/timeline-%2.png").arg(dir).arg(view.visibleEnd() - view.visibleBegin()));
    return image;
}

TEST(TimelineView, DowntimeIsDrawnInItsCauseColourWhereItHappened) {
    test::guiApp();
    TimelineView view;
    view.resize(1600, 300);
    view.setRun(tracedRun());
    const Downtime& d = tracedRun()->downtimes.front();
    view.setVisibleRange(d.begin - kHour, d.end + kHour);
    const QImage image = render(view);
    const int y = 38 + 13;  // the middle of the job band
    const QColor inside = image.pixelColor(static_cast<int>((view.xOf(d.begin) + view.xOf(d.end)) / 2), y);
    const QColor before = image.pixelColor(static_cast<int>(view.xOf(d.begin - 30 * kMinute)), y);
    EXPECT_EQ(before, QColor(182, 214, 170)) << "training before the failure";
    EXPECT_NE(inside, before) << "downtime in its cause's colour";
}

TEST(TimelineView, ZoomedIntoTheTraceTheLateRankHasTheFirstLaneAndShortCollectives) {
    test::guiApp();
    TimelineView view;
    view.resize(1600, 500);
    view.setRun(tracedRun());
    EXPECT_FALSE(view.showsRankLanes()) << "not at the whole-run zoom";
    const auto& records = tracedRun()->collectives;
    view.setVisibleRange(records.front().enter, records.front().enter + 30 * kSecond);
    ASSERT_TRUE(view.showsRankLanes());
    // The most straggling rank of the window spends least time inside collectives.
    std::map<std::int32_t, double> inside;
    for (const CollectiveRecord& r : records) inside[r.rank] += static_cast<double>(r.exit - r.enter);
    const auto least = std::min_element(inside.begin(), inside.end(), [](auto& a, auto& b) { return a.second < b.second; });
    EXPECT_EQ(view.laneOfRank(least->first), 0);
    const QImage image = render(view);
    const QRect lane = view.laneRect(0);
    int painted = 0;
    const Rgb laneColour = activeStatePalette().timeline.collective;
    for (int x = lane.left(); x < lane.right(); ++x) painted += image.pixelColor(x, lane.center().y()) == QColor(laneColour[0], laneColour[1], laneColour[2]);
    EXPECT_GT(painted, 10);
}

TEST(TimelineView, WheelZoomsAroundTheMouseAndAClickMovesTheReplay) {
    test::guiApp();
    TimelineView view;
    view.resize(1600, 300);
    view.setRun(tracedRun());
    view.show();
    const Nanos span = view.visibleEnd() - view.visibleBegin();
    const QPointF at(800, 100);
    const Nanos anchor = view.timeAt(at.x());
    QWheelEvent wheel(at, view.mapToGlobal(at), {}, QPoint(0, 240), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(&view, &wheel);
    EXPECT_LT(view.visibleEnd() - view.visibleBegin(), span);
    EXPECT_NEAR(static_cast<double>(view.timeAt(at.x())), static_cast<double>(anchor), static_cast<double>(span) / 1000);

    QSignalSpy requested(&view, &TimelineView::timeRequested);
    QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(1000, 50));
    ASSERT_EQ(requested.count(), 1);
    EXPECT_NEAR(static_cast<double>(requested.at(0).at(0).value<Nanos>()), static_cast<double>(view.timeAt(1000)),
                static_cast<double>(view.visibleEnd() - view.visibleBegin()) / 1000);
}

}  // namespace
}  // namespace faultline
