// The Charts panel's power chart: the cluster's draw over the run with its failures marked,
// on the same clock as the other charts.
#include "gui_test_app.h"
#include "test_runs.h"

#include "views/charts_view.h"
#include "views/power_chart.h"

#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>

#include <gtest/gtest.h>

#include <memory>

namespace faultline {
namespace {

template <typename T>
T* seriesOf(QChartView* view, const char* name) {
    for (QAbstractSeries* s : view->chart()->series())
        if (s->objectName() == name) return qobject_cast<T*>(s);
    return nullptr;
}

TEST(PowerChart, ShowsTheClusterDrawWithEveryFailureMarked) {
    test::guiApp();
    ChartsView view;
    view.resize(1400, 1300);
    // The power model's curve: the tiny run without the telemetry the simulator gave it.
    auto modelled = std::make_shared<faultline::Run>(test::tinyRun());
    modelled->telemetry = {};
    const std::shared_ptr<const faultline::Run> run = modelled;
    view.setRun(run);
    view.show();
    auto* chart = view.findChild<PowerChart*>("powerChart");
    ASSERT_NE(chart, nullptr);
    auto* curve = seriesOf<QLineSeries>(chart, "powerCurve");
    auto* failures = seriesOf<QScatterSeries>(chart, "powerFailures");
    ASSERT_NE(curve, nullptr);
    ASSERT_NE(failures, nullptr);
    EXPECT_EQ(failures->count(), static_cast<int>(run->failures.size()));
    // 256 GPUs at 700 W: 179.2 kW while training, the chart's peak.
    double peak = 0;
    for (const QPointF& p : curve->points()) peak = std::max(peak, p.y());
    EXPECT_DOUBLE_EQ(peak, 256 * 700 / 1000.0);
    EXPECT_EQ(chart->yAxis()->titleText(), "kW");
    EXPECT_TRUE(chart->emptyMessage().isEmpty());
    if (const char* dir = std::getenv("FAULTLINE_TEST_SHOTS")) view.grab().save(QString("%1/power_chart.png").arg(dir));
}

// Issue #38: the legend keyed the marks but not the curve itself, and the checkpoint saves'
// marks, hundreds of them at the training level, hid the curve's top.
TEST(PowerChart, TheLegendKeysTheCurveAndTheSavesLeaveItsTopClear) {
    test::guiApp();
    PowerChart chart;
    chart.resize(1400, 300);
    auto modelled = std::make_shared<faultline::Run>(test::tinyRun());
    modelled->telemetry = {};
    chart.setRun(modelled.get());
    chart.show();
    auto* curve = seriesOf<QLineSeries>(&chart, "powerCurve");
    auto* saves = seriesOf<QScatterSeries>(&chart, "powerCheckpoints");
    ASSERT_NE(curve, nullptr);
    ASSERT_NE(saves, nullptr);
    const QList<QLegendMarker*> keys = chart.chart()->legend()->markers(curve);
    ASSERT_EQ(keys.size(), 1);
    EXPECT_TRUE(keys.front()->isVisible());
    EXPECT_FALSE(keys.front()->label().isEmpty());
    ASSERT_GT(saves->count(), 10);
    double peak = 0, low = peak;
    for (const QPointF& p : curve->points()) peak = std::max(peak, p.y());
    low = peak;
    for (const QPointF& p : curve->points()) low = std::min(low, p.y());
    // Every save's mark below the lowest the curve goes (the job down): none on the line.
    for (const QPointF& p : saves->points()) EXPECT_LT(p.y(), low) << "a save marked at " << p.y() << " on a curve of " << low << " to " << peak;
}

}  // namespace
}  // namespace faultline
