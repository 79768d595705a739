// The time scrubber: a click or a drag on the track moves the handle there and says where;
// the part played, the handle and the incidents' marks are drawn where the values are.
#include "gui_test_app.h"

#include "widgets/time_scrubber.h"

#include <QApplication>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QTest>

#include <gtest/gtest.h>

namespace faultline {
namespace {

// A scrubber on screen over 0..1000, its track 400 pixels long (8 of margin at each end).
struct ShownScrubber {
    QApplication& app = test::guiApp();
    TimeScrubber scrubber;
    ShownScrubber() {
        scrubber.setRange(1000);
        scrubber.resize(416, 28);
        scrubber.show();
        exposed = QTest::qWaitForWindowExposed(&scrubber);
    }
    bool exposed = false;
};

void drag(QWidget& w, QEvent::Type type, int x, Qt::MouseButtons buttons) {
    const QPointF at(x, w.height() / 2.0);
    QMouseEvent e(type, at, w.mapToGlobal(at), type == QEvent::MouseMove ? Qt::NoButton : Qt::LeftButton, buttons, {});
    QApplication::sendEvent(&w, &e);
}

TEST(TimeScrubber, AClickOnTheTrackMovesTheHandleThereAndSaysWhere) {
    ShownScrubber s;
    ASSERT_TRUE(s.exposed);
    QSignalSpy scrubbed(&s.scrubber, &TimeScrubber::scrubbed);
    EXPECT_EQ(s.scrubber.xOf(250), 108);
    QTest::mouseClick(&s.scrubber, Qt::LeftButton, {}, QPoint(108, 14));
    ASSERT_EQ(scrubbed.count(), 1);
    EXPECT_EQ(scrubbed.at(0).at(0).value<std::int64_t>(), 250);
    EXPECT_EQ(s.scrubber.value(), 250);
    // Beyond either end of the track: the start and the end, never outside the range.
    QTest::mouseClick(&s.scrubber, Qt::LeftButton, {}, QPoint(2, 14));
    EXPECT_EQ(s.scrubber.value(), 0);
    QTest::mouseClick(&s.scrubber, Qt::LeftButton, {}, QPoint(415, 14));
    EXPECT_EQ(s.scrubber.value(), 1000);
    // Another button does nothing.
    QTest::mouseClick(&s.scrubber, Qt::RightButton, {}, QPoint(108, 14));
    EXPECT_EQ(s.scrubber.value(), 1000);
    EXPECT_EQ(scrubbed.count(), 3);
}

TEST(TimeScrubber, DraggingScrubsAtEveryStepAndAMoveWithoutAButtonDoesNot) {
    ShownScrubber s;
    ASSERT_TRUE(s.exposed);
    QSignalSpy scrubbed(&s.scrubber, &TimeScrubber::scrubbed);
    drag(s.scrubber, QEvent::MouseMove, 208, Qt::NoButton);  // hovering
    EXPECT_EQ(scrubbed.count(), 0);
    drag(s.scrubber, QEvent::MouseButtonPress, 48, Qt::LeftButton);
    drag(s.scrubber, QEvent::MouseMove, 128, Qt::LeftButton);
    drag(s.scrubber, QEvent::MouseMove, 208, Qt::LeftButton);
    drag(s.scrubber, QEvent::MouseButtonRelease, 208, Qt::NoButton);
    ASSERT_EQ(scrubbed.count(), 3);
    EXPECT_EQ(scrubbed.at(0).at(0).value<std::int64_t>(), 100);
    EXPECT_EQ(scrubbed.at(1).at(0).value<std::int64_t>(), 300);
    EXPECT_EQ(scrubbed.at(2).at(0).value<std::int64_t>(), 500);
    EXPECT_EQ(s.scrubber.value(), 500);
}

// The caller moving the handle (the replay playing) is not a user's scrub: nothing is said.
TEST(TimeScrubber, SettingTheValueMovesTheHandleQuietlyWithinTheRange) {
    ShownScrubber s;
    QSignalSpy scrubbed(&s.scrubber, &TimeScrubber::scrubbed);
    s.scrubber.setValue(600);
    EXPECT_EQ(s.scrubber.value(), 600);
    s.scrubber.setValue(5000);
    EXPECT_EQ(s.scrubber.value(), 1000);
    s.scrubber.setValue(-3);
    EXPECT_EQ(s.scrubber.value(), 0);
    s.scrubber.setValue(900);
    s.scrubber.setRange(400);  // a shorter run: the handle comes back into it
    EXPECT_EQ(s.scrubber.value(), 400);
    EXPECT_EQ(s.scrubber.maximum(), 400);
    EXPECT_EQ(scrubbed.count(), 0);
}

int redness(QRgb c) { return qRed(c) - std::max(qGreen(c), qBlue(c)); }

TEST(TimeScrubber, ThePlayedPartTheHandleAndTheMarksAreDrawnWhereTheirValuesAre) {
    ShownScrubber s;
    ASSERT_TRUE(s.exposed);
    s.scrubber.setValue(500);
    s.scrubber.setMarks({100, 800});
    s.scrubber.setMarkColour(QColor(230, 0, 0));
    const QImage image = s.scrubber.grab().toImage();
    const QPalette& palette = s.scrubber.palette();
    const int mid = image.height() / 2;
    // The track: played (highlight) left of the handle, the rest in the mid tone.
    EXPECT_EQ(image.pixel(s.scrubber.xOf(250), mid), palette.color(QPalette::Highlight).rgb());
    EXPECT_EQ(image.pixel(s.scrubber.xOf(650), mid), palette.color(QPalette::Mid).rgb());
    // The handle: a button-coloured disc at the value.
    EXPECT_EQ(image.pixel(s.scrubber.xOf(500), mid), palette.color(QPalette::Button).rgb());
    // The marks: red ticks standing out above the track at 100 and 800, nowhere else.
    const int above = mid - 5;
    EXPECT_GT(redness(image.pixel(s.scrubber.xOf(100), above)), 60);
    EXPECT_GT(redness(image.pixel(s.scrubber.xOf(800), above)), 60);
    EXPECT_LT(redness(image.pixel(s.scrubber.xOf(300), above)), 20);
    EXPECT_LT(redness(image.pixel(s.scrubber.xOf(650), above)), 20);
}

}  // namespace
}  // namespace faultline
