// The stat tile: its caption, its value large and bold, its detail under it, the caption and
// detail dimmed in whatever theme is in use.
#include "gui_test_app.h"

#include "widgets/stat_tile.h"

#include <QApplication>
#include <QLabel>
#include <QTest>

#include <gtest/gtest.h>

namespace faultline {
namespace {

TEST(StatTile, ShowsItsCaptionValueAndDetailOneUnderTheOther) {
    test::guiApp();
    StatTile tile("ETTR");
    tile.setValue("91.2%");
    tile.setDetail("effective training time ratio over 3 days");
    tile.resize(220, 140);
    tile.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&tile));
    auto* caption = tile.findChild<QLabel*>("caption");
    auto* value = tile.findChild<QLabel*>("value");
    auto* detail = tile.findChild<QLabel*>("detail");
    ASSERT_TRUE(caption && value && detail);
    EXPECT_EQ(caption->text(), "ETTR");
    EXPECT_EQ(value->text(), "91.2%");
    EXPECT_EQ(tile.value(), "91.2%");
    EXPECT_EQ(detail->text(), "effective training time ratio over 3 days");
    // Top to bottom, none over another.
    EXPECT_LE(caption->geometry().bottom(), value->geometry().top());
    EXPECT_LE(value->geometry().bottom(), detail->geometry().top());
    // The value is the figure at a glance: larger and bold; it can be selected and copied.
    EXPECT_TRUE(value->font().bold());
    EXPECT_GT(value->fontMetrics().height(), caption->fontMetrics().height() * 3 / 2);
    EXPECT_TRUE(value->textInteractionFlags() & Qt::TextSelectableByMouse);
    // A detail that wraps has room for its second line in a narrow tile.
    EXPECT_TRUE(detail->wordWrap());
    EXPECT_GE(detail->height(), 2 * detail->fontMetrics().lineSpacing());
}

// Caption and detail in the theme's placeholder colour, and again after the theme changes: a
// palette set on a label would otherwise keep the old theme's colour.
TEST(StatTile, CaptionAndDetailStayDimmedWhenTheThemeChanges) {
    test::guiApp();
    StatTile tile("Interruptions");
    tile.setValue("12");
    tile.setDetail("9 unexpected");
    auto* caption = tile.findChild<QLabel*>("caption");
    auto* detail = tile.findChild<QLabel*>("detail");
    auto* value = tile.findChild<QLabel*>("value");
    ASSERT_TRUE(caption && detail && value);
    EXPECT_EQ(caption->palette().color(QPalette::WindowText), tile.palette().color(QPalette::PlaceholderText));
    EXPECT_EQ(detail->palette().color(QPalette::WindowText), tile.palette().color(QPalette::PlaceholderText));

    QPalette dark = tile.palette();
    dark.setColor(QPalette::Window, QColor(30, 30, 30));
    dark.setColor(QPalette::WindowText, QColor(240, 240, 240));
    dark.setColor(QPalette::PlaceholderText, QColor(150, 160, 170));
    tile.setPalette(dark);
    EXPECT_EQ(caption->palette().color(QPalette::WindowText), QColor(150, 160, 170));
    EXPECT_EQ(detail->palette().color(QPalette::WindowText), QColor(150, 160, 170));
    EXPECT_EQ(value->palette().color(QPalette::WindowText), QColor(240, 240, 240)) << "the value is not dimmed";
}

}  // namespace
}  // namespace faultline
