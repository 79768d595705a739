// The comparison's two 3D views on a short screen: at 1280x720 they were 132-155 px high
// under 280 px of charts, their legends' text shrunk to 9 px against the main window's 14.
// They take most of the height (the figures and charts a tab each beside them, one click
// away) and their legends read as large as the main window's at that size; on a 1920x1080
// screen views and charts stay together.
#include "gui_test_app.h"
#include "open_in_window.h"
#include "test_runs.h"

#include "app/compare_window.h"
#include "views/replay_panel.h"
#include "model/run_file.h"
#include "simulator/simulator.h"
#include "views/fabric/fabric_view.h"
#include "views/fabric/scene_legend.h"
#include "widgets/vtk_render_widget.h"

#include <QApplication>
#include <QTabWidget>
#include <QTest>

#include <gtest/gtest.h>

#include <cmath>

namespace faultline {
namespace {

// The legend's first line of text as drawn, in device pixels.
double legendTextHeight(FabricView& view) {
    view.renderImage();
    const ScreenRect text = view.legend().textRect(0);
    return text.y1 - text.y0;
}

// The main window's legend text at 1280x720, the size the comparison's must reach.
double mainWindowLegendText() {
    test::WindowOnRun w(test::tinyRun(), QSize(1280, 720), "tiny.faultline");
    EXPECT_TRUE(w.shown);
    FabricView* view = w.window.replayPanel()->fabricView();
    EXPECT_TRUE(QTest::qWaitForWindowExposed(view->renderWidget()->surfaceWindow()));
    QApplication::processEvents();
    return legendTextHeight(*view);
}

struct SeedPair {
    test::ScratchDir dir;
    QString a = QString::fromStdString(dir.file("seed1.faultline"));
    QString b = QString::fromStdString(dir.file("seed2.faultline"));
    SeedPair() {
        // As `faultline-cli simulate --preset tiny --seed 1` and `--seed 2` write them.
        SimulationParams p = simulationPreset("tiny");
        p.seed = 1;
        writeRunFile(simulate(p), a.toStdString());
        p.seed = 2;
        writeRunFile(simulate(p), b.toStdString());
    }
};

TEST(CompareViews, OnA1280x720ScreenTheViewsTakeMostOfTheHeightAndTheirLegendsReadAsTheMainWindows) {
    test::guiApp();
    const double mainText = mainWindowLegendText();
    ASSERT_GT(mainText, 0);
    SeedPair runs;
    const QSize onSmallScreen = comparisonWindowGeometry(QRect(0, 0, 1280, 720)).size() - QSize(0, 24);  // less the title bar
    for (const QSize size : {onSmallScreen, QSize(1280, 720)}) {
        // Opened at that size, as the app opens it on such a screen.
        CompareWindow window;
        window.resize(size);
        window.showComparison(loadComparison(runs.a, runs.b));
        window.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
        QApplication::processEvents();
        const std::string at = std::to_string(size.width()) + "x" + std::to_string(size.height());
        for (FabricView* view : {window.viewA(), window.viewB()}) {
            EXPECT_TRUE(view->isVisible()) << at << ": the views are shown first";
            EXPECT_GE(view->height(), window.height() * 0.35) << at << ": " << view->objectName().toStdString() << " is " << view->height()
                                                              << " of " << window.height() << " px high";
            // Whole pixels: the same font measures a hundredth apart from one view to another.
            EXPECT_GE(std::round(legendTextHeight(*view)), std::round(mainText)) << at << ": " << view->objectName().toStdString() << "'s legend text against the main window's";
        }
        // Every chart and the figures one click away: a tab each beside the views.
        auto* charts = window.findChild<QTabWidget*>("comparisonCharts");
        ASSERT_NE(charts, nullptr);
        QStringList tabs;
        for (int tab = 0; tab < charts->count(); ++tab) tabs << charts->tabText(tab);
        for (const char* name : {"3D Views", "Figures", "GPU-hours lost", "Root causes", "ETTR", "Step time", "Downtime"})
            EXPECT_TRUE(tabs.contains(name)) << at << ": " << name << " not in " << tabs.join(", ").toStdString();
        charts->setCurrentIndex(tabs.indexOf("ETTR"));
        QApplication::processEvents();
        EXPECT_GE(charts->currentWidget()->height(), 280) << at << ": a chart keeps its reading size";
        EXPECT_FALSE(window.viewA()->isVisible()) << at;
        charts->setCurrentIndex(tabs.indexOf("3D Views"));
        QApplication::processEvents();
        EXPECT_TRUE(window.viewA()->isVisible()) << at;
    }
}

// On a 1920x1080 screen there is room for both: the views over the figures and the charts,
// still the larger share; grown to it from a short window, the views come out of their tab.
TEST(CompareViews, OnA1920x1080ScreenTheViewsSitOverTheCharts) {
    test::guiApp();
    SeedPair runs;
    CompareWindow window;
    window.resize(1177, 638);
    window.showComparison(loadComparison(runs.a, runs.b));
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    window.resize(comparisonWindowGeometry(QRect(0, 0, 1920, 1050)).size() - QSize(0, 24));
    QApplication::processEvents();
    auto* charts = window.findChild<QTabWidget*>("comparisonCharts");
    ASSERT_NE(charts, nullptr);
    EXPECT_TRUE(QTest::qWaitFor([&] { return charts->isVisible() && window.viewA()->isVisible() && window.viewB()->isVisible(); }, 30'000));
    for (int tab = 0; tab < charts->count(); ++tab) EXPECT_NE(charts->tabText(tab), "3D Views");
    for (FabricView* view : {window.viewA(), window.viewB()})
        EXPECT_GE(view->height(), window.height() * 0.35) << view->objectName().toStdString() << " is " << view->height() << " of " << window.height();
    EXPECT_GT(window.viewA()->height(), charts->height());
}

}  // namespace
}  // namespace faultline
