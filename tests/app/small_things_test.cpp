// The smaller things a reviewer sees (#38): the inspector's chart tooltip names what it reads
// (no stray colon), counts have thousands separators, a bitmask is not offered as a colour
// scale, and after a failed open the charts say why instead of showing empty axes.
#include "gui_test_app.h"
#include "telemetry_test_run.h"
#include "test_runs.h"

#include "app/colour_by_menu.h"
#include "app/main_window.h"
#include "analysis/summary.h"
#include "views/charts_view.h"
#include "views/comparison_charts.h"
#include "views/fabric/fabric_view.h"
#include "views/gpu_metric_chart.h"
#include "views/inspector_view.h"
#include "model/host_jobs.h"
#include "model/replay_state.h"
#include "views/summary_view.h"
#include "widgets/stat_tile.h"
#include "model/run_file.h"

#include <QLabel>
#include <QSignalSpy>
#include <QTest>
#include <QtCharts/QXYSeries>

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

namespace faultline {
namespace {

TEST(SmallThings, TheInspectorsChartTooltipNamesTheMetricWithoutAStrayColon) {
    test::guiApp();
    const faultline::Run& run = test::telemetryTinyRun();
    const auto power = run.telemetry.metricIndex(kPowerMetric);
    ASSERT_TRUE(power.has_value());
    GpuMetricChart chart;
    chart.resize(400, 260);
    chart.showReadings(&run, 0, *power);
    chart.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&chart));
    QXYSeries* readings = nullptr;
    for (QAbstractSeries* s : chart.chart()->series())
        if (s->objectName() == "metricReadings") readings = static_cast<QXYSeries*>(s);
    ASSERT_NE(readings, nullptr);
    ASSERT_GT(readings->count(), 2);
    const QPointF point = readings->at(readings->count() / 2);
    const QString tip = chart.toolTipAt(chart.mapFromScene(chart.chart()->mapToPosition(point, readings)));
    ASSERT_FALSE(tip.isEmpty());
    EXPECT_FALSE(tip.startsWith(':')) << tip.toStdString();
    EXPECT_TRUE(tip.startsWith("Power: ")) << tip.toStdString();
    EXPECT_TRUE(tip.contains(" W ")) << tip.toStdString();
}

TEST(SmallThings, TheInterruptionsTileCountsWithThousandsSeparators) {
    test::guiApp();
    RunSummary s = summarize(test::tinyRun());
    s.planned = 4000;
    s.unexpected = 5000;
    s.withoutDowntime = 0;
    SummaryView view;
    view.setSummary(s);
    auto* tile = view.findChild<StatTile*>("interruptionsTile");
    ASSERT_NE(tile, nullptr);
    EXPECT_EQ(tile->value(), "9,000");
}

TEST(SmallThings, TheComparisonsBarTooltipSeparatesThousands) {
    EXPECT_EQ(bridgeBarToolTip("Network", 91832.74, "GPU-hours", "B").toStdString(), "Network: 91,832.7 GPU-hours (B)");
    EXPECT_EQ(bridgeBarToolTip("Software", 12.26, "h", "A").toStdString(), "Software: 12.3 h (A)");
}

TEST(SmallThings, TheInspectorNamesThePickedGpusJob) {
    test::guiApp();
    const faultline::Run& run = test::smallFleetRun();
    const HostJobs hostJobs(run);
    // A job with hardware and a start, and a GPU of its first host while it runs.
    const auto job = std::find_if(run.jobs.begin(), run.jobs.end(), [](const Job& j) { return j.parent < 0 && j.start && !j.hosts.empty(); });
    ASSERT_NE(job, run.jobs.end());
    const Nanos t = *job->start + kSecond;
    const std::int32_t host = job->hosts.front();
    ASSERT_EQ(hostJobs.jobAt(host, t), static_cast<std::int32_t>(job - run.jobs.begin()));
    const std::int32_t gpu = run.topology.gpusOfHost(host).front();
    ReplayIndex replay(run);
    InspectorView inspector;
    inspector.setRun(std::shared_ptr<const faultline::Run>(std::shared_ptr<const faultline::Run>(), &run), &replay);
    inspector.setTime(t);
    inspector.showPart({ComponentKind::Gpu, gpu});
    const QString now = inspector.findChild<QLabel*>("inspectorNow")->text();
    EXPECT_TRUE(now.contains(QString("job %1").arg(QString::fromStdString(job->id)))) << now.toStdString();
}

TEST(SmallThings, ClockThrottleReasonsAreNotOfferedAsAColourScale) {
    test::guiApp();
    faultline::Run run = test::telemetryTinyRun();
    run.telemetry.metrics.push_back("DCGM_FI_DEV_CLOCK_THROTTLE_REASONS");  // a bitmask: each bit a reason
    FabricView view;
    ColourByMenu menu(view);
    menu.setRun(&run);
    EXPECT_TRUE(menu.entries().contains("Power (W)"));
    for (const QString& entry : menu.entries()) EXPECT_FALSE(entry.contains("throttle", Qt::CaseInsensitive)) << entry.toStdString();
}

TEST(SmallThings, AfterAFailedOpenTheChartsSayWhy) {
    test::guiApp();
    test::ScratchDir dir;
    const std::string path = dir.file("garbage.faultline");
    std::ofstream(path) << "this is not a run";
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    QSignalSpy failed(&window, &MainWindow::runFailed);
    window.openRun(QString::fromStdString(path));
    ASSERT_TRUE(failed.wait(30'000));
    auto* charts = window.findChild<ChartsView*>("chartsView");
    ASSERT_NE(charts, nullptr);
    EXPECT_TRUE(charts->noRunText().contains("is not a Faultline run file")) << charts->noRunText().toStdString();
    for (const char* name : {"ettrChart", "stepTimeChart", "powerChart"})
        if (auto* chart = charts->findChild<QWidget*>(name)) {
            EXPECT_TRUE(chart->isHidden()) << name << " shows empty axes";
        }

    // A run opened after: the charts are back.
    writeRunFile(test::tinyRun(), dir.file("tiny.faultline"));
    QSignalSpy shown(&window, &MainWindow::runShown);
    window.openRun(QString::fromStdString(dir.file("tiny.faultline")));
    ASSERT_TRUE(shown.wait(60'000));
    EXPECT_TRUE(charts->noRunText().isEmpty());
    EXPECT_FALSE(charts->findChild<QWidget*>("ettrChart")->isHidden());
}

}  // namespace
}  // namespace faultline
