// Opening a second run while the first is coloured by a metric (or by job) with a GPU found in
// the inspector: the reviewer's paths that aborted the app (std::length_error) before the
// inspector let go of the old run's replay index first. By File > Open and by Open Recent.
#include "gui_test_app.h"
#include "open_in_window.h"
#include "telemetry_test_run.h"
#include "test_runs.h"

#include "app/colour_by_menu.h"
#include "app/main_window.h"
#include "model/run_file.h"
#include "views/fabric/fabric_view.h"
#include "views/inspector_view.h"
#include "views/replay_panel.h"

#include <QAction>
#include <QLineEdit>
#include <QMenu>
#include <QSignalSpy>
#include <QTest>

#include <gtest/gtest.h>

namespace faultline {
namespace {

// The first run shown, coloured by `colourBy`, with a GPU searched for by name and Enter.
struct FirstRunWithAGpuFound {
    FirstRunWithAGpuFound(const Run& run, const QString& colourBy) {
        test::guiApp();
        writeRunFile(run, dir.file("first.faultline"));
        writeRunFile(test::tinyRun(), dir.file("second.faultline"));
        window.resize(1400, 900);
        window.show();
        if (!test::openAndWait(window, dir.file("first.faultline"))) return;
        auto* menu = window.findChild<ColourByMenu*>("colourByMenu");
        if (!menu || !menu->choose(colourBy)) return;
        InspectorView* inspector = window.replayPanel()->inspector();
        auto* find = inspector->findChild<QLineEdit*>();
        if (!find) return;
        gpu = QString::fromStdString(run.topology.gpuName(static_cast<std::int32_t>(run.topology.gpus.size() / 2)));
        find->setFocus();
        find->setText(gpu);
        QTest::keyClick(find, Qt::Key_Return);
        ready = inspector->part().kind == ComponentKind::Gpu && window.replayPanel()->fabricView()->colourBy().has_value();
    }
    // Where the second run now shows: nothing of the first kept.
    void expectTheSecondRunShownAfresh() {
        ASSERT_NE(window.currentRun(), nullptr);
        EXPECT_EQ(window.currentRun()->path.toStdString(), dir.file("second.faultline"));
        EXPECT_FALSE(window.replayPanel()->fabricView()->colourBy().has_value()) << "a new run starts coloured by state";
        EXPECT_EQ(window.replayPanel()->inspector()->part().kind, ComponentKind::None);
        // And the inspector works on the new run: its first GPU is found.
        const QString first = QString::fromStdString(test::tinyRun().topology.gpuName(0));
        EXPECT_TRUE(window.replayPanel()->inspector()->searchFor(first));
    }
    bool appReady = (test::guiApp(), true);  // before any widget
    test::ScratchDir dir;
    MainWindow window;
    QString gpu;
    bool ready = false;
};

TEST(OpenAnotherRun, ColouredByPowerWithAGpuFoundTheNextRunOpens) {
    FirstRunWithAGpuFound w(test::telemetryTinyRun(), "Power (W)");
    ASSERT_TRUE(w.ready) << "Power (W) chosen and " << w.gpu.toStdString() << " found";
    ASSERT_TRUE(test::openAndWait(w.window, w.dir.file("second.faultline")));
    w.expectTheSecondRunShownAfresh();
}

TEST(OpenAnotherRun, AFleetColouredByJobWithAGpuFoundTheNextRunOpens) {
    FirstRunWithAGpuFound w(test::smallFleetRun(), "Job");
    ASSERT_TRUE(w.ready) << "Job chosen and " << w.gpu.toStdString() << " found";
    ASSERT_TRUE(test::openAndWait(w.window, w.dir.file("second.faultline")));
    w.expectTheSecondRunShownAfresh();
}

TEST(OpenAnotherRun, ColouredByPowerWithAGpuFoundARecentRunOpens) {
    FirstRunWithAGpuFound w(test::telemetryTinyRun(), "Power (W)");
    ASSERT_TRUE(w.ready);
    // The second run opened once before, then the first again: File > Open Recent lists both.
    ASSERT_TRUE(test::openAndWait(w.window, w.dir.file("second.faultline")));
    ASSERT_TRUE(test::openAndWait(w.window, w.dir.file("first.faultline")));
    ASSERT_TRUE(w.window.findChild<ColourByMenu*>("colourByMenu")->choose("Power (W)"));
    ASSERT_TRUE(w.window.replayPanel()->inspector()->searchFor(w.gpu));

    auto* recent = w.window.findChild<QMenu*>("openRecentMenu");
    ASSERT_NE(recent, nullptr);
    emit recent->aboutToShow();  // filled as it opens
    QAction* second = nullptr;
    for (QAction* a : recent->actions())
        if (a->toolTip() == QString::fromStdString(w.dir.file("second.faultline"))) second = a;
    ASSERT_NE(second, nullptr) << "Open Recent lists the second run by its full path";
    QSignalSpy shown(&w.window, &MainWindow::runShown);
    second->trigger();
    ASSERT_TRUE(shown.wait(60'000));
    w.expectTheSecondRunShownAfresh();
}

// A crash log of one instant, then a run of days: the charts' axes go from a range of a
// nanosecond to one of days without freezing the window (it froze laying out twenty billion
// ticks of the old interval), and the second run is shown.
TEST(OpenAnotherRun, ARunOfOneInstantThenARunOfDaysOpens) {
    test::guiApp();
    test::ScratchDir dir;
    writeRunFile(test::oneInstantCrash(), dir.file("crash.faultline"));
    writeRunFile(test::tinyRun(), dir.file("days.faultline"));
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    ASSERT_TRUE(test::openAndWait(window, dir.file("crash.faultline")));
    ASSERT_TRUE(test::openAndWait(window, dir.file("days.faultline")));
    ASSERT_NE(window.currentRun(), nullptr);
    EXPECT_EQ(window.currentRun()->path.toStdString(), dir.file("days.faultline"));
}

}  // namespace
}  // namespace faultline
