// A chart's own tooltip (shown when a bar is hovered) stays while the pointer rests: when Qt
// asks the chart view for its tooltip, the view would answer from its scene's items, which
// have none, by hiding it. Where no chart tooltip is up, the items' own tooltips still show.
#include "gui_test_app.h"

#include "widgets/chart_tool_tips.h"

#include <QApplication>
#include <QGraphicsSimpleTextItem>
#include <QHelpEvent>
#include <QTest>
#include <QToolTip>
#include <QtCharts/QBarSeries>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>

#include <gtest/gtest.h>

#include <memory>

namespace faultline {
namespace {

// A bar chart that shows a tooltip for the bar hovered, as the app's charts do.
struct BarChart {
    QChartView view;
    QBarSet* set = new QBarSet("downtime");
    explicit BarChart(bool keep) {
        *set << 3 << 5 << 2;
        auto* series = new QBarSeries;
        series->append(set);
        auto* chart = new QChart;
        chart->addSeries(series);
        chart->createDefaultAxes();
        chart->legend()->hide();
        view.setChart(chart);
        QObject::connect(set, &QBarSet::hovered, &view, [this](bool on, int index) {
            if (on) QToolTip::showText(QCursor::pos(), QString("bar %1: %2 h of downtime").arg(index).arg(set->at(index)), &view);
        });
        if (keep) keepChartToolTips(&view);
        view.resize(400, 300);
        view.show();
    }
    QPoint middleOfBar(int index) const {
        return view.mapFromScene(view.chart()->mapToPosition(QPointF(index, set->at(index) / 2), view.chart()->series().first()));
    }
    // A text item of the chart's scene with a tooltip of its own; where it is drawn.
    QPoint addNote() {
        auto* note = new QGraphicsSimpleTextItem("note");
        note->setToolTip("a note of the chart");
        note->setPos(20, 20);
        note->setZValue(100);
        view.scene()->addItem(note);
        return view.mapFromScene(note->sceneBoundingRect().center());
    }
    // What Qt sends the view when the pointer has rested on `at`.
    bool rest(QPoint at) {
        QHelpEvent help(QEvent::ToolTip, at, view.viewport()->mapToGlobal(at));
        return QApplication::sendEvent(view.viewport(), &help);
    }
};

void hideToolTip() {
    QToolTip::hideText();
    EXPECT_TRUE(QTest::qWaitFor([] { return !QToolTip::isVisible(); }, 30'000));
}

TEST(ChartToolTips, TheHoveredBarsTooltipStaysWhenQtAsksTheViewForOne) {
    test::guiApp();
    hideToolTip();
    BarChart chart(true);
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&chart.view));
    const QPoint bar = chart.middleOfBar(1);
    QTest::mouseMove(chart.view.viewport(), bar);
    ASSERT_TRUE(QTest::qWaitFor([] { return QToolTip::isVisible(); }, 30'000)) << "hovering a bar shows its tooltip";
    EXPECT_EQ(QToolTip::text(), "bar 1: 5 h of downtime");
    // The request never reaches the view: had it, the view would have answered from its
    // scene's items, and the note's tooltip would have replaced the bar's at once.
    const QPoint note = chart.addNote();
    EXPECT_TRUE(chart.rest(note)) << "the request is answered by the chart's own tooltip";
    EXPECT_TRUE(chart.rest(bar));
    QApplication::processEvents();
    EXPECT_TRUE(QToolTip::isVisible());
    EXPECT_EQ(QToolTip::text(), "bar 1: 5 h of downtime");
    hideToolTip();
}

// Without keepChartToolTips, the same request replaces the bar's tooltip with an item's, or
// hides it where no item has one: what the keeper is for.
TEST(ChartToolTips, WithoutTheKeeperTheViewReplacesOrHidesTheBarsTooltip) {
    test::guiApp();
    hideToolTip();
    BarChart chart(false);
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&chart.view));
    const QPoint bar = chart.middleOfBar(0);
    QTest::mouseMove(chart.view.viewport(), bar);
    ASSERT_TRUE(QTest::qWaitFor([] { return QToolTip::isVisible(); }, 30'000));
    EXPECT_EQ(QToolTip::text(), "bar 0: 3 h of downtime");
    chart.rest(chart.addNote());
    EXPECT_EQ(QToolTip::text(), "a note of the chart");
    chart.rest(bar);
    EXPECT_TRUE(QTest::qWaitFor([] { return !QToolTip::isVisible(); }, 30'000)) << "the view answered with no tooltip";
}

TEST(ChartToolTips, AnItemsOwnTooltipStillShowsWhenNoChartTooltipIsUp) {
    test::guiApp();
    hideToolTip();
    BarChart chart(true);
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&chart.view));
    chart.rest(chart.addNote());
    EXPECT_TRUE(QTest::qWaitFor([] { return QToolTip::isVisible(); }, 30'000));
    EXPECT_EQ(QToolTip::text(), "a note of the chart");
    hideToolTip();
}

}  // namespace
}  // namespace faultline
