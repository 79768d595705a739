// The fabric view rendered for real (under Xvfb, Mesa llvmpipe): the colour drawn where a
// GPU is, at instants whose state the run decides.
#include "shown_fabric.h"
#include "test_runs.h"

#include "model/replay_state.h"
#include "views/fabric/fabric_layout.h"
#include "views/gpu_palette.h"
#include "widgets/vtk_render_widget.h"

#include <QScreen>
#include <QSignalSpy>
#include <QWheelEvent>

#include <vtkRenderer.h>

#include <gtest/gtest.h>

namespace faultline {
namespace {

using test::colourAt;
using test::near;
using test::colourName;
using test::drawnAs;

// The first failure of the tiny run that took out exactly one GPU.
const Failure& singleGpuFailure(const faultline::Run& run) {
    for (const Failure& f : run.failures)
        if (f.component.kind == ComponentKind::Gpu && f.gpus.size() == 1) return f;
    throw std::runtime_error("the tiny run has no single-GPU failure");
}

TEST(FabricRender, FailedGpuIsRedWhereItIsDrawnAndNotAMinuteBefore) {
    const faultline::Run& run = test::tinyRun();
    const Failure& f = singleGpuFailure(run);
    test::ShownFabric shown(run);
    ASSERT_TRUE(shown.exposed());
    const QImage at = shown.renderAt(f.time);
    const QImage before = shown.renderAt(f.time - kMinute);
    const QPointF p = shown.view().gpuPosition(f.gpus.front());
    ASSERT_TRUE(QRectF(QPointF(0, 0), QSizeF(shown.view().size())).contains(p));
    EXPECT_TRUE(drawnAs(at, p, kFailedColour)) << colourName(at, p);
    EXPECT_FALSE(drawnAs(before, p, kFailedColour, 60)) << colourName(before, p);
    EXPECT_TRUE(drawnAs(before, p, kTrainingColour)) << colourName(before, p);
}

TEST(FabricRender, EveryOtherGpuGoesDarkWhileTheJobIsDownAndBlueWhileItReloads) {
    const faultline::Run& run = test::tinyRun();
    const Failure& f = singleGpuFailure(run);
    const Downtime& d = *std::find_if(run.downtimes.begin(), run.downtimes.end(), [&](const Downtime& x) {
        return x.failure == static_cast<std::int32_t>(&f - run.failures.data());
    });
    const std::int32_t neighbour = f.gpus.front() == 0 ? 1 : 0;
    test::ShownFabric shown(run);
    ASSERT_TRUE(shown.exposed());
    const QImage down = shown.renderAt((d.detected + d.restarted) / 2);
    const QImage reloading = shown.renderAt((d.restarted + d.end) / 2);
    const QPointF p = shown.view().gpuPosition(neighbour);
    EXPECT_TRUE(drawnAs(down, p, kDownColour)) << colourName(down, p);
    EXPECT_TRUE(drawnAs(reloading, p, kCheckpointingColour)) << colourName(reloading, p);
}

TEST(FabricRender, StragglerIsOrangeWhileItLags) {
    const faultline::Run& run = test::tinyRun();
    const ReplayIndex index(run);
    // A straggler episode while the job trains: the middle of one that lies clear of downtime.
    const StragglerEpisode* episode = nullptr;
    for (const StragglerEpisode& s : run.stragglers)
        if (index.statesAt((s.begin + s.end) / 2)[static_cast<std::size_t>(s.gpu)].state == GpuState::Straggling) {
            episode = &s;
            break;
        }
    ASSERT_NE(episode, nullptr);
    const Nanos t = (episode->begin + episode->end) / 2;
    test::ShownFabric shown(run);
    ASSERT_TRUE(shown.exposed());
    const QImage image = shown.renderAt(t);
    const QPointF p = shown.view().gpuPosition(episode->gpu);
    const Rgb expected = gpuColour(index.statesAt(t)[static_cast<std::size_t>(episode->gpu)]);
    EXPECT_TRUE(drawnAs(image, p, expected)) << colourName(image, p);
    EXPECT_FALSE(drawnAs(shown.renderAt(episode->end + kMinute), p, expected, 20));
}

TEST(FabricRender, PickingAtAPixelReturnsTheGpuDrawnThere) {
    const faultline::Run& run = test::tinyRun();
    auto rackOf = [&](std::int32_t gpu) { return run.topology.hosts[static_cast<std::size_t>(run.topology.gpus[static_cast<std::size_t>(gpu)].host)].rack; };
    test::ShownFabric shown(run);
    ASSERT_TRUE(shown.exposed());
    shown.renderAt(0);
    for (std::int32_t gpu : {0, 7, 100, 255}) {
        const QPointF p = shown.view().gpuPosition(gpu);
        const ComponentRef picked = shown.view().partAt(p.toPoint());
        EXPECT_EQ(picked.kind, ComponentKind::Gpu) << "GPU " << gpu;
        EXPECT_EQ(picked.index, gpu);
    }
    // From the top a rack shows its lid and the front of its top tray: a click at a GPU's
    // place lands on its own rack (a GPU or a tray of it).
    shown.view().topView();
    shown.renderAt(0);
    for (std::int32_t gpu : {0, 7, 100, 255}) {
        const ComponentRef picked = shown.view().partAt(shown.view().gpuPosition(gpu).toPoint());
        ASSERT_TRUE(picked.kind == ComponentKind::Gpu || picked.kind == ComponentKind::Host) << "GPU " << gpu << " from the top";
        const std::int32_t rack = picked.kind == ComponentKind::Gpu ? rackOf(picked.index) : run.topology.hosts[static_cast<std::size_t>(picked.index)].rack;
        EXPECT_EQ(rack, rackOf(gpu)) << "GPU " << gpu << " from the top";
    }
    // Empty floor far from the cluster picks nothing.
    EXPECT_EQ(shown.view().partAt({2, 2}).kind, ComponentKind::None);
}

}  // namespace
}  // namespace faultline

namespace faultline {
namespace {

// Four racks; the rack switch of rack 1 fails at 10 min and the job is down until 20 min.
faultline::Run switchFailureRun() {
    faultline::Run run;
    FabricShape shape;
    shape.gpus = 64;
    shape.racksPerRow = 4;
    shape.ctswPerZone = 2;
    shape.atswCount = 1;
    run.topology = buildFabric(shape);
    run.info.duration = kHour;
    const std::int32_t sw = *run.topology.findSwitch("rtsw-r0001");
    Failure f;
    f.time = 10 * kMinute;
    f.cause = RootCause::NetworkSwitchCable;
    f.component = {ComponentKind::Switch, sw};
    f.gpus = run.topology.gpusBelowSwitch(sw);
    run.failures.push_back(f);
    run.downtimes.push_back({10 * kMinute, 12 * kMinute, 18 * kMinute, 20 * kMinute, 0, false, f.cause, 0, -1});
    return run;
}

TEST(FabricRender, FailedSwitchShowsEveryGpuItCutOff) {
    const faultline::Run run = switchFailureRun();
    const Failure& f = run.failures.front();
    ASSERT_EQ(f.gpus.size(), 16u);
    test::ShownFabric shown(run);
    ASSERT_TRUE(shown.exposed());
    const QImage image = shown.renderAt(11 * kMinute);
    for (std::int32_t gpu : f.gpus) {
        const QPointF p = shown.view().gpuPosition(gpu);
        EXPECT_TRUE(drawnAs(image, p, kFailedColour)) << "GPU " << gpu << " " << colourName(image, p);
    }
    const QPointF elsewhere = shown.view().gpuPosition(0);
    EXPECT_TRUE(drawnAs(image, elsewhere, kDownColour)) << colourName(image, elsewhere);
    const QPointF sw = shown.view().positionOf(f.component);
    EXPECT_TRUE(drawnAs(image, sw, kFailedColour)) << colourName(image, sw);
    EXPECT_FALSE(drawnAs(shown.renderAt(9 * kMinute), sw, kFailedColour, 60));
}

// Where a world point is drawn, in the view's widget coordinates (as FabricView::positionOf).
QPointF drawnAt(FabricView& view, std::array<float, 3> world) {
    vtkRenderer* renderer = view.renderWidget()->renderer();
    renderer->SetWorldPoint(world[0], world[1], world[2], 1.0);
    renderer->WorldToDisplay();
    const double* d = renderer->GetDisplayPoint();
    const double dpr = view.renderWidget()->devicePixelRatioF();
    return view.renderWidget()->mapTo(&view, QPointF(d[0] / dpr, (view.renderWidget()->renderWindowHeight() - 1 - d[1]) / dpr));
}

// One host of 8 GPUs whose GPU 0 crashed (the NeMo segfault log's picture): close up the
// failure is its red GPU. The rack's lid is the cabinet's colour, red only along its front
// edge (which still tells the rack's state from above), never a red slab the size of the rack.
TEST(FabricRender, AFailedGpuIsRedButItsRacksLidIsNoRedSlab) {
    faultline::Run run;
    run.info = {"segfault", 0, kMinute, "import"};
    run.topology = buildFabric(FabricShape{.gpus = 8});
    run.failures.push_back(test::faultyGpuFailure(0, 10 * kSecond));
    test::ShownFabric shown(run);
    ASSERT_TRUE(shown.exposed());
    shown.view().fitAll();
    const QImage image = shown.renderAt(20 * kSecond);
    ASSERT_STREQ(shown.view().detailName(), "boxes");
    const QPointF gpu = shown.view().gpuPosition(0);
    EXPECT_TRUE(drawnAs(image, gpu, kFailedColour)) << colourName(image, gpu);
    auto red = [](const QColor& c) { return c.red() > 150 && c.green() < 80 && c.blue() < 80; };
    const Box3 rack = layoutFabric(run.topology).racks.front();
    const float top = rack.max[2] + 0.04f, middleX = (rack.min[0] + rack.max[0]) / 2;
    const QPointF lid = drawnAt(shown.view(), {middleX, (rack.min[1] + rack.max[1]) / 2, top});
    ASSERT_TRUE(QRectF(QPointF(0, 0), QSizeF(shown.view().size())).contains(lid));
    EXPECT_FALSE(red(test::colourAt(image, lid))) << "the lid's middle is " << colourName(image, lid);
    shown.view().topView();
    const QImage above = shown.renderAt(20 * kSecond);
    const QPointF edge = drawnAt(shown.view(), {middleX, rack.min[1] + 0.1f, top});
    EXPECT_TRUE(red(test::colourAt(above, edge))) << "from above, the lid's front edge is " << colourName(above, edge);
    const QPointF middle = drawnAt(shown.view(), {middleX, (rack.min[1] + rack.max[1]) / 2, top});
    EXPECT_FALSE(red(test::colourAt(above, middle))) << "from above, the lid's middle is " << colourName(above, middle);
}

TEST(FabricRender, FarAwayRacksAreBlocksColouredByTheirWorstGpu) {
    faultline::Run run;
    FabricShape shape;
    shape.gpus = 100'000;
    run.topology = buildFabric(shape);
    run.info.duration = kHour;
    const Failure f = test::faultyGpuFailure(54'325, 30 * kMinute);
    run.failures.push_back(f);
    test::ShownFabric shown(run, {1600, 1000});
    ASSERT_TRUE(shown.exposed());
    // Level of detail follows device pixels: on a high-DPI screen this view is not far enough.
    if (shown.view().devicePixelRatioF() > 1.0) GTEST_SKIP() << "needs a screen at scale 1";
    const QImage at = shown.renderAt(f.time);
    ASSERT_TRUE(shown.view().racksAsBlocks());
    // The GPU lies inside its rack's block: the block is red where the GPU is (its front or,
    // for a back row seen low, its top, shaded a little darker), and was not a minute before.
    const QPointF p = shown.view().gpuPosition(54'325);
    auto red = [](const QColor& c) { return c.red() > 150 && c.green() < 60 && c.blue() < 60; };
    EXPECT_TRUE(red(test::colourAt(at, p))) << colourName(at, p);
    const QImage before = shown.renderAt(f.time - kMinute);
    EXPECT_FALSE(red(test::colourAt(before, p))) << colourName(before, p);
    // Close up, the GPUs themselves are drawn again.
    shown.view().zoomTo(f.component);
    const QImage close = shown.renderAt(f.time);
    EXPECT_FALSE(shown.view().racksAsBlocks());
    const QPointF q = shown.view().gpuPosition(54'325);
    EXPECT_TRUE(drawnAs(close, q, kFailedColour)) << colourName(close, q);
    const QPointF neighbour = shown.view().gpuPosition(54'324);
    EXPECT_TRUE(drawnAs(close, neighbour, kTrainingColour)) << colourName(close, neighbour);
}

}  // namespace
}  // namespace faultline

namespace faultline {
namespace {

// How much of the view the cluster's GPUs fill: the larger of their drawn width and height
// as a share of the view's.
double filled(test::ShownFabric& shown, const faultline::Run& run) {
    shown.renderAt(0);
    QRectF r;
    for (std::size_t g = 0; g < run.topology.gpus.size(); ++g) {
        const QPointF p = shown.view().gpuPosition(static_cast<std::int32_t>(g));
        r = r.isNull() ? QRectF(p, QSizeF(0.01, 0.01)) : r.united(QRectF(p, QSizeF(0.01, 0.01)));
    }
    return std::max(r.width() / shown.view().width(), r.height() / shown.view().height());
}

TEST(FabricRender, WhatIsOnScreenIsTheFrameTheRightWayUp) {
    // A frame is read back into the window it is shown in: the failed GPU is red on screen
    // where the camera puts it, and the display holds there the frame a grab renders, pixel
    // for pixel (a frame shown upside down, or in another byte order, would differ nearly
    // everywhere).
    const faultline::Run& run = test::tinyRun();
    const Failure& f = singleGpuFailure(run);
    test::ShownFabric shown(run, {640, 480});
    ASSERT_TRUE(shown.exposed());
    VtkRenderWidget* render = shown.view().renderWidget();
    QWindow* surface = render->surfaceWindow();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(surface));
    const QImage frame = shown.renderAt(f.time);
    QSignalSpy presented(render, &VtkRenderWidget::framePresented);
    render->update();
    ASSERT_TRUE(presented.wait(30'000)) << "no frame was shown";
    const QImage onScreen = surface->screen()->grabWindow(surface->winId()).toImage().convertToFormat(QImage::Format_RGB32);
    ASSERT_EQ(onScreen.size(), frame.size());
    const QPointF p = shown.view().gpuPosition(f.gpus.front());
    EXPECT_TRUE(drawnAs(onScreen, p, kFailedColour)) << colourName(onScreen, p);
    qsizetype differing = 0;
    for (int y = 0; y < frame.height(); ++y)
        for (int x = 0; x < frame.width(); ++x) differing += (frame.pixel(x, y) & 0xffffffu) != (onScreen.pixel(x, y) & 0xffffffu);
    EXPECT_EQ(differing, 0) << "of " << frame.width() * frame.height() << " pixels";
}

TEST(FabricRender, TheClusterStaysFramedWhenTheViewGrowsUntilTheUserMovesTheCamera) {
    const faultline::Run& run = test::tinyRun();
    test::ShownFabric shown(run, {500, 500});
    ASSERT_TRUE(shown.exposed());
    EXPECT_GT(filled(shown, run), 0.45);
    shown.resize({1400, 500});
    EXPECT_GT(filled(shown, run), 0.45) << "a wider view is filled again, not left with the cluster small in its middle";
    EXPECT_TRUE(shown.view().keepsFramed());

    // Once the user zooms, a resize leaves the camera where the user put it.
    VtkRenderWidget* render = shown.view().renderWidget();
    const QPointF centre(render->width() / 2.0, render->height() / 2.0);
    QWheelEvent wheel(centre, render->mapToGlobal(centre), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(render, &wheel);  // out, a little
    EXPECT_FALSE(shown.view().keepsFramed());
    shown.resize({500, 1400});
    const double userCamera = filled(shown, run);
    // F frames it again, and keeps it framed.
    shown.view().fitAll();
    EXPECT_TRUE(shown.view().keepsFramed());
    const double framed = filled(shown, run);
    EXPECT_GT(userCamera, 1.0) << "the resize kept the user's camera: the cluster spills out of the narrower view";
    EXPECT_GT(framed, 0.45);
    EXPECT_LE(framed, 1.0);
}

TEST(FabricRender, APinnedLevelOfDetailHoldsWhateverTheCameraUntilUnpinned) {
    // Benchmarks name the level they price (FAULTLINE_BENCH_DETAIL); one spelling each.
    for (FabricDetail d : {FabricDetail::Boxes, FabricDetail::Rows, FabricDetail::Hall})
        EXPECT_EQ(fabricDetailFromName(fabricDetailName(d)), d) << fabricDetailName(d);
    EXPECT_EQ(fabricDetailFromName("Hall"), std::nullopt) << "names are exact";
    EXPECT_EQ(fabricDetailFromName(""), std::nullopt);

    faultline::Run run;
    FabricShape shape;
    shape.gpus = 256;
    run.topology = buildFabric(shape);
    run.info.duration = kHour;
    test::ShownFabric shown(run, {800, 600});
    ASSERT_TRUE(shown.exposed());
    shown.renderAt(0);
    const std::string chosen = shown.view().detailName();
    // Another level than the camera chose, pinned, stays whatever the camera.
    const FabricDetail pinned = chosen == "boxes" ? FabricDetail::Hall : FabricDetail::Boxes;
    shown.view().pinDetail(pinned);
    shown.renderAt(0);
    EXPECT_STREQ(shown.view().detailName(), fabricDetailName(pinned));
    shown.view().pinDetail(std::nullopt);
    shown.renderAt(0);
    EXPECT_EQ(shown.view().detailName(), chosen) << "unpinned, the camera chooses again";
}

TEST(FabricRender, SeenWholeEachGpuIsStillItsOwnPatchOfColour) {
    // 16,384 GPUs in a 1600x1000 view: the farthest level of detail, where rows of racks are
    // textured blocks. A failed GPU is red where it is drawn, and its neighbour on the same
    // tray is not: each GPU stays its own element, not only its rack's lid.
    faultline::Run run;
    FabricShape shape;
    shape.gpus = 16'384;
    run.topology = buildFabric(shape);
    run.info.duration = kHour;
    const std::int32_t gpu = 9'000;
    const Failure f = test::faultyGpuFailure(gpu, 30 * kMinute);
    run.failures.push_back(f);
    test::ShownFabric shown(run, {1600, 1000});
    ASSERT_TRUE(shown.exposed());
    if (shown.view().devicePixelRatioF() > 1.0) GTEST_SKIP() << "needs a screen at scale 1";
    const QImage at = shown.renderAt(f.time);
    ASSERT_STREQ(shown.view().detailName(), "hall");
    const QPointF p = shown.view().gpuPosition(gpu);
    const QPointF beside = shown.view().gpuPosition(gpu + 1);
    ASSERT_EQ(run.topology.gpus[gpu].host, run.topology.gpus[gpu + 1].host);
    ASSERT_GE(std::abs(beside.x() - p.x()), 2.0) << "neighbours less than two pixels apart";
    // A GPU seen whole is a pixel or two tall: look within a pixel of where it is drawn.
    auto within1px = [&](QPointF q, Rgb c) {
        for (int dx = -1; dx <= 1; ++dx)
            for (int dy = -1; dy <= 1; ++dy)
                if (drawnAs(at, q + QPointF(dx, dy), c, 30)) return true;
        return false;
    };
    EXPECT_TRUE(within1px(p, kFailedColour)) << colourName(at, p);
    EXPECT_FALSE(within1px(beside, kFailedColour)) << colourName(at, beside);
    EXPECT_TRUE(within1px(beside, kTrainingColour)) << colourName(at, beside);
}

}  // namespace
}  // namespace faultline
