// View > Viewpoints as a reviewer uses it: a camera saved under a name (or with
// Ctrl+Shift+N), still there when the run is opened again, flown back to with the menu or
// Ctrl+N; renamed and deleted; one saved on another cluster refused with a message.
#include "gui_test_app.h"
#include "open_in_window.h"
#include "test_runs.h"

#include "app/main_window.h"
#include "app/viewpoint_menu.h"
#include "model/run_file.h"
#include "model/viewpoints.h"
#include "views/fabric/fabric_view.h"
#include "views/replay_panel.h"

#include <QAction>
#include <QScreen>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTest>

#include <gtest/gtest.h>

#include <cmath>

namespace faultline {
namespace {

using test::ScratchDir;

double gap(const std::array<double, 3>& a, const std::array<double, 3>& b) {
    return std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
}

struct OpenWindow : test::WindowOnRun {
    explicit OpenWindow(const std::string& runFile) : WindowOnRun(runFile, {1400, 900}) {
        ok = shown && QTest::qWaitForWindowExposed(&window);
        view = window.replayPanel()->fabricView();
        menu = window.findChild<ViewpointMenu*>("viewpointsMenu");
        view->renderImage();
    }
    QAction* goAction(const QString& name) const {
        for (QAction* a : menu->actions())
            if (a->objectName() == "viewpointAction" && a->data().toString() == name) return a;
        return nullptr;
    }
    bool ok = false;
    FabricView* view = nullptr;
    ViewpointMenu* menu = nullptr;
};

TEST(Viewpoints, ASavedCameraIsThereWhenTheRunIsOpenedAgainAndFlownBackTo) {
    test::guiApp();
    ScratchDir dir;
    const std::string path = dir.file("tiny.faultline");
    writeRunFile(test::tinyRun(), path);
    CameraPose saved, second;
    {
        OpenWindow first(path);
        ASSERT_TRUE(first.ok);
        ASSERT_NE(first.menu, nullptr);
        first.view->zoomTo({ComponentKind::Gpu, 17});
        saved = first.view->cameraPose();
        ASSERT_TRUE(first.menu->saveAs("Rack of gpu 17"));
        EXPECT_TRUE(first.window.statusBar()->currentMessage().contains("Rack of gpu 17"));
        // Ctrl+Shift+2 saves the camera as the second viewpoint, named for it.
        first.view->topView();
        second = first.view->cameraPose();
        first.window.activateWindow();
        ASSERT_TRUE(QTest::qWaitForWindowActive(&first.window));
        QTest::keyClick(&first.window, Qt::Key_2, Qt::ControlModifier | Qt::ShiftModifier);
        EXPECT_EQ(first.menu->names(), (QStringList{"Rack of gpu 17", "Viewpoint 2"}));
    }
    OpenWindow again(path);
    ASSERT_TRUE(again.ok);
    EXPECT_EQ(again.menu->names(), (QStringList{"Rack of gpu 17", "Viewpoint 2"})) << "they belong to the run, in its review file";
    QAction* go = again.goAction("Rack of gpu 17");
    ASSERT_NE(go, nullptr) << "listed in View > Viewpoints";
    EXPECT_EQ(go->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_1));
    if (const QByteArray shots = qgetenv("FAULTLINE_TEST_SHOTS"); !shots.isEmpty()) {
        again.menu->popup(again.window.mapToGlobal(QPoint(420, 60)));
        QTest::qWait(300);
        again.window.screen()->grabWindow(0).save(shots + "/viewpoints-menu.png");
        again.menu->hide();
    }
    ASSERT_GT(gap(again.view->cameraPose().position, saved.position), 1.0) << "the run opens on the whole cluster";
    go->trigger();
    EXPECT_TRUE(again.view->flying()) << "flown to, the same flight as an incident's";
    QTRY_VERIFY_WITH_TIMEOUT(!again.view->flying(), 5000);
    const double scale = gap(saved.position, saved.focal);
    EXPECT_LT(gap(again.view->cameraPose().position, saved.position), 1e-6 * scale);
    EXPECT_LT(gap(again.view->cameraPose().focal, saved.focal), 1e-6 * scale);
    EXPECT_LT(gap(again.view->cameraPose().up, saved.up), 1e-6);
    EXPECT_NEAR(again.view->cameraPose().viewAngle, saved.viewAngle, 1e-9);

    // Ctrl+2 goes to the second.
    again.window.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&again.window));
    QTest::keyClick(&again.window, Qt::Key_2, Qt::ControlModifier);
    QTRY_VERIFY_WITH_TIMEOUT(!again.view->flying() && gap(again.view->cameraPose().position, second.position) < 1e-6 * scale, 5000);

    // Renamed and deleted, in the menu at once.
    ASSERT_TRUE(again.menu->renameViewpoint("Viewpoint 2", "From the top"));
    EXPECT_NE(again.goAction("From the top"), nullptr);
    EXPECT_FALSE(again.menu->renameViewpoint("From the top", "Rack of gpu 17")) << "a name in use";
    EXPECT_TRUE(again.window.statusBar()->currentMessage().contains("already a viewpoint")) << again.window.statusBar()->currentMessage().toStdString();
    ASSERT_TRUE(again.menu->deleteViewpoint("Rack of gpu 17"));
    EXPECT_EQ(again.menu->names(), QStringList{"From the top"});
    EXPECT_EQ(again.goAction("From the top")->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_1)) << "the first is Ctrl+1";
}

TEST(Viewpoints, OneSavedOnAnotherClusterIsRefusedWithAMessage) {
    test::guiApp();
    ScratchDir dir;
    const std::string path = dir.file("tiny.faultline");
    writeRunFile(test::tinyRun(), path);
    Viewpoint alien;
    alien.name = "Big hall";
    alien.position = {1, 2, 3};
    alien.focal = {4, 5, 6};
    alien.topology = stampOf(buildFabric(FabricShape{.gpus = 1024}));
    ViewpointStore(path).save(alien);
    OpenWindow open(path);
    ASSERT_TRUE(open.ok);
    const CameraPose before = open.view->cameraPose();
    EXPECT_FALSE(open.menu->goTo("Big hall"));
    EXPECT_FALSE(open.view->flying());
    EXPECT_LT(gap(open.view->cameraPose().position, before.position), 1e-9) << "the camera stays";
    const std::string message = open.window.statusBar()->currentMessage().toStdString();
    EXPECT_NE(message.find("does not fit this run"), std::string::npos) << message;
    EXPECT_NE(message.find("1024 GPUs"), std::string::npos) << message;
    EXPECT_FALSE(open.menu->goToSlot(5));
    EXPECT_TRUE(open.window.statusBar()->currentMessage().contains("no viewpoint 5"));
}

}  // namespace
}  // namespace faultline
