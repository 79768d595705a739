// No text cut short in any window or exported panel, at 1280x720 and 1920x1080, and at
// 3840x2160 drawn at twice the scale (the app_scale2 ctest entry runs this suite again with
// QT_SCALE_FACTOR=2 on a 3840x2160 screen: the same windows at 1920x1080 of logical pixels,
// every text twice as many pixels high). What counts as cut is cut_texts.h's.
#include "cut_texts.h"
#include "gui_test_app.h"
#include "open_in_window.h"
#include "realdata.h"
#include "test_runs.h"

#include "analysis/run_comparison.h"
#include "app/compare_window.h"
#include "app/hang_window.h"
#include "app/help_windows.h"
#include "app/import_dialog.h"
#include "app/main_window.h"
#include "importers/importer.h"
#include "app/panel_snapshot.h"
#include "app/presenter_notes.h"
#include "app/prometheus_dialog.h"
#include "app/what_if_dialog.h"
#include "exports/report_content.h"
#include "exports/report_figures.h"
#include "model/run_file.h"
#include "simulator/simulator.h"
#include "views/hang_view.h"
#include "views/incident_view.h"
#include "views/run_loader.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QScreen>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

#include <gtest/gtest.h>

namespace faultline {
namespace {

// The window sizes, in the logical pixels Qt lays out in: on a screen at twice the scale,
// 1920x1080 of them fill 3840x2160.
std::vector<QSize> sizes() {
    if (QGuiApplication::primaryScreen()->devicePixelRatio() >= 2) return {QSize(1920, 1080)};
    return {QSize(1280, 720), QSize(1920, 1080)};
}

std::string at(QSize size) {
    const double scale = QGuiApplication::primaryScreen()->devicePixelRatio();
    return std::to_string(static_cast<int>(size.width() * scale)) + "x" + std::to_string(static_cast<int>(size.height() * scale));
}

void settle() {
    for (int i = 0; i < 3; ++i) QApplication::processEvents();
}

void expectNothingCut(const QWidget& window, const std::string& where) {
    const QStringList cut = test::cutTexts(window);
    EXPECT_TRUE(cut.isEmpty()) << where << ": " << cut.join(" | ").toStdString();
}

TEST(CutText, TheMainWindowWithEachPanelRaised) {
    test::WindowOnRun w(test::tinyRun());
    ASSERT_TRUE(w.shown);
    // An incident under review, as a reviewer has it: its chain, notes and checks shown.
    QTest::keyClick(&w.window, Qt::Key_N);
    for (const QSize size : sizes()) {
        w.window.resize(size);
        w.window.findChild<QAction*>("resetLayoutAction")->trigger();
        settle();
        for (const char* dockName : {"summaryDock", "chartsDock", "incidentsDock", "timelineDock", "jobsDock", "repeatOffendersDock"}) {
            auto* dock = w.window.findChild<QDockWidget*>(dockName);
            ASSERT_NE(dock, nullptr) << dockName;
            dock->raise();
            settle();
            expectNothingCut(w.window, at(size) + ", " + dockName);
        }
    }
}

// Rows of the list a user sees whole.
int wholeRows(const QTableView& table) {
    int rows = 0;
    for (int row = 0; row < table.model()->rowCount(); ++row)
        if (table.rowViewportPosition(row) >= 0 && table.rowViewportPosition(row) + table.rowHeight(row) <= table.viewport()->height()) ++rows;
    return rows;
}

// At 1280x720 the incident list once showed two incidents, even after View > Reset Layout;
// and the status line was cut mid-word.
TEST(CutText, ASmallWindowListsFourIncidentsAfterResetLayout) {
    if (QGuiApplication::primaryScreen()->devicePixelRatio() >= 2) GTEST_SKIP() << "sized in the pixels of a screen at scale 1";
    test::WindowOnRun w(test::tinyRun(), QSize(1280, 720));
    ASSERT_TRUE(w.shown);
    w.window.findChild<QAction*>("resetLayoutAction")->trigger();
    auto* table = w.window.findChild<QTableView*>("incidentTable");
    ASSERT_NE(table, nullptr);
    ASSERT_GE(table->model()->rowCount(), 4);
    EXPECT_TRUE(QTest::qWaitFor([&] { return wholeRows(*table) >= 4; }, 10'000)) << wholeRows(*table) << " incidents listed whole";
    w.window.findChild<QAction*>("resetLayoutAction")->trigger();
    settle();
    w.window.statusBar()->showMessage(QString("Opened run.faultline. ") + w.window.findChild<IncidentView*>("incidentView")->notesStatus());
    expectNothingCut(w.window, "1280x720 after Reset Layout");
}

TEST(CutText, TheComparisonWindowWithEachChart) {
    test::guiApp();
    test::ScratchDir dir;
    const std::string a = dir.file("a.faultline"), b = dir.file("b.faultline");
    writeRunFile(test::tinyRun(), a);
    SimulationParams p = simulationPreset("tiny");
    p.fabric.gpus = 512;
    p.days = 0.5;
    p.seed = 3;
    writeRunFile(simulate(p), b);
    CompareWindow window;
    window.showComparison(loadComparison(QString::fromStdString(a), QString::fromStdString(b)));
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    auto* charts = window.findChild<QTabWidget*>("comparisonCharts");
    ASSERT_NE(charts, nullptr);
    for (const QSize size : sizes()) {
        window.resize(size);
        for (int tab = 0; tab < charts->count(); ++tab) {
            charts->setCurrentIndex(tab);
            settle();
            expectNothingCut(window, at(size) + ", " + charts->tabText(tab).toStdString());
        }
    }
}

// View > Hang on the real Flight Recorder dumps of a job rank 12 hung: the headline, the
// origin and the lanes' ruler whole at every size.
TEST(CutText, TheHangWindow) {
    FAULTLINE_REQUIRE_REALDATA();
    test::guiApp();
    test::ScratchDir dir;
    const std::string path = dir.file("fr.faultline");
    importToRunFile({test::realData("flight_recorder/nvidia-resiliency-ext/tests/attribution/unit/fr_traces/gpu_error_1st")}, path, {});
    test::WindowOnRun w(path);
    ASSERT_TRUE(w.shown);
    auto* action = w.window.findChild<QAction*>("hangAction");
    ASSERT_NE(action, nullptr);
    ASSERT_TRUE(action->isEnabled()) << "the run holds a hang";
    action->trigger();
    auto* hang = w.window.findChild<HangWindow*>("hangWindow");
    ASSERT_NE(hang, nullptr);
    ASSERT_TRUE(QTest::qWaitForWindowExposed(hang));
    for (const QSize size : sizes()) {
        hang->resize(size);
        settle();
        expectNothingCut(*hang, at(size));
        // The ruler's time labels: every one whole inside the view, none over another.
        const auto labels = hang->view()->rulerLabels();
        EXPECT_FALSE(labels.empty()) << at(size);
        for (std::size_t i = 0; i < labels.size(); ++i) {
            EXPECT_LE(labels[i].box.right(), hang->view()->width()) << at(size) << ": " << labels[i].text.toStdString();
            if (i > 0) {
                EXPECT_FALSE(labels[i].box.intersects(labels[i - 1].box)) << at(size) << ": " << labels[i].text.toStdString();
            }
        }
    }
}

// The panels `faultline --screenshot --view` writes, as they are drawn for it: at the size
// asked, or larger where the panel needs it (snapshotSize). The charts panel's "..." items were
// the power chart's day ticks and axis title, elided by Qt Charts when the chart, 170 px high,
// left its plot 40 px; the panel drawn at less than its minimum cut the chart off as well.
TEST(CutText, EveryExportedPanel) {
    test::guiApp();
    test::ScratchDir dir;
    const std::string path = dir.file("tiny.faultline");
    writeRunFile(test::tinyRun(), path);
    const auto loaded = loadRun(QString::fromStdString(path));
    const Nanos t = test::tinyRun().failures.front().time + 30 * kMinute;
    for (const QString& view : kPanelViews)
        for (const QSize size : sizes()) {
            std::unique_ptr<QWidget> panel = makeSnapshotPanel(view, loaded, t);
            panel->resize(snapshotSize(*panel, size));
            panel->show();
            ASSERT_TRUE(QTest::qWaitForWindowExposed(panel.get()));
            settle();
            expectNothingCut(*panel, view.toStdString() + " at " + at(size));
        }
}

// The report's charts, as its pages show them (the PDF and HTML report draw these panels at
// their figure's size): the 16,384-GPU preset's twelve days and the tiny run.
TEST(CutText, EveryChartOfTheReport) {
    test::guiApp();
    SimulationParams p = simulationPreset("llama3-405b");
    p.days = 12;
    p.telemetry.interval = 0;
    for (const auto& run : {std::make_shared<const faultline::Run>(test::tinyRun()), std::make_shared<const faultline::Run>(simulate(p))}) {
        const ReportContent content = buildReportContent(run, {}, 3);
        int drawn = 0;
        forEachReportChart(content, [&](QWidget* panel, const QString& title, QSize) {
            if (!panel) return true;
            ++drawn;
            expectNothingCut(*panel, run->info.name + ", " + title.toStdString());
            return true;
        });
        EXPECT_GE(drawn, 6) << run->info.name;
    }
}


// The app's dialogs and its other windows, as they open: Import, Import from Prometheus,
// What If, the presenter's notes on an incident's slide, About and Keyboard Shortcuts.
TEST(CutText, EveryDialogAsItOpens) {
    test::guiApp();
    test::ScratchDir dir;
    const std::string path = dir.file("tiny.faultline");
    writeRunFile(test::tinyRun(), path);
    const auto content = std::make_shared<const ReportContent>(buildReportContent(std::make_shared<const faultline::Run>(test::tinyRun()), {}, 3));
    ASSERT_FALSE(content->selected.empty());
    MainWindow main;
    auto notes = std::make_unique<PresenterNotes>(content);
    notes->showSlide(2, 5, 0, "Incident 2");
    std::vector<std::pair<std::string, std::unique_ptr<QWidget>>> windows;
    windows.emplace_back("Import", std::make_unique<ImportDialog>());
    windows.emplace_back("Import from Prometheus", std::make_unique<PrometheusDialog>());
    windows.emplace_back("What If", std::make_unique<WhatIfDialog>(QString::fromStdString(path)));
    windows.emplace_back("Presenter notes", std::move(notes));
    windows.emplace_back("About", std::make_unique<AboutDialog>());
    windows.emplace_back("Keyboard Shortcuts", std::make_unique<ShortcutsWindow>(main));
    for (auto& [name, window] : windows) {
        window->show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(window.get())) << name;
        settle();
        expectNothingCut(*window, name + " at " + at(window->size()));
        window->close();
    }
}
}  // namespace
}  // namespace faultline
