// The fabric view rendered for real (under Xvfb, Mesa): pixels where GPUs are drawn.
#include "shown_fabric.h"
#include "../model/test_runs.h"

#include "views/gpu_palette.h"

#include <gtest/gtest.h>

namespace faultline {
namespace {

using test::colourAt;
using test::near;

// The first failure of the tiny run that took out exactly one GPU.
const Failure& singleGpuFailure(const Run& run) {
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
    if (qEnvironmentVariableIsSet("FAULTLINE_RENDER_DUMP")) {
        at.save("/tmp/render_at.png");
        before.save("/tmp/render_before.png");
    }
    const QPointF p = shown.view().gpuPosition(f.gpus.front());
    ASSERT_TRUE(QRectF(QPointF(0, 0), QSizeF(shown.view().size())).contains(p));
    EXPECT_TRUE(near(colourAt(at, p), kFailedColour[0], kFailedColour[1], kFailedColour[2])) << colourAt(at, p).name().toStdString();
    EXPECT_FALSE(near(colourAt(before, p), kFailedColour[0], kFailedColour[1], kFailedColour[2], 60)) << colourAt(before, p).name().toStdString();
}

}  // namespace
}  // namespace faultline
