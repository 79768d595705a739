// The blast radius in the 3D view, by pixel: drawn for a failed rack switch (its rack in the
// cut-off colour, its way up in the path colour), gone when the selection is cleared, and
// previewed for a cluster switch that cuts nothing off (its way up only).
#include "shown_fabric.h"
#include "test_runs.h"

#include <gtest/gtest.h>

namespace faultline {
namespace {

int pixelsNear(const QImage& image, int r, int g, int b) {
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) n += test::near(image.pixelColor(x, y), r, g, b, 24);
    return n;
}

constexpr int kCutOff[3] = {204, 121, 167};
constexpr int kPathUp[3] = {0, 158, 115};

TEST(BlastRadiusRender, AFailedRackSwitchOutlinesItsRackAndDrawsItsWayUp) {
    const faultline::Run& run = test::rackSwitchFailureRun();
    const Failure& f = test::rackSwitchFailure(run);
    test::ShownFabric shown(run, {800, 500});
    ASSERT_TRUE(shown.exposed());
    shown.renderAt(0);
    shown.view().frameParts({f.component});
    const QImage before = shown.renderAt(f.time + kSecond);
    EXPECT_EQ(pixelsNear(before, kCutOff[0], kCutOff[1], kCutOff[2]), 0);

    shown.view().select(f.component);
    shown.view().frameBlastRadius();
    EXPECT_EQ(shown.view().blastRadiusShown().gpus, run.topology.gpusBelowSwitch(f.component.index));
    const QImage with = shown.renderAt(f.time + kSecond);
    EXPECT_GT(pixelsNear(with, kCutOff[0], kCutOff[1], kCutOff[2]), 200) << "the rack it cut off is outlined";
    EXPECT_GT(pixelsNear(with, kPathUp[0], kPathUp[1], kPathUp[2]), 100) << "its uplinks are drawn";
    // Framed: the failed switch is on screen, well inside the frame.
    const QPointF at = shown.view().positionOf(f.component);
    EXPECT_GT(at.x(), 40);
    EXPECT_LT(at.x(), 760);
    EXPECT_GT(at.y(), 20);
    EXPECT_LT(at.y(), 480);

    shown.view().select({});
    EXPECT_EQ(pixelsNear(shown.renderAt(f.time + kSecond), kCutOff[0], kCutOff[1], kCutOff[2]), 0) << "cleared with the selection";
}

TEST(BlastRadiusRender, SelectingAClusterSwitchPreviewsItsWayUpAndCutsNothing) {
    const faultline::Run& run = test::rackSwitchFailureRun();
    const auto ctsw = run.topology.findSwitch("ctsw-z00-00");
    ASSERT_TRUE(ctsw);
    test::ShownFabric shown(run, {800, 500});
    ASSERT_TRUE(shown.exposed());
    shown.renderAt(0);
    shown.view().select({ComponentKind::Switch, *ctsw});
    EXPECT_TRUE(shown.view().blastRadiusShown().gpus.empty());
    EXPECT_FALSE(shown.view().blastRadiusShown().links.empty());
    EXPECT_GT(pixelsNear(shown.renderAt(0), kPathUp[0], kPathUp[1], kPathUp[2]), 20);
}

}  // namespace
}  // namespace faultline
