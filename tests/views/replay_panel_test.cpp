// The replay panel as a user drives it: buttons, scrubber, clicks on the fabric, search.
#include "gui_test_app.h"
#include "test_runs.h"

#include "model/format.h"
#include "views/fabric/fabric_view.h"
#include "views/replay_panel.h"
#include "widgets/time_scrubber.h"
#include "widgets/vtk_render_widget.h"

#include <QApplication>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QTest>
#include <QToolButton>

#include <QMouseEvent>
#include <QWheelEvent>

#include <vtkCamera.h>
#include <vtkRenderer.h>

#include <gtest/gtest.h>

#include <array>
#include <cmath>

namespace faultline {
namespace {

class ShownPanel {
public:
    explicit ShownPanel(const faultline::Run& run) {
        m_panel.resize(1400, 900);
        m_panel.setRun(std::shared_ptr<const faultline::Run>(std::shared_ptr<const faultline::Run>(), &run));
        m_panel.show();
        m_exposed = QTest::qWaitForWindowExposed(&m_panel);
    }
    bool exposed() const { return m_exposed; }
    ReplayPanel& panel() { return m_panel; }
    template <typename T>
    T* child(const char* name) {
        T* c = m_panel.findChild<T*>(name);
        if (!c) ADD_FAILURE() << "no child named " << name;
        return c;
    }
    void click(const char* button) { QTest::mouseClick(child<QToolButton>(button), Qt::LeftButton); }

private:
    bool m_appReady = (test::guiApp(), true);
    ReplayPanel m_panel;
    bool m_exposed = false;
};

TEST(ReplayPanel, NextIncidentJumpsToTheInterruptionAndTheStatusLineNamesIt) {
    const faultline::Run& run = test::tinyRun();
    ShownPanel shown(run);
    ASSERT_TRUE(shown.exposed());
    shown.click("nextIncident");
    const Downtime& first = run.downtimes.front();
    EXPECT_EQ(shown.panel().time(), first.begin);
    const QString status = shown.child<QLabel>("replayStatus")->text();
    EXPECT_TRUE(status.startsWith(QString::fromStdString(formatWallTime(run.info.startEpochNs, first.begin)))) << status.toStdString();
    EXPECT_TRUE(status.contains("down: ")) << status.toStdString();
    shown.click("nextIncident");
    EXPECT_EQ(shown.panel().time(), run.downtimes[1].begin);
    shown.click("previousIncident");
    EXPECT_EQ(shown.panel().time(), first.begin);
}

// In a small window the status line ends in an ellipsis inside the panel, the whole line its
// tooltip; wide again, it is whole.
TEST(ReplayPanel, ANarrowStatusLineIsElidedNotCutMidWord) {
    const faultline::Run& run = test::tinyRun();
    ShownPanel shown(run);
    ASSERT_TRUE(shown.exposed());
    shown.click("nextIncident");
    const QString full = shown.panel().statusText();
    auto* status = shown.child<QLabel>("replayStatus");
    ASSERT_EQ(status->text(), full);
    shown.panel().resize(420, 700);
    QApplication::processEvents();
    ASSERT_LT(status->width(), status->fontMetrics().horizontalAdvance(full));
    EXPECT_TRUE(status->text().endsWith(QChar(0x2026))) << status->text().toStdString();
    EXPECT_LE(status->fontMetrics().horizontalAdvance(status->text()), status->contentsRect().width());
    EXPECT_EQ(status->toolTip(), full);
    shown.panel().resize(1400, 900);
    QApplication::processEvents();
    EXPECT_EQ(status->text(), full);
    EXPECT_TRUE(status->toolTip().isEmpty());
}

TEST(ReplayPanel, StepButtonsMoveOneTrainingStep) {
    const faultline::Run& run = test::tinyRun();
    ShownPanel shown(run);
    ASSERT_TRUE(shown.exposed());
    shown.panel().setTime(run.steps[100].time);
    shown.click("nextStep");
    EXPECT_EQ(shown.panel().time(), run.steps[101].time);
    shown.click("previousStep");
    shown.click("previousStep");
    EXPECT_EQ(shown.panel().time(), run.steps[99].time);
    shown.click("nextEvent");
    EXPECT_GT(shown.panel().time(), run.steps[99].time);
}

TEST(ReplayPanel, PlayAdvancesTheReplayAndPauseStopsIt) {
    const faultline::Run& run = test::tinyRun();
    ShownPanel shown(run);
    ASSERT_TRUE(shown.exposed());
    shown.click("playPause");
    EXPECT_TRUE(shown.panel().isPlaying());
    // However busy the machine, the replay moves once the event loop runs.
    EXPECT_TRUE(QTest::qWaitFor([&] { return shown.panel().time() > 0; }, 30000));
    shown.click("playPause");
    EXPECT_FALSE(shown.panel().isPlaying());
    const Nanos paused = shown.panel().time();
    EXPECT_GT(paused, 0);  // an hour a second by default: well past the start
    QTest::qWait(100);
    EXPECT_EQ(shown.panel().time(), paused);
}

TEST(ReplayPanel, ClickingTheScrubberMovesTheInstant) {
    const faultline::Run& run = test::tinyRun();
    ShownPanel shown(run);
    ASSERT_TRUE(shown.exposed());
    auto* scrubber = shown.child<TimeScrubber>("timeScrubber");
    QTest::mouseClick(scrubber, Qt::LeftButton, {}, QPoint(scrubber->xOf(run.info.duration / 2), scrubber->height() / 2));
    EXPECT_NEAR(static_cast<double>(shown.panel().time()), static_cast<double>(run.info.duration / 2),
                0.01 * static_cast<double>(run.info.duration));
}

TEST(ReplayPanel, ClickingAGpuShowsItInTheInspector) {
    const faultline::Run& run = test::tinyRun();
    const Failure& f = run.failures.front();
    ASSERT_FALSE(f.gpus.empty());
    const std::int32_t gpu = f.gpus.front();
    ShownPanel shown(run);
    ASSERT_TRUE(shown.exposed());
    // Before a click: a hint, not an empty list.
    auto* history = shown.child<QListWidget>("inspectorHistory");
    EXPECT_FALSE(history->isVisible());
    EXPECT_FALSE(shown.child<QLabel>("inspectorDetails")->text().isEmpty());
    FabricView* view = shown.panel().fabricView();
    view->renderImage();  // the camera is fitted at the first frame
    VtkRenderWidget* render = view->renderWidget();
    const QPoint at = render->mapFrom(view, view->gpuPosition(gpu).toPoint());
    render->setFocus();  // the view already has the focus: a click picks
    QTest::mouseClick(render, Qt::LeftButton, {}, at);
    EXPECT_EQ(view->selected(), (ComponentRef{ComponentKind::Gpu, gpu}));
    EXPECT_EQ(shown.child<QLabel>("inspectorTitle")->text().toStdString(), run.topology.gpuName(gpu));
    const QString details = shown.child<QLabel>("inspectorDetails")->text();
    EXPECT_TRUE(details.contains(QString::fromStdString(run.topology.gpus[static_cast<std::size_t>(gpu)].pciBusId))) << details.toStdString();
    shown.panel().setTime(f.time);
    // Its state first; the simulated run's telemetry adds the GPU's last power reading after it.
    EXPECT_TRUE(shown.child<QLabel>("inspectorNow")->text().startsWith("Now: failed")) << shown.child<QLabel>("inspectorNow")->text().toStdString();
    shown.panel().setTime(f.time - kMinute);
    EXPECT_FALSE(shown.child<QLabel>("inspectorNow")->text().contains("failed")) << shown.child<QLabel>("inspectorNow")->text().toStdString();
    EXPECT_TRUE(history->isVisible());
    ASSERT_GE(history->count(), 1);
    EXPECT_TRUE(history->item(0)->text().contains(QString::fromStdString(std::string(rootCauseLabel(f.cause))))) << history->item(0)->text().toStdString();
}

TEST(ReplayPanel, FindingAHostByNameSelectsIt) {
    const faultline::Run& run = test::tinyRun();
    ShownPanel shown(run);
    ASSERT_TRUE(shown.exposed());
    auto* find = shown.child<QLineEdit>("findPart");
    QTest::keyClicks(find, "r0003-h1");
    QTest::keyClick(find, Qt::Key_Return);
    EXPECT_EQ(shown.panel().fabricView()->selected(), (ComponentRef{ComponentKind::Host, *run.topology.findHost("r0003-h1")}));
    EXPECT_EQ(shown.child<QLabel>("inspectorTitle")->text(), "r0003-h1");

    find->clear();
    QTest::keyClicks(find, "r0003-h1-gpu9");
    QTest::keyClick(find, Qt::Key_Return);
    EXPECT_TRUE(shown.child<QLabel>("inspectorTitle")->text().startsWith("Nothing named")) << shown.child<QLabel>("inspectorTitle")->text().toStdString();
}

std::array<double, 3> cameraPosition(FabricView* view) {
    std::array<double, 3> p{};
    view->renderWidget()->renderer()->GetActiveCamera()->GetPosition(p.data());
    return p;
}

TEST(ReplayPanel, MouseWheelAndKeysMoveTheCameraAndSpacePlays) {
    const faultline::Run& run = test::tinyRun();
    ShownPanel shown(run);
    ASSERT_TRUE(shown.exposed());
    FabricView* view = shown.panel().fabricView();
    view->renderImage();
    VtkRenderWidget* render = view->renderWidget();
    const QPointF centre(render->width() / 2.0, render->height() / 2.0);

    auto before = cameraPosition(view);
    auto send = [&](QEvent::Type type, QPointF at, Qt::MouseButton button, Qt::MouseButtons buttons) {
        QMouseEvent event(type, at, render->mapToGlobal(at), button, buttons, Qt::NoModifier);
        QApplication::sendEvent(render, &event);
    };
    send(QEvent::MouseButtonPress, centre, Qt::LeftButton, Qt::LeftButton);
    send(QEvent::MouseMove, centre + QPointF(120, 40), Qt::NoButton, Qt::LeftButton);
    send(QEvent::MouseButtonRelease, centre + QPointF(120, 40), Qt::LeftButton, Qt::NoButton);
    EXPECT_NE(cameraPosition(view), before) << "a left drag orbits";
    EXPECT_EQ(view->selected().kind, ComponentKind::None) << "a drag is not a click";

    before = cameraPosition(view);
    const double distance = view->renderWidget()->renderer()->GetActiveCamera()->GetDistance();
    QWheelEvent wheel(centre, render->mapToGlobal(centre), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(render, &wheel);
    EXPECT_LT(view->renderWidget()->renderer()->GetActiveCamera()->GetDistance(), distance) << "the wheel zooms in";

    before = cameraPosition(view);
    shown.panel().activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&shown.panel()));  // keys go to the focus
    render->setFocus();
    QTest::keyClick(render, Qt::Key_Left, Qt::ShiftModifier);
    EXPECT_NE(cameraPosition(view), before) << "shift+arrow keys turn";
    QTest::keyClick(render, Qt::Key_Up);
    before = cameraPosition(view);
    QTest::keyClick(render, Qt::Key_Down);
    EXPECT_NE(cameraPosition(view), before) << "up and down tilt";

    // Plain left and right step through training steps.
    const Nanos beforeStep = shown.panel().time();
    QTest::keyClick(render, Qt::Key_Right);
    QTest::keyClick(render, Qt::Key_Right);
    EXPECT_GT(shown.panel().time(), beforeStep) << "right steps forward";
    const Nanos afterStep = shown.panel().time();
    QTest::keyClick(render, Qt::Key_Left);
    EXPECT_LT(shown.panel().time(), afterStep) << "left steps back";

    QTest::keyClick(render, Qt::Key_Space);
    EXPECT_TRUE(shown.panel().isPlaying());
    QTest::keyClick(render, Qt::Key_Space);
    EXPECT_FALSE(shown.panel().isPlaying());

    // The user moved the camera; Home frames the whole cluster again, and keeps it framed.
    EXPECT_FALSE(view->keepsFramed());
    QTest::keyClick(render, Qt::Key_Home);
    EXPECT_TRUE(view->keepsFramed());
}

// The first click into the view while another panel has the keyboard focus only focuses
// it; the next one picks.
TEST(ReplayPanel, AClickThatOnlyFocusesTheViewSelectsNothing) {
    const faultline::Run& run = test::tinyRun();
    const std::int32_t gpu = run.failures.front().gpus.front();
    ShownPanel shown(run);
    ASSERT_TRUE(shown.exposed());
    FabricView* view = shown.panel().fabricView();
    view->renderImage();
    VtkRenderWidget* render = view->renderWidget();
    shown.child<QLineEdit>("findPart")->setFocus();
    const QPoint at = render->mapFrom(view, view->gpuPosition(gpu).toPoint());
    QTest::mouseClick(render, Qt::LeftButton, {}, at);
    EXPECT_EQ(view->selected().kind, ComponentKind::None) << "the click that focused the view picked a GPU";
    EXPECT_EQ(shown.panel().window()->focusWidget(), render) << "it took the focus";
    QTest::mouseClick(render, Qt::LeftButton, {}, at);
    EXPECT_EQ(view->selected(), (ComponentRef{ComponentKind::Gpu, gpu}));
}

std::array<double, 3> focalPoint(FabricView* view) {
    std::array<double, 3> f{};
    view->renderWidget()->renderer()->GetActiveCamera()->GetFocalPoint(f.data());
    return f;
}

double distance(const std::array<double, 3>& a, const std::array<double, 3>& b) {
    return std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
}

// The wheel zooms towards the cursor: what is under it stays under it, the focal point moves
// towards it, and the view comes nearer.
TEST(ReplayPanel, WheelZoomsTowardsTheCursor) {
    const faultline::Run& run = test::tinyRun();
    ShownPanel shown(run);
    ASSERT_TRUE(shown.exposed());
    FabricView* view = shown.panel().fabricView();
    view->renderImage();
    VtkRenderWidget* render = view->renderWidget();
    vtkRenderer* renderer = render->renderer();
    // A GPU off to the side of the view, and the point under it on the focal plane.
    const std::int32_t gpu = run.failures.front().gpus.front();
    const QPointF cursor = render->mapFrom(view, view->gpuPosition(gpu));
    const auto focalBefore = focalPoint(view);
    const double distanceBefore = renderer->GetActiveCamera()->GetDistance();
    renderer->SetWorldPoint(focalBefore[0], focalBefore[1], focalBefore[2], 1.0);
    renderer->WorldToDisplay();
    const double depth = renderer->GetDisplayPoint()[2];
    const QPoint pixel = render->toVtkPixel(cursor);
    renderer->SetDisplayPoint(pixel.x(), pixel.y(), depth);
    renderer->DisplayToWorld();
    const double* w = renderer->GetWorldPoint();
    const std::array<double, 3> under{w[0] / w[3], w[1] / w[3], w[2] / w[3]};

    QWheelEvent wheel(cursor, render->mapToGlobal(cursor), QPoint(), QPoint(0, 240), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(render, &wheel);
    EXPECT_LT(renderer->GetActiveCamera()->GetDistance(), distanceBefore * 0.8) << "two notches zoom in";
    EXPECT_LT(distance(focalPoint(view), under), 0.8 * distance(focalBefore, under)) << "the focal point moves towards the cursor";
    renderer->SetWorldPoint(under[0], under[1], under[2], 1.0);
    renderer->WorldToDisplay();
    EXPECT_NEAR(renderer->GetDisplayPoint()[0], pixel.x(), 2.0) << "what was under the cursor stays there";
    EXPECT_NEAR(renderer->GetDisplayPoint()[1], pixel.y(), 2.0);
}

// With a part selected, a left drag turns the camera about it: it stays where it is on
// screen while the rest of the hall turns.
TEST(ReplayPanel, ADragOrbitsAboutTheSelection) {
    const faultline::Run& run = test::tinyRun();
    ShownPanel shown(run);
    ASSERT_TRUE(shown.exposed());
    FabricView* view = shown.panel().fabricView();
    view->renderImage();
    VtkRenderWidget* render = view->renderWidget();
    render->setFocus();
    // A GPU: small enough that the front of it, where positionOf points, is near its centre.
    const ComponentRef part{ComponentKind::Gpu, run.failures.front().gpus.front()};
    view->select(part);
    const QPointF before = view->positionOf(part);
    std::array<double, 3> eye{};
    render->renderer()->GetActiveCamera()->GetPosition(eye.data());
    auto send = [&](QEvent::Type type, QPointF at, Qt::MouseButton button, Qt::MouseButtons buttons) {
        QMouseEvent event(type, at, render->mapToGlobal(at), button, buttons, Qt::NoModifier);
        QApplication::sendEvent(render, &event);
    };
    const QPointF from(render->width() * 0.3, render->height() * 0.6);
    send(QEvent::MouseButtonPress, from, Qt::LeftButton, Qt::LeftButton);
    send(QEvent::MouseMove, from + QPointF(150, -30), Qt::NoButton, Qt::LeftButton);
    send(QEvent::MouseButtonRelease, from + QPointF(150, -30), Qt::LeftButton, Qt::NoButton);
    std::array<double, 3> eyeAfter{};
    render->renderer()->GetActiveCamera()->GetPosition(eyeAfter.data());
    EXPECT_GT(distance(eye, eyeAfter), 1.0) << "the camera turned";
    const QPointF after = view->positionOf(part);
    EXPECT_NEAR(after.x(), before.x(), 6.0) << "the selected GPU stays put on screen";
    EXPECT_NEAR(after.y(), before.y(), 6.0);
    EXPECT_EQ(view->selected(), part) << "a drag is not a click";
}

}  // namespace
}  // namespace faultline
