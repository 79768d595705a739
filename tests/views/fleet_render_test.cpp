// A fleet seen whole, rendered for real: each hall drawn as one mesh of rows (a draw per hall,
// not one per thousand GPUs: what a software rasteriser's frame costs), a failed GPU still red
// where it is drawn and picked there, and close up its boxes again.
#include "shown_fabric.h"
#include "test_runs.h"

#include "simulator/fleet_shape.h"
#include "views/gpu_palette.h"
#include "widgets/vtk_render_widget.h"

#include <vtkActor.h>
#include <vtkActorCollection.h>
#include <vtkRenderer.h>

#include <gtest/gtest.h>

namespace faultline {
namespace {

using test::colourAt;
using test::near;

// The actors drawing something textured now: the GPUs' meshes (row blocks or boxes) and the
// switches' boxes.
int texturedActorsShown(FabricView& view) {
    vtkActorCollection* actors = view.renderWidget()->renderer()->GetActors();
    actors->InitTraversal();
    int shown = 0;
    while (vtkActor* a = actors->GetNextActor()) shown += a->GetVisibility() && a->GetTexture() ? 1 : 0;
    return shown;
}

bool redWithin1px(const QImage& image, QPointF p) {
    for (int dx = -1; dx <= 1; ++dx)
        for (int dy = -1; dy <= 1; ++dy) {
            const QColor c = colourAt(image, p + QPointF(dx, dy));
            if (c.red() > 150 && c.green() < 70 && c.blue() < 70) return true;
        }
    return false;
}

TEST(FleetRender, SeenWholeEachHallIsOneMeshAndAFailedGpuIsStillRedWhereItIsDrawn) {
    FleetShape shape;
    using enum FabricKind;
    shape.clusters = {{"a1-roce-8k", "Hall A1", "Building A", RoceClos, 8'192},
                      {"a2-ib-8k", "Hall A2", "Building A", InfinibandFatTree, 8'192},
                      {"b1-roce-8k", "Hall B1", "Building B", RoceClos, 8'192}};
    faultline::Run run;
    run.topology = buildFleetTopology(shape);
    run.info.duration = kHour;
    const std::int32_t gpu = 5'000;  // in the first RoCE hall, which no cabling is drawn over from the front
    const Failure f = test::faultyGpuFailure(gpu, 30 * kMinute);
    run.failures.push_back(f);
    test::ShownFabric shown(run, {1600, 1000});
    ASSERT_TRUE(shown.exposed());
    if (shown.view().devicePixelRatioF() > 1.0) GTEST_SKIP() << "needs a screen at scale 1";

    const QImage at = shown.renderAt(f.time);
    ASSERT_STREQ(shown.view().detailName(), "hall");
    // One mesh a hall, and the switch tiers: not a mesh for every thousand GPUs (24 here).
    EXPECT_LE(texturedActorsShown(shown.view()), static_cast<int>(shape.clusters.size()) + 1);
    const QPointF p = shown.view().gpuPosition(gpu);
    EXPECT_TRUE(redWithin1px(at, p)) << colourAt(at, p).name().toStdString();
    EXPECT_FALSE(redWithin1px(shown.renderAt(f.time - kMinute), p)) << "red before it failed";
    // A click there (a GPU is under a pixel wide from this far) names a GPU or host of its rack.
    auto rackOfPick = [&](const ComponentRef& part) -> std::int32_t {
        if (part.kind == ComponentKind::Gpu) return run.topology.hosts[static_cast<std::size_t>(run.topology.gpus[static_cast<std::size_t>(part.index)].host)].rack;
        if (part.kind == ComponentKind::Host) return run.topology.hosts[static_cast<std::size_t>(part.index)].rack;
        return -1;
    };
    const std::int32_t rack = run.topology.hosts[static_cast<std::size_t>(run.topology.gpus[static_cast<std::size_t>(gpu)].host)].rack;
    bool pickedItsRack = false;
    for (int dx = -1; dx <= 1; ++dx)
        for (int dy = -1; dy <= 1; ++dy) pickedItsRack |= rackOfPick(shown.view().partAt((p + QPointF(dx, dy)).toPoint())) == rack;
    EXPECT_TRUE(pickedItsRack);

    // Close up, its own box is drawn red and its neighbour's is not; the hall is no longer one mesh.
    shown.view().zoomTo(f.component);
    const QImage close = shown.renderAt(f.time);
    EXPECT_STREQ(shown.view().detailName(), "boxes");
    const QPointF q = shown.view().gpuPosition(gpu);
    EXPECT_TRUE(near(colourAt(close, q), kFailedColour[0], kFailedColour[1], kFailedColour[2], 12)) << colourAt(close, q).name().toStdString();
    const QPointF beside = shown.view().gpuPosition(gpu + 1);
    EXPECT_TRUE(near(colourAt(close, beside), kTrainingColour[0], kTrainingColour[1], kTrainingColour[2], 12)) << colourAt(close, beside).name().toStdString();
    // And back out, the fleet whole again: one mesh a hall.
    shown.view().fitAll();
    const QImage again = shown.renderAt(f.time);
    EXPECT_STREQ(shown.view().detailName(), "hall");
    EXPECT_LE(texturedActorsShown(shown.view()), static_cast<int>(shape.clusters.size()) + 1);
    EXPECT_TRUE(redWithin1px(again, shown.view().gpuPosition(gpu)));
}

}  // namespace
}  // namespace faultline
