// The heat map: each cell drawn in the colour of its value on the scale of the values shown,
// a click reporting the cell's column, a hover naming the cell, the marker column drawn.
#include "gui_test_app.h"

#include "widgets/heat_map.h"

#include <QApplication>
#include <QSignalSpy>
#include <QTest>
#include <QToolTip>

#include <gtest/gtest.h>

#include <map>
#include <vector>

namespace faultline {
namespace {

// Two ranks over four windows, on screen.
struct ShownMap {
    QApplication& app = test::guiApp();
    HeatMap map;
    ShownMap() {
        map.setData({{0.10, 0.20, 0.30, 0.40}, {0.15, 0.35, 0.75, 0.50}}, {"rank 0", "rank 1"});
        map.resize(500, 220);
        map.show();
        exposed = QTest::qWaitForWindowExposed(&map);
    }
    // The middle of a cell, found as a user would: where the map says that cell is.
    QPoint centreOf(int row, int column) const {
        QRect box;
        for (int y = 0; y < map.height(); ++y)
            for (int x = 0; x < map.width(); ++x)
                if (map.cellAt({x, y}) == QPoint(column, row)) box |= QRect(x, y, 1, 1);
        return box.center();
    }
    bool exposed = false;
};

int distance(QRgb a, QRgb b) { return std::abs(qRed(a) - qRed(b)) + std::abs(qGreen(a) - qGreen(b)) + std::abs(qBlue(a) - qBlue(b)); }

TEST(HeatMap, EachCellIsDrawnInTheColourOfItsValueOnTheScaleOfTheValuesShown) {
    ShownMap m;
    ASSERT_TRUE(m.exposed);
    EXPECT_EQ(m.map.rows(), 2);
    EXPECT_EQ(m.map.columns(), 4);
    // The scale spans the values shown: the lowest palest, the highest deepest.
    EXPECT_DOUBLE_EQ(m.map.scaleLow(), 0.10);
    EXPECT_DOUBLE_EQ(m.map.scaleHigh(), 0.75);
    EXPECT_EQ(m.map.colourOfValue(0.10), HeatMap::colourFor(0));
    EXPECT_EQ(m.map.colourOfValue(0.75), HeatMap::colourFor(1));
    const QImage image = m.map.grab().toImage();
    for (int row = 0; row < 2; ++row)
        for (int column = 0; column < 4; ++column) {
            const QPoint at = m.centreOf(row, column);
            EXPECT_LE(distance(image.pixel(at), m.map.colourOfValue(m.map.value(row, column))), 6) << row << ", " << column;
        }
    // The deepest cell is darker than the palest by far.
    EXPECT_GT(distance(image.pixel(m.centreOf(1, 2)), image.pixel(m.centreOf(0, 0))), 200);
}

TEST(HeatMap, AClickReportsTheColumnAndAHoverNamesTheCell) {
    ShownMap m;
    ASSERT_TRUE(m.exposed);
    m.map.setColumnAxis(0, 40, "minutes");
    m.map.setScaleTitle("time waited");
    QSignalSpy clicked(&m.map, &HeatMap::columnClicked);
    QSignalSpy hovered(&m.map, &HeatMap::cellHovered);
    QTest::mouseClick(&m.map, Qt::LeftButton, {}, m.centreOf(1, 2));
    ASSERT_EQ(clicked.count(), 1);
    EXPECT_EQ(clicked.at(0).at(0).toInt(), 2);
    QTest::mouseClick(&m.map, Qt::LeftButton, {}, QPoint(5, 5));  // the row labels: no cell
    EXPECT_EQ(clicked.count(), 1);

    QTest::mouseMove(&m.map, m.centreOf(1, 2));
    ASSERT_GE(hovered.count(), 1);
    EXPECT_EQ(hovered.last().at(0).toInt(), 1);
    EXPECT_EQ(hovered.last().at(1).toInt(), 2);
    EXPECT_DOUBLE_EQ(hovered.last().at(2).toDouble(), 0.75);
    EXPECT_TRUE(QTest::qWaitFor([] { return QToolTip::isVisible(); }, 30'000));
    EXPECT_EQ(QToolTip::text(), "rank 1, 20.00 to 30.00 minutes: 75.0% time waited");
    QToolTip::hideText();
}

TEST(HeatMap, TheMarkerColumnIsDrawnInTheHighlightColour) {
    ShownMap m;
    ASSERT_TRUE(m.exposed);
    // Highlight-coloured pixels across the middle of each cell of a row.
    auto markedColumns = [&m] {
        const QImage image = m.map.grab().toImage();
        const QRgb highlight = m.map.palette().highlight().color().rgb();
        std::vector<int> marked;
        for (int column = 0; column < m.map.columns(); ++column) {
            const QPoint centre = m.centreOf(0, column);
            bool found = false;
            for (int x = 0; x < m.map.width(); ++x)
                found = found || (m.map.cellAt({x, centre.y()}).x() == column && image.pixel(x, centre.y()) == highlight);
            if (found) marked.push_back(column);
        }
        return marked;
    };
    EXPECT_TRUE(markedColumns().empty());
    m.map.setMarkerColumn(1);
    EXPECT_EQ(markedColumns(), std::vector<int>{1});
    m.map.setMarkerColumn(3);
    EXPECT_EQ(markedColumns(), std::vector<int>{3});
    m.map.setMarkerColumn(-1);
    EXPECT_TRUE(markedColumns().empty());
}

// One value everywhere (or nothing) is drawn on the whole 0..100% scale, not a scale of zero
// width; a map without rows says there is nothing to show.
TEST(HeatMap, OneValueEverywhereTakesTheWholeScaleAndAnEmptyMapSaysSo) {
    test::guiApp();
    HeatMap map;
    map.setData({{0.2, 0.2}, {0.2}}, {"a", "b"});
    EXPECT_DOUBLE_EQ(map.scaleLow(), 0);
    EXPECT_DOUBLE_EQ(map.scaleHigh(), 1);
    EXPECT_EQ(map.columns(), 2);
    EXPECT_DOUBLE_EQ(map.value(1, 1), 0.0) << "a missing cell is 0";
    EXPECT_DOUBLE_EQ(map.value(5, 0), 0.0);

    map.setData({}, {});
    map.resize(400, 160);
    map.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&map));
    EXPECT_EQ(map.cellAt({250, 80}), QPoint(-1, -1));
    // The message is drawn in the middle: text-coloured pixels there, none in the corners.
    const QImage image = map.grab().toImage();
    const QRgb background = map.palette().window().color().rgb();
    std::map<bool, int> inked;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            if (distance(image.pixel(x, y), background) > 100) ++inked[std::abs(y - image.height() / 2) < 20];
    EXPECT_GT(inked[true], 50);
    EXPECT_EQ(inked[false], 0);
}

}  // namespace
}  // namespace faultline
