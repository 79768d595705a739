#include "gui_test_app.h"
#include "open_in_window.h"
#include "test_runs.h"

#include "app/main_window.h"
#include "app/theme.h"
#include "analysis/blast_radius.h"
#include "analysis/incidents.h"
#include "views/fabric/fabric_view.h"
#include "views/incident_view.h"
#include "views/inspector_view.h"
#include "views/jobs_view.h"
#include "views/replay_panel.h"
#include "views/timeline_view.h"
#include "model/format.h"
#include "model/run_file.h"
#include "analysis/summary.h"
#include "widgets/stat_tile.h"

#include <QApplication>
#include <QDockWidget>
#include <QLabel>
#include <QProgressBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTableWidget>
#include <QTreeWidget>
#include <QTest>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace faultline {
namespace {

using test::ScratchDir;

QString tileValue(const QWidget& window, const char* tile) {
    auto* t = window.findChild<StatTile*>(tile);
    return t ? t->value() : QString("<no tile %1>").arg(tile);
}

TEST(MainWindow, ShowsTheSummaryOfTheRunItOpens) {
    test::guiApp();
    ScratchDir dir;
    const std::string path = dir.file("tiny.faultline");
    writeRunFile(test::tinyRun(), path);
    const RunSummary expected = summarize(test::tinyRun());

    MainWindow window;
    window.show();
    QSignalSpy shown(&window, &MainWindow::runShown);
    window.openRun(QString::fromStdString(path));
    EXPECT_TRUE(window.findChild<QProgressBar*>("openProgress")->isVisible()) << "opening shows that it is busy";
    ASSERT_TRUE(shown.wait(20'000));
    EXPECT_FALSE(window.findChild<QProgressBar*>("openProgress")->isVisible());

    EXPECT_TRUE(window.findChild<QWidget*>("summaryView")->isVisible());
    EXPECT_EQ(tileValue(window, "ettrTile"), QString::fromStdString(formatPercent(expected.ettr)));
    EXPECT_EQ(tileValue(window, "interruptionsTile"), QString::number(expected.planned + expected.unexpected));
    EXPECT_EQ(tileValue(window, "mtbfTile"), QString::fromStdString(formatDuration(expected.mtbf)));
    EXPECT_EQ(window.findChild<QLabel*>("runTitle")->text(), "tiny (seed 7)");
    EXPECT_EQ(window.windowTitle(), QString("tiny (seed 7) — Faultline"));

    auto* causes = window.findChild<QTableWidget*>("causesTable");
    ASSERT_EQ(causes->rowCount(), static_cast<int>(expected.causes.size()));
    EXPECT_EQ(causes->item(0, 0)->text().toStdString(), rootCauseLabel(expected.causes[0].cause));
    EXPECT_EQ(causes->item(0, 2)->text(), QString::number(expected.causes[0].count));
}

TEST(MainWindow, OpeningAndReviewingLeavesTheRunFileChecksumUnchanged) {
    test::guiApp();
    ScratchDir dir;
    const std::string path = dir.file("evidence.faultline");
    writeRunFile(test::tinyRun(), path);
    std::filesystem::permissions(path, std::filesystem::perms::owner_read | std::filesystem::perms::group_read);
    const std::string checksum = test::fileChecksum(path);
    {
        test::WindowOnRun w(path);
        ASSERT_TRUE(w.shown);
        MainWindow& window = w.window;
        const QString status = window.statusBar()->currentMessage();
        // The review file by name: a whole path cut the status line short at 1280x720.
        EXPECT_TRUE(status.contains(QString::fromStdString(std::filesystem::path(path).filename().string() + "-review"))) << status.toStdString();
        window.replayPanel()->setTime(test::tinyRun().info.duration / 2);
        auto* incidents = window.findChild<IncidentView*>("incidentView");
        ASSERT_TRUE(incidents->selectIncident(1));
        QApplication::processEvents();
    }
    EXPECT_EQ(test::fileChecksum(path), checksum) << "viewing changed the run file";
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), std::filesystem::directory_iterator()), 1)
        << "viewing left files beside the run";
}

TEST(MainWindow, BadFileIsReportedNotShown) {
    test::guiApp();
    ScratchDir dir;
    const std::string path = dir.file("garbage.faultline");
    std::ofstream(path) << "this is not a run";

    MainWindow window;
    window.show();
    QSignalSpy failed(&window, &MainWindow::runFailed);
    window.openRun(QString::fromStdString(path));
    ASSERT_TRUE(failed.wait(10'000));
    const QString expected = QString::fromStdString(path + " is not a Faultline run file (expected an SQLite database)");
    EXPECT_EQ(failed.at(0).at(0).toString(), expected);
    EXPECT_EQ(window.statusBar()->currentMessage(), expected);
    EXPECT_EQ(window.findChild<QLabel*>("placeholder")->text(), expected);
    EXPECT_EQ(window.currentRun(), nullptr);
}

TEST(MainWindow, NewerRequestWins) {
    test::guiApp();
    ScratchDir dir;
    const std::string first = dir.file("first.faultline");
    faultline::Run second = test::tinyRun();
    second.info.name = "second";
    writeRunFile(test::tinyRun(), first);
    writeRunFile(second, dir.file("second.faultline"));

    MainWindow window;
    QSignalSpy shown(&window, &MainWindow::runShown);
    window.openRun(QString::fromStdString(first));
    window.openRun(QString::fromStdString(dir.file("second.faultline")));
    ASSERT_TRUE(shown.wait(20'000));
    while (window.isLoading()) QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    EXPECT_EQ(shown.count(), 1);
    EXPECT_EQ(window.currentRun()->summary.name, "second");
}

}  // namespace
}  // namespace faultline

namespace faultline {
namespace {

using test::ScratchDir;

// Panels the user hid or moved, and the theme, come back at the next start.
TEST(MainWindow, LayoutAndThemeAreRemembered) {
    test::guiApp();
    ScratchDir dir;
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, QString::fromStdString(dir.path().string()));
    QSettings().clear();
    {
        MainWindow window;
        window.show();
        window.findChild<QDockWidget*>("incidentsDock")->hide();
        QSettings().setValue("theme", "dark");
        window.close();
    }
    MainWindow again;
    again.restoreLayout();
    again.show();
    EXPECT_FALSE(again.findChild<QDockWidget*>("incidentsDock")->isVisible());
    EXPECT_TRUE(again.findChild<QDockWidget*>("chartsDock")->isVisible() || again.findChild<QDockWidget*>("summaryDock")->isVisible());
    EXPECT_LT(QApplication::palette().color(QPalette::Window).lightness(), 100);  // dark
    applyTheme(Theme::Light);
    EXPECT_GT(QApplication::palette().color(QPalette::Window).lightness(), 150);
    QSettings().clear();
}

}  // namespace
}  // namespace faultline

namespace faultline {
namespace {

// Selecting an incident moves the replay, the timeline and the 3D camera to it.
TEST(MainWindow, SelectingAnIncidentMovesEveryView) {
    test::WindowOnRun w(test::tinyRun(), {1400, 900});
    ASSERT_TRUE(w.shown);
    MainWindow& window = w.window;

    const auto incidents = buildIncidents(test::tinyRun());
    auto firstWithGpu = std::find_if(incidents.begin(), incidents.end(), [](const Incident& i) { return !i.gpus.empty(); });
    ASSERT_NE(firstWithGpu, incidents.end());
    ASSERT_TRUE(window.findChild<IncidentView*>()->selectIncident(firstWithGpu->id));
    EXPECT_EQ(window.findChild<ReplayPanel*>()->time(), firstWithGpu->begin);
    auto* timeline = window.findChild<TimelineView*>();
    EXPECT_LE(timeline->visibleBegin(), firstWithGpu->begin);
    EXPECT_GE(timeline->visibleEnd(), firstWithGpu->begin);
    EXPECT_LE(timeline->visibleEnd() - timeline->visibleBegin(), 2 * kHour);
    // The hardware that failed: a host, switch or cable itself (with its blast radius), else the GPU.
    const ComponentRef failed = failedPart(test::tinyRun(), *firstWithGpu);
    const ComponentRef expected = failed.kind == ComponentKind::Gpu || failed.kind == ComponentKind::None
                                      ? ComponentRef{ComponentKind::Gpu, firstWithGpu->gpus.front()}
                                      : failed;
    EXPECT_EQ(window.findChild<FabricView*>()->selected(), expected);
    EXPECT_EQ(window.replayPanel()->inspector()->part(), expected) << "the inspector follows the incident";
}

// N walks the incidents of the list: the replay, the review pane and the 3D view name the
// same one; a click on the selected row after playing away goes back to it.
TEST(MainWindow, NextIncidentNamesOneIncidentEverywhere) {
    test::WindowOnRun w(test::tinyRun(), {1400, 900});
    ASSERT_TRUE(w.shown);
    MainWindow& window = w.window;
    auto* incidents = window.findChild<IncidentView*>();
    EXPECT_EQ(incidents->selectedIncidentId(), -1) << "nothing is selected until asked";
    const auto all = buildIncidents(test::tinyRun());
    ReplayPanel* replay = window.replayPanel();
    replay->setTime(0);
    int walked = 0;
    for (const Incident& expected : all) {
        replay->jump(ReplayControls::Jump::NextIncident);
        ASSERT_EQ(replay->time(), expected.begin);
        EXPECT_EQ(incidents->selectedIncidentId(), expected.id) << "the review pane names another incident";
        EXPECT_TRUE(window.findChild<QLabel*>("incidentHeadline")->text().startsWith(QString("Incident %1:").arg(expected.id)));
        if (!expected.gpus.empty()) {
            const ComponentRef failed = failedPart(test::tinyRun(), expected);
            const ComponentRef part = failed.kind == ComponentKind::Gpu || failed.kind == ComponentKind::None
                                          ? ComponentRef{ComponentKind::Gpu, expected.gpus.front()}
                                          : failed;
            EXPECT_EQ(window.findChild<FabricView*>()->selected(), part) << "the 3D view is on another incident";
        }
        if (++walked == 4) break;
    }
    ASSERT_EQ(walked, 4);

    // Play away, then click the selected row again: the replay goes back to it.
    const int id = incidents->selectedIncidentId();
    const Nanos begin = replay->time();
    replay->setTime(begin + kHour);
    auto* table = window.findChild<QTableView*>("incidentTable");
    QModelIndex row;
    for (int r = 0; r < table->model()->rowCount() && !row.isValid(); ++r)
        if (table->model()->index(r, 0).data().toInt() == id) row = table->model()->index(r, 1);
    ASSERT_TRUE(row.isValid());
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(row).center());
    EXPECT_EQ(replay->time(), begin);
}

// A GPU that failed by itself: the flight to it is labelled with its name, as a switch's is.
TEST(MainWindow, AFailedGpuIncidentIsLabelledInTheView) {
    const faultline::Run& run = test::tinyRun();
    test::WindowOnRun w(run, {1400, 900});
    ASSERT_TRUE(w.shown);
    MainWindow& window = w.window;

    const auto incidents = buildIncidents(run);
    const auto gpuFailure = std::find_if(incidents.begin(), incidents.end(),
                                         [&](const Incident& i) { return failedPart(run, i).kind == ComponentKind::Gpu; });
    ASSERT_NE(gpuFailure, incidents.end());
    const ComponentRef gpu = failedPart(run, *gpuFailure);
    ASSERT_TRUE(window.findChild<IncidentView*>()->selectIncident(gpuFailure->id));
    auto* view = window.findChild<FabricView*>();
    EXPECT_EQ(view->selected(), gpu);
    EXPECT_EQ(view->blastLabel().toStdString(), run.topology.gpuName(gpu.index) + " failed");
    // Once the replay has passed its repair the GPU is no longer labelled failed; back at the
    // failure, it is again.
    ASSERT_TRUE(gpuFailure->end.has_value());
    ReplayPanel* replay = window.replayPanel();
    replay->setTime(*gpuFailure->end + kMinute);
    view->renderImage();
    EXPECT_TRUE(view->blastLabel().isEmpty()) << "after the repair: " << view->blastLabel().toStdString();
    replay->setTime(gpuFailure->begin);
    view->renderImage();
    EXPECT_EQ(view->blastLabel().toStdString(), run.topology.gpuName(gpu.index) + " failed");
    // An incident with no hardware leaves no label behind.
    const auto unplaced = std::find_if(incidents.begin(), incidents.end(), [&](const Incident& i) {
        return failedPart(run, i).kind == ComponentKind::None && i.gpus.empty();
    });
    if (unplaced != incidents.end()) {
        ASSERT_TRUE(window.findChild<IncidentView*>()->selectIncident(unplaced->id));
        EXPECT_TRUE(view->blastLabel().isEmpty()) << view->blastLabel().toStdString();
    }
}

// An incident whose rack switch failed: the view shows and frames its blast radius, and the
// inspector names the switch and lists what it cut off.
TEST(MainWindow, SelectingAFailedSwitchIncidentShowsItsBlastRadiusInTheInspector) {
    const faultline::Run& run = test::rackSwitchFailureRun();
    test::WindowOnRun w(run, {1400, 900});
    ASSERT_TRUE(w.shown);
    MainWindow& window = w.window;

    const Failure& failure = test::rackSwitchFailure(run);
    const auto incidents = buildIncidents(run);
    const auto incident = std::find_if(incidents.begin(), incidents.end(), [&](const Incident& i) {
        return i.failure >= 0 && run.failures[static_cast<std::size_t>(i.failure)].component == failure.component;
    });
    ASSERT_NE(incident, incidents.end());
    ASSERT_TRUE(window.findChild<IncidentView*>()->selectIncident(incident->id));
    auto* view = window.findChild<FabricView*>();
    EXPECT_EQ(view->selected(), failure.component);
    EXPECT_EQ(view->blastRadiusShown().gpus.size(), 16u);
    // The camera flies to the whole scope: at the end of the flight the switch and every GPU
    // it cut off are on screen, and the scope fills a good part of it.
    EXPECT_TRUE(view->flying());
    QTRY_VERIFY_WITH_TIMEOUT(!view->flying(), 5000);
    const QRectF frame(QPointF(0, 0), QSizeF(view->size()));
    QRectF scope(view->positionOf(failure.component), QSizeF(0, 0));
    for (std::int32_t g : view->blastRadiusShown().gpus) {
        const QPointF at = view->gpuPosition(g);
        EXPECT_TRUE(frame.contains(at)) << "GPU " << g << " cut off but out of the frame";
        scope = scope.united(QRectF(at, QSizeF(1, 1)));
    }
    EXPECT_TRUE(frame.contains(view->positionOf(failure.component)));
    // (a tenth: the frame keeps room above the path up for the top switches' names)
    EXPECT_GT(scope.width(), frame.width() / 10) << "framed, not a speck";

    const std::string sw = run.topology.switches[static_cast<std::size_t>(failure.component.index)].name;
    EXPECT_EQ(window.findChild<QLabel*>("inspectorTitle")->text().toStdString(), sw) << "the inspector follows the incident";
    auto* blast = window.findChild<QLabel*>("inspectorBlastRadius");
    ASSERT_NE(blast, nullptr);
    EXPECT_TRUE(blast->isVisible());
    const std::string text = blast->text().toStdString();
    const std::string rack = run.topology.racks[static_cast<std::size_t>(run.topology.switches[static_cast<std::size_t>(failure.component.index)].rack)].name;
    EXPECT_NE(text.find("cuts off 16 GPUs (1 whole rack)"), std::string::npos) << text;
    EXPECT_NE(text.find("racks: " + rack), std::string::npos) << text;
    EXPECT_NE(text.find("path up"), std::string::npos) << text;
    QApplication::processEvents();
    if (const QByteArray shots = qgetenv("FAULTLINE_TEST_SHOTS"); !shots.isEmpty()) window.grab().save(shots + "/blast_radius_window.png");

    // A GPU picked afterwards has no blast radius to list, and the view drops the old one.
    view->select({ComponentKind::Gpu, 0});
    window.replayPanel()->inspector()->showPart({ComponentKind::Gpu, 0});
    EXPECT_FALSE(blast->isVisible());
    EXPECT_TRUE(view->blastRadiusShown().gpus.empty());
}

// The Jobs panel lists the jobs of the run opened; a job picked moves the replay to its start.
TEST(MainWindow, JobsPanelListsTheRunsJobsAndMovesTheReplay) {
    faultline::Run run = test::tinyRun();
    Job first;
    first.id = "7001";
    first.name = "tiny-train";
    first.state = "NODE_FAIL";
    first.start = 0;
    first.end = run.info.duration / 2;
    first.inRun = true;
    Job second = first;
    second.id = "7002";
    second.state = "COMPLETED";
    second.start = run.info.duration / 2 + kHour;
    second.end = run.info.duration;
    run.jobs = {first, second};

    test::WindowOnRun w(run, {1400, 900});
    ASSERT_TRUE(w.shown);
    MainWindow& window = w.window;
    auto* dock = window.findChild<QDockWidget*>("jobsDock");
    ASSERT_NE(dock, nullptr);
    dock->raise();
    auto* jobs = window.findChild<JobsView*>();
    ASSERT_EQ(jobs->rowCount(), 2);
    auto* table = jobs->findChild<QTableWidget*>("jobsTable");
    EXPECT_EQ(table->item(1, 0)->text(), "7002");
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualItemRect(table->item(1, 0)).center());
    EXPECT_EQ(window.findChild<ReplayPanel*>()->time(), *second.start);
}

}  // namespace
}  // namespace faultline

namespace faultline {
namespace {

TEST(MainWindow, RepeatOffendersShowTheirPartInTheViewAndTheirFailuresOnTheClock) {
    // The tiny run with its second failure moved onto the first one's GPU: that GPU, its host
    // and its rack failed twice.
    faultline::Run run = test::tinyRun();
    std::vector<std::size_t> onGpus;
    for (std::size_t i = 0; i < run.failures.size(); ++i)
        if (run.failures[i].component.kind == ComponentKind::Gpu) onGpus.push_back(i);
    ASSERT_GE(onGpus.size(), 2u);
    Failure& first = run.failures[onGpus[0]];
    Failure& again = run.failures[onGpus[1]];
    again.component = first.component;
    again.gpus = first.gpus;

    test::WindowOnRun w(run, {1600, 1000});
    ASSERT_TRUE(w.shown);
    MainWindow& window = w.window;
    auto* tree = window.findChild<QTreeWidget*>("repeatOffenders");
    ASSERT_NE(tree, nullptr);
    ASSERT_GE(tree->topLevelItemCount(), 1);
    // The GPU's row: its name, two failures, and each failure below it.
    QTreeWidgetItem* gpuRow = nullptr;
    const QString gpuName = QString::fromStdString(run.topology.gpuName(first.component.index));
    for (int i = 0; i < tree->topLevelItemCount(); ++i)
        if (tree->topLevelItem(i)->text(0) == "GPU " + gpuName) gpuRow = tree->topLevelItem(i);
    ASSERT_NE(gpuRow, nullptr);
    EXPECT_EQ(gpuRow->text(1), "2");
    ASSERT_EQ(gpuRow->childCount(), 2);
    window.findChild<QDockWidget*>("repeatOffendersDock")->raise();

    emit tree->itemClicked(gpuRow, 0);
    EXPECT_EQ(window.replayPanel()->inspector()->part(), first.component);
    EXPECT_EQ(window.replayPanel()->fabricView()->selected(), first.component);
    emit tree->itemClicked(gpuRow->child(1), 0);
    EXPECT_EQ(window.replayPanel()->time(), again.time);
}

}  // namespace
}  // namespace faultline
