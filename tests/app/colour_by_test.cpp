// View > Colour By as a user meets it: the menu lists the run's metrics by name, choosing one
// recolours the 3D view and the inspector's chart follows it; the picked GPU's readings are
// charted with its failure and straggler episode marked; no run telemetry, only State.
#include "gui_test_app.h"
#include "open_in_window.h"
#include "manual_animation_clock.h"
#include "telemetry_test_run.h"
#include "test_runs.h"

#include "app/colour_by_menu.h"
#include "app/export_controller.h"
#include "app/main_window.h"
#include "model/metric_at_instant.h"
#include "model/run_file.h"
#include "views/fabric/colour_difference.h"
#include "views/fabric/fabric_view.h"
#include "views/gpu_metric_chart.h"
#include "views/inspector_view.h"
#include "views/fabric/job_colouring.h"
#include "views/jobs_view.h"
#include "widgets/vtk_render_widget.h"
#include "views/metric_scale.h"
#include "views/replay_panel.h"
#include "views/fabric/scene_legend.h"
#include "views/state_legend.h"

#include <QAction>
#include <QLabel>
#include <QProcess>
#include <QDockWidget>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>
#include <QtCharts/QAreaSeries>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>

#include <gtest/gtest.h>

#include <cmath>

namespace faultline {
namespace {

// A main window showing `run`, written to a run file as an import would.
struct WindowOn : test::WindowOnRun {
    explicit WindowOn(const faultline::Run& run) : WindowOnRun(run) {}
    ColourByMenu* menu() { return window.findChild<ColourByMenu*>("colourByMenu"); }
};

QString checkedEntry(const ColourByMenu& menu) {
    for (QAction* a : menu.actions())
        if (a->isChecked()) return a->text().remove('&');
    return {};
}

TEST(ColourBy, TheMenuListsTheRunsMetricsByNameAndChoosingOneRecoloursTheView) {
    WindowOn w(test::telemetryTinyRun());
    ASSERT_TRUE(w.shown);
    ColourByMenu* menu = w.menu();
    ASSERT_NE(menu, nullptr);
    EXPECT_TRUE(menu->isEnabled());
    EXPECT_EQ(menu->entries(), QStringList({"State", "GPU temperature (°C)", "Power (W)", "SM clock (MHz)"}));
    EXPECT_EQ(checkedEntry(*menu), "State");
    FabricView* view = w.window.replayPanel()->fabricView();
    EXPECT_FALSE(view->colourBy().has_value());

    ASSERT_TRUE(menu->choose("Power (W)"));
    ASSERT_TRUE(view->colourBy().has_value());
    EXPECT_EQ(w.window.currentRun()->run.telemetry.metrics[static_cast<std::size_t>(*view->colourBy())], "DCGM_FI_DEV_POWER_USAGE");
    EXPECT_EQ(checkedEntry(*menu), "Power (W)");
    EXPECT_EQ(view->legend().title(), "Power (W)");
    // The inspector's chart follows the choice.
    EXPECT_EQ(w.window.replayPanel()->inspector()->metricShown(), *view->colourBy());

    // Opening the run again starts at State: a choice belongs to a run, not to the app.
    QSignalSpy shown(&w.window, &MainWindow::runShown);
    w.window.openRun(QString::fromStdString(w.dir.file("run.faultline")));
    ASSERT_TRUE(shown.wait(30'000));
    EXPECT_FALSE(view->colourBy().has_value());
    EXPECT_EQ(checkedEntry(*w.menu()), "State");
}

// Export Report from the window pictures the hall as the user has it coloured, and says so.
TEST(ColourBy, TheWindowsReportPicturesTheHallByTheChosenMetric) {
    WindowOn w(test::telemetryTinyRun());
    ASSERT_TRUE(w.shown);
    ASSERT_TRUE(w.menu()->choose("Power (W)"));
    auto* exports = w.window.findChild<ExportController*>();
    ASSERT_NE(exports, nullptr);
    QSignalSpy said(exports, &ExportController::message);
    const QString pdf = QString::fromStdString(w.dir.file("by-power.pdf"));
    exports->exportReportTo({pdf, 1, QPageSize::A4});
    ASSERT_TRUE(said.wait(60'000));
    ASSERT_EQ(said.last().first().toString(), "Wrote " + pdf);
    QProcess text;
    text.start("pdftotext", {pdf, "-"});
    ASSERT_TRUE(text.waitForFinished(60'000));
    EXPECT_TRUE(QString::fromUtf8(text.readAllStandardOutput()).simplified().contains("colour each GPU by its power (W)"));
}

TEST(ColourBy, ARunWithoutTelemetryOffersOnlyState) {
    faultline::Run run = test::tinyRun();
    run.telemetry = {};  // an import of logs alone
    WindowOn w(run);
    ASSERT_TRUE(w.shown);
    ASSERT_NE(w.menu(), nullptr);
    EXPECT_FALSE(w.menu()->isEnabled());
    EXPECT_EQ(w.menu()->entries(), QStringList({"State"}));
}

TEST(ColourBy, TheInspectorChartsThePickedGpusReadingsWithItsFailureAndStragglingMarked) {
    test::guiApp();
    const faultline::Run& run = test::telemetryTinyRun();
    const Failure& f = test::telemetryTestFailure(run);
    const std::int32_t gpu = f.gpus.front();
    const ReplayIndex replay(run);
    InspectorView inspector;
    inspector.resize(320, 700);
    inspector.show();
    inspector.setRun(std::shared_ptr<const faultline::Run>(std::shared_ptr<const faultline::Run>(), &run), &replay);
    inspector.setMetric(0);  // power
    inspector.setTime(90 * kMinute);
    inspector.showPart({ComponentKind::Gpu, gpu});
    GpuMetricChart* chart = inspector.metricChart();
    ASSERT_TRUE(chart->isVisible());
    EXPECT_EQ(chart->chart()->title(), "Power (W)");
    EXPECT_EQ(chart->emptyMessage(), "");
    ASSERT_GT(chart->readings()->count(), 10);
    // The readings are the GPU's own: each point the mean of its samples in a 10-minute bucket
    // (more samples than the chart draws: the finest summary that fits).
    const Nanos bucket = 10 * kMinute;
    for (const QPointF& p : chart->readings()->points()) {
        const std::int64_t b = (run.info.startEpochNs + chart->fromX(p.x())) / bucket;
        double sum = 0;
        int n = 0;
        for (std::int64_t k = 0; k * kMinute <= run.info.duration; ++k)
            if ((run.info.startEpochNs + k * kMinute) / bucket == b) sum += test::testPower(gpu, k), ++n;
        ASSERT_GT(n, 0) << "a point where the GPU has no samples";
        ASSERT_NEAR(p.y(), sum / n, 1e-3);
    }
    ASSERT_EQ(chart->failures()->count(), 1);
    EXPECT_NEAR(chart->failures()->at(0).x(), chart->toX(f.time), 1e-9);
    const QList<QPointF> band = chart->stragglers()->upperSeries()->points();
    ASSERT_EQ(band.size(), 4);
    const StragglerEpisode& e = *std::find_if(run.stragglers.begin(), run.stragglers.end(), [&](const StragglerEpisode& s) { return s.gpu == gpu && s.cause == "test"; });
    EXPECT_NEAR(band[0].x(), chart->toX(e.begin), 1e-9);
    EXPECT_NEAR(band[2].x(), chart->toX(e.end), 1e-9);
    // The "now" line reads the same number the 3D view colours the GPU by.
    const auto* now = inspector.findChild<QLabel*>("inspectorNow");
    EXPECT_TRUE(now->text().contains(QString("Power %1 W").arg(test::testPower(gpu, 90)))) << now->text().toStdString();

    // A GPU without readings says so instead of an empty plot.
    inspector.showPart({ComponentKind::Gpu, test::gpuWithoutTelemetry(run)});
    EXPECT_EQ(chart->emptyMessage(), "No Power readings for this GPU");
    EXPECT_TRUE(now->text().contains("Power no data")) << now->text().toStdString();
}

// A replay reads every GPU frame after frame, remembering where each one's reading was: going
// forward, back or jumping, it reads what a lookup of each GPU alone reads, and at a coarser
// level a bucket's mean.
TEST(ColourBy, ReadingsAtAnInstantAreTheNewestWithinTheLookbackWhicheverWayTheReplayMoves) {
    const faultline::Run& run = test::telemetryTinyRun();
    MetricAtInstant frames(run, 0);
    EXPECT_EQ(frames.bucket(), 0) << "raw samples while paused";
    std::vector<float> values;
    for (Nanos t : {Nanos(0), 30 * kSecond, kMinute, 61 * kSecond, 3 * kHour, 2 * kMinute, run.info.duration, run.info.duration + 4 * kMinute,
                    run.info.duration + 6 * kMinute}) {
        frames.valuesAt(t, values);
        for (std::int32_t g : {0, 7, 31, test::gpuWithoutTelemetry(run)}) {
            const float alone = frames.valueAt(g, t);
            EXPECT_TRUE(values[static_cast<std::size_t>(g)] == alone || (std::isnan(alone) && std::isnan(values[static_cast<std::size_t>(g)])))
                << "gpu " << g << " at " << t;
        }
    }
    EXPECT_FLOAT_EQ(frames.valueAt(7, 61 * kSecond), test::testPower(7, 1));
    EXPECT_TRUE(std::isnan(frames.valueAt(7, run.info.duration / kMinute * kMinute + 5 * kMinute))) << "older than the lookback";
    // Two minutes a frame: still the samples (finer than the finest summary); five hours a second
    // (ten minutes a frame): the 10-minute level, each bucket's mean.
    EXPECT_EQ(MetricAtInstant(run, 0, 2 * kMinute).bucket(), 0);
    const MetricAtInstant playing(run, 0, 10 * kMinute);
    EXPECT_EQ(playing.bucket(), 10 * kMinute);
    const std::int64_t b = (run.info.startEpochNs + 3 * kHour) / (10 * kMinute);
    float sum = 0;
    int n = 0;
    for (std::int64_t k = 0; k <= 4 * 60; ++k)
        if ((run.info.startEpochNs + k * kMinute) / (10 * kMinute) == b) sum += test::testPower(7, k), ++n;
    EXPECT_FLOAT_EQ(playing.valueAt(7, 3 * kHour), sum / static_cast<float>(n));
    // Its frames (rows laid out once) read what each GPU's lookup reads.
    MetricAtInstant rows(run, 0, 10 * kMinute);
    for (Nanos t : {Nanos(0), 3 * kHour, kHour + 7 * kMinute, run.info.duration + 9 * kMinute, run.info.duration + 11 * kMinute, -kHour}) {
        rows.valuesAt(t, values);
        for (std::int32_t g : {0, 7, test::gpuWithoutTelemetry(run)}) {
            const float alone = rows.valueAt(g, t);
            EXPECT_TRUE(values[static_cast<std::size_t>(g)] == alone || (std::isnan(alone) && std::isnan(values[static_cast<std::size_t>(g)])))
                << "gpu " << g << " at " << t << ": " << values[static_cast<std::size_t>(g)] << " vs " << alone;
        }
    }
    EXPECT_EQ(playing.dataMin(), test::testPower(0, 0));
    EXPECT_EQ(playing.dataMax(), test::testPower(31, 9));
}

TEST(ColourBy, NoDataFailuresAndFlashesStandApartFromEveryColourOfTheScaleInEitherPalette) {
    for (const StatePalette* palette : {&kStandardStates, &kOkabeItoStates}) {
        const std::vector<LegendEntry> marks = metricLegendEntries(*palette);
        ASSERT_GE(marks.size(), 2u);
        for (const LegendEntry& mark : marks) {
            if (mark.outline) continue;  // replaced hardware is an outline, not a fill
            for (int k = 0; k <= 20; ++k) {
                const Rgb c = scaleColourAt(palette->metric, k / 20.0);
                EXPECT_GE(colourDifference(mark.fill, c), 10) << mark.text << " vs the scale at " << k * 5 << "%";
            }
            for (const LegendEntry& other : marks)
                if (&other != &mark && !other.outline) {
                    EXPECT_GE(colourDifference(mark.fill, other.fill), 10) << mark.text << " vs " << other.text;
                }
        }
    }
}

// A fleet's jobs, as its reviewer meets them: View > Colour By offers Job, the Jobs panel
// lists every job the hardware ran (not only the pre-training one), and picking one moves the
// replay to its start and flies the camera until its hosts fill the view.
TEST(ColourBy, AFleetsJobsAreAColourAndAListAndPickingOneFramesItsHardware) {
    test::ManualAnimationClock clock;  // the flight ends when the test says, however busy the machine
    const faultline::Run& run = test::smallFleetRun();
    WindowOn w(run);
    ASSERT_TRUE(w.shown);
    FabricView* view = w.window.replayPanel()->fabricView();
    ASSERT_TRUE(w.menu()->entries().contains("Job"));
    ASSERT_TRUE(w.menu()->choose("Job"));
    EXPECT_EQ(view->colourBy(), kColourByJob);
    EXPECT_EQ(view->legend().title(), "Job holding the GPU");

    auto* jobs = w.window.findChild<JobsView*>("jobsView");
    ASSERT_NE(jobs, nullptr);
    EXPECT_EQ(jobs->rowCount(), static_cast<int>(run.jobs.size())) << "a fleet lists all its jobs";
    // A small job far from the first hall: framing it is a real move of the camera.
    int row = -1;
    for (int r = jobs->rowCount() - 1; r >= 0 && row < 0; --r) {
        const std::int32_t j = jobs->jobAt(r);
        const Job& job = run.jobs[static_cast<std::size_t>(j)];
        if (!job.inRun && job.hosts.size() == 1 && job.start) row = r;
    }
    ASSERT_GE(row, 0);
    const Job& job = run.jobs[static_cast<std::size_t>(jobs->jobAt(row))];
    const ComponentRef host{ComponentKind::Host, job.hosts.front()};

    auto* table = jobs->findChild<QTableWidget*>("jobsTable");
    ASSERT_NE(table, nullptr);
    w.window.findChild<QDockWidget*>("jobsDock")->raise();
    table->scrollToItem(table->item(row, 0));
    QApplication::processEvents();
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualItemRect(table->item(row, 0)).center());
    EXPECT_EQ(w.window.replayPanel()->time(), *job.start) << "the replay moves to the job's start";
    EXPECT_TRUE(view->flying());
    clock.advanceBy(100);    // the flight takes off
    clock.advanceBy(5'000);  // and is past its end
    EXPECT_FALSE(view->flying());
    view->renderImage();

    // Framed: the host is on screen, well inside the view, and drawn large.
    const QSize size = view->renderWidget()->size();
    const QPointF at = view->positionOf(host);
    EXPECT_GT(at.x(), size.width() * 0.2);
    EXPECT_LT(at.x(), size.width() * 0.8);
    EXPECT_GT(at.y(), size.height() * 0.2);
    EXPECT_LT(at.y(), size.height() * 0.8);
    const auto gpus = run.topology.gpusOfHost(job.hosts.front());
    ASSERT_GE(gpus.size(), 2u);
    const QPointF first = view->gpuPosition(gpus.front()), last = view->gpuPosition(gpus.back());
    EXPECT_GT(std::hypot(first.x() - last.x(), first.y() - last.y()), size.width() * 0.05)
        << "its GPUs stand apart, not a speck of a far hall";
}

}  // namespace
}  // namespace faultline
