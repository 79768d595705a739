// A camera flight gives way to the user: a wheel, a drag or a camera key during a flight
// stops it at once, and the camera stays where the user put it, never pulled back on by the
// flight's next frames.
#include "manual_animation_clock.h"
#include "shown_fabric.h"
#include "test_runs.h"

#include "views/fabric/camera_pose.h"
#include "widgets/vtk_render_widget.h"

#include <QMouseEvent>
#include <QWheelEvent>

#include <vtkCamera.h>
#include <vtkRenderer.h>

#include <gtest/gtest.h>

#include <cmath>

namespace faultline {
namespace {

double gap(const std::array<double, 3>& a, const std::array<double, 3>& b) {
    return std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
}

// Starts a flight from the whole cluster to the first GPU's rack and lets it run a while.
CameraPose startFlight(test::ShownFabric& shown, test::ManualAnimationClock& clock) {
    FabricView& view = shown.view();
    view.fitAll();
    view.renderImage();
    view.zoomTo({ComponentKind::Gpu, 0});
    const CameraPose end = view.cameraPose();
    view.fitAll();
    view.flyTo([&view] { view.zoomTo({ComponentKind::Gpu, 0}); }, 1500);
    EXPECT_TRUE(view.flying());
    clock.advanceBy(300);  // part of the way
    EXPECT_TRUE(view.flying());
    return end;
}

TEST(CameraFlight, TheWheelStopsAFlightAndTheCameraStaysWhereTheUserPutIt) {
    test::ManualAnimationClock clock;
    test::ShownFabric shown(test::tinyRun());
    ASSERT_TRUE(shown.exposed());
    const CameraPose end = startFlight(shown, clock);
    FabricView& view = shown.view();
    VtkRenderWidget* render = view.renderWidget();
    const QPointF at(render->width() * 0.3, render->height() * 0.6);
    QWheelEvent wheel(at, render->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(render, &wheel);
    EXPECT_FALSE(view.flying()) << "the wheel stops the flight at once";
    const CameraPose user = view.cameraPose();
    clock.advanceBy(1800);  // past the flight's planned end
    view.renderImage();
    EXPECT_FALSE(view.flying());
    EXPECT_LT(gap(view.cameraPose().position, user.position), 1e-9) << "no later frame of the flight moved the camera";
    EXPECT_LT(gap(view.cameraPose().focal, user.focal), 1e-9);
    EXPECT_GT(gap(view.cameraPose().position, end.position), 1.0) << "the camera never reached the flight's end";
}

TEST(CameraFlight, ADragOrbitsFromWhereTheFlightWasAndStopsIt) {
    test::ManualAnimationClock clock;
    test::ShownFabric shown(test::tinyRun());
    ASSERT_TRUE(shown.exposed());
    FabricView& view = shown.view();
    view.select({ComponentKind::Gpu, 0});  // a drag orbits about the selection
    const CameraPose end = startFlight(shown, clock);
    VtkRenderWidget* render = view.renderWidget();
    const QPointF from(render->width() / 2.0, render->height() / 2.0);
    auto send = [&](QEvent::Type type, QPointF p, Qt::MouseButton button, Qt::MouseButtons buttons) {
        QMouseEvent event(type, p, render->mapToGlobal(p), button, buttons, Qt::NoModifier);
        QApplication::sendEvent(render, &event);
    };
    const CameraPose midFlight = view.cameraPose();
    send(QEvent::MouseButtonPress, from, Qt::LeftButton, Qt::LeftButton);
    send(QEvent::MouseMove, from + QPointF(80, 0), Qt::NoButton, Qt::LeftButton);
    EXPECT_FALSE(view.flying()) << "the drag stops the flight";
    const CameraPose user = view.cameraPose();
    // The orbit turned the camera about the selection from where the flight had got to
    // (its distance to the focal point kept), not from the flight's start or end.
    EXPECT_NEAR(gap(user.position, user.focal), gap(midFlight.position, midFlight.focal), 1e-6 * gap(midFlight.position, midFlight.focal) + 0.05);
    send(QEvent::MouseButtonRelease, from + QPointF(80, 0), Qt::LeftButton, Qt::NoButton);
    clock.advanceBy(1800);
    view.renderImage();
    EXPECT_LT(gap(view.cameraPose().position, user.position), 1e-9);
    EXPECT_GT(gap(view.cameraPose().position, end.position), 1.0);
}

TEST(CameraFlight, ACameraKeyDuringAFlightWinsOverIt) {
    test::ManualAnimationClock clock;
    test::ShownFabric shown(test::tinyRun());
    ASSERT_TRUE(shown.exposed());
    FabricView& view = shown.view();
    startFlight(shown, clock);
    // Arrow keys in the view tilt the camera; T (a preset, as Home and F) looks from the top.
    VtkRenderWidget* render = view.renderWidget();
    QKeyEvent up(QEvent::KeyPress, Qt::Key_Up, Qt::NoModifier);
    QApplication::sendEvent(render, &up);
    EXPECT_FALSE(view.flying()) << "a key that moves the camera stops the flight";
    const CameraPose tilted = view.cameraPose();
    clock.advanceBy(400);
    EXPECT_LT(gap(view.cameraPose().position, tilted.position), 1e-9);

    startFlight(shown, clock);
    view.topView();
    const CameraPose top = view.cameraPose();
    EXPECT_FALSE(view.flying());
    clock.advanceBy(1800);
    view.renderImage();
    EXPECT_LT(gap(view.cameraPose().position, top.position), 1e-9) << "the top view stays: the flight does not pull the camera back";
    EXPECT_TRUE(view.keepsFramed());
}

}  // namespace
}  // namespace faultline
