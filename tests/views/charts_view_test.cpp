#include "gui_test_app.h"
#include "test_runs.h"

#include "analysis/goodput.h"
#include "simulator/simulator.h"
#include "analysis/summary.h"
#include "views/charts_view.h"
#include "widgets/heat_map.h"

#include <QApplication>
#include <QSignalSpy>
#include <QToolTip>
#include <QTest>
#include <QtCharts/QAbstractBarSeries>
#include <QtCharts/QBarSet>
#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>

#include <gtest/gtest.h>

namespace faultline {
namespace {

using test::maybeSave;
using test::tracedRun;

// Series live in their chart's scene, not among the widget's children: look them up there.
template <typename T>
T* seriesIn(QWidget& view, const char* chart, const char* name) {
    auto* chartView = view.findChild<QChartView*>(chart);
    if (!chartView) return nullptr;
    for (QAbstractSeries* s : chartView->chart()->series())
        if (s->objectName() == name) return qobject_cast<T*>(s);
    return nullptr;
}

QBarSet* barSetIn(QWidget& view, const char* chart, const char* name) {
    auto* chartView = view.findChild<QChartView*>(chart);
    if (!chartView) return nullptr;
    for (QAbstractSeries* s : chartView->chart()->series())
        if (auto* bars = qobject_cast<QAbstractBarSeries*>(s))
            for (QBarSet* set : bars->barSets())
                if (set->objectName() == name) return set;
    return nullptr;
}

// Where tests save what they render, for a person to look at: FAULTLINE_TEST_SHOTS=DIR.

TEST(ChartsView, PlotsTheLedgerAndTheCauses) {
    test::guiApp();
    ChartsView view;
    view.resize(1400, 1000);
    view.setRun(tracedRun());
    view.show();
    const GoodputLedger ledger = computeGoodput(*tracedRun());

    auto* daily = seriesIn<QLineSeries>(view, "ettrChart", "ettrDaily");
    ASSERT_NE(daily, nullptr);
    ASSERT_EQ(daily->count(), static_cast<int>(ledger.days.size()));
    for (int i = 0; i < daily->count(); ++i) EXPECT_NEAR(daily->at(i).y(), ledger.days[static_cast<std::size_t>(i)].ettr() * 100.0, 1e-9);
    auto* cumulative = seriesIn<QLineSeries>(view, "ettrChart", "ettrCumulative");
    ASSERT_NE(cumulative, nullptr);
    EXPECT_NEAR(cumulative->at(cumulative->count() - 1).y(), ledger.whole.ettr() * 100.0, 1e-9);

    auto* causes = barSetIn(view, "causesChart", "causeCounts");
    ASSERT_NE(causes, nullptr);
    ASSERT_EQ(causes->count(), 18);
    const RunSummary summary = summarize(*tracedRun());
    ASSERT_FALSE(summary.causes.empty());
    for (const CauseCount& c : summary.causes) {
        const auto table = llama3Causes();
        const int index = 17 - static_cast<int>(std::find(table.begin(), table.end(), c.cause) - table.begin());
        EXPECT_EQ(causes->at(index), c.count) << rootCauseLabel(c.cause);
    }
    auto* waterfall = barSetIn(view, "waterfallChart", "waterfallValues");
    ASSERT_NE(waterfall, nullptr);
    ASSERT_EQ(waterfall->count(), 5);
    const Badput& b = ledger.whole.badput;
    EXPECT_NEAR(waterfall->at(4), static_cast<double>(b.detection + b.restart + b.reload + b.lostWork) / kHour, 1e-9);
    maybeSave(view, "charts");
}

TEST(ChartsView, HeatMapShowsTheLateRanks) {
    test::guiApp();
    ChartsView view;
    view.setRun(tracedRun());
    auto* heat = view.findChild<HeatMap*>("stragglerHeatMap");
    const StragglerReport report = analyzeStragglers(*tracedRun());
    ASSERT_EQ(heat->rows(), static_cast<int>(std::min<std::size_t>(64, report.ranks.size())));
    EXPECT_EQ(heat->columns(), 100);
    EXPECT_DOUBLE_EQ(heat->value(0, 10), report.ranks.front().timeline[10]);
}

// Ranks that all waited about 11% of the time (11.2%, 11.4%, 11.6%) were one flat colour:
// the scale now spans the values shown, so the three rows differ and the scale says 11.2 to 11.6%.
TEST(HeatMap, ColoursSpanTheValuesShown) {
    test::guiApp();
    HeatMap heat;
    heat.resize(400, 200);
    heat.setData({std::vector<double>(10, 0.112), std::vector<double>(10, 0.114), std::vector<double>(10, 0.116)}, {"rank 0", "rank 1", "rank 2"});
    EXPECT_DOUBLE_EQ(heat.scaleLow(), 0.112);
    EXPECT_DOUBLE_EQ(heat.scaleHigh(), 0.116);
    EXPECT_EQ(heat.colourOfValue(0.112), HeatMap::colourFor(0.0));
    EXPECT_EQ(heat.colourOfValue(0.116), HeatMap::colourFor(1.0));
    const QImage shot = heat.grab().toImage();
    auto colourOfRow = [&](int row) {
        const QPoint cell(heat.width() / 2, 0);
        for (int y = 0; y < shot.height(); ++y)
            if (heat.cellAt({cell.x(), y}).y() == row) return shot.pixel(cell.x(), y + 2);
        return QRgb(0);
    };
    EXPECT_NE(colourOfRow(0), colourOfRow(1));
    EXPECT_NE(colourOfRow(1), colourOfRow(2));
    EXPECT_NE(colourOfRow(0), colourOfRow(2));
}

TEST(ChartsView, ClickingAChartMovesTheReplayAndTheCursorFollows) {
    test::guiApp();
    ChartsView view;
    view.resize(1400, 1000);
    view.setRun(tracedRun());
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    auto* ettr = view.findChild<QChartView*>("ettrChart");
    ASSERT_NE(ettr, nullptr);
    QSignalSpy requested(&view, &ChartsView::timeRequested);
    const QPointF at = ettr->chart()->mapToPosition(QPointF(1.25, 95.0), ettr->chart()->series().first());
    QTest::mouseClick(ettr->viewport(), Qt::LeftButton, {}, ettr->mapFromScene(at));
    ASSERT_EQ(requested.count(), 1);
    EXPECT_NEAR(static_cast<double>(requested.at(0).at(0).value<Nanos>()) / kDay, 1.25, 0.02);

    view.setTime(kDay / 2);
    auto* cursor = seriesIn<QLineSeries>(view, "ettrChart", "cursor");
    ASSERT_NE(cursor, nullptr);
    EXPECT_DOUBLE_EQ(cursor->at(0).x(), 0.5);
}

// A chart's own tooltip (a hovered bar, a point of a time series) stays while the pointer
// rests on it, as Qt's tooltips do: it used to vanish a second after it appeared.
TEST(ChartsView, TooltipsStayWhileThePointerRests) {
    test::guiApp();
    ChartsView view;
    view.resize(1400, 1000);
    view.setRun(tracedRun());
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    QApplication::processEvents();

    auto rest = [](QChartView* chart, QPointF scenePoint) {
        QToolTip::hideText();
        EXPECT_TRUE(QTest::qWaitFor([] { return !QToolTip::isVisible(); }, 30'000));
        const QPoint at = chart->mapFromScene(scenePoint);
        QTest::mouseMove(chart->viewport(), at - QPoint(3, 0));
        QTest::mouseMove(chart->viewport(), at);
        EXPECT_TRUE(QTest::qWaitFor([] { return QToolTip::isVisible(); }, 30'000)) << "no tooltip on " << chart->objectName().toStdString();
        const QString shown = QToolTip::text();
        // Held still for 3 s: Qt asks the view for its tooltip after 0.7 s, and hid ours then.
        EXPECT_FALSE(QTest::qWaitFor([] { return !QToolTip::isVisible(); }, 3'000))
            << "the tooltip of " << chart->objectName().toStdString() << " vanished while the pointer rested";
        EXPECT_EQ(QToolTip::text(), shown);
        return shown;
    };

    auto* waterfall = view.findChild<QChartView*>("waterfallChart");
    QBarSet* values = barSetIn(view, "waterfallChart", "waterfallValues");
    ASSERT_TRUE(waterfall && values);
    int bar = 0;
    while (bar < values->count() && values->at(bar) <= 0) ++bar;
    ASSERT_LT(bar, values->count());
    // The bars lie down: a bar's middle is halfway along its value from where it floats.
    QBarSet* base = qobject_cast<QAbstractBarSeries*>(waterfall->chart()->series().first())->barSets().first();
    const QPointF barMiddle =
        waterfall->chart()->mapToPosition(QPointF(base->at(bar) + values->at(bar) / 2, bar), waterfall->chart()->series().first());
    EXPECT_TRUE(rest(waterfall, barMiddle).contains("of downtime"));

    auto* ettr = view.findChild<QChartView*>("ettrChart");
    ASSERT_NE(ettr, nullptr);
    QLineSeries* daily = nullptr;  // the series with the most points to rest on
    for (QAbstractSeries* s : ettr->chart()->series())
        if (auto* line = qobject_cast<QLineSeries*>(s); line && s->objectName() != "cursor" && (!daily || line->count() > daily->count())) daily = line;
    ASSERT_TRUE(daily && daily->count() > 0);
    const QPointF point = ettr->chart()->mapToPosition(daily->at(daily->count() / 2), daily);
    EXPECT_TRUE(rest(ettr, point).contains(daily->name()));
    QToolTip::hideText();
}

}  // namespace
}  // namespace faultline
