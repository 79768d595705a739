// The fabric view of a known run at a known instant against a committed picture, with a
// tolerance for small rendering differences (render_baseline.h). To accept a deliberate
// change, run with FAULTLINE_UPDATE_BASELINES=1 and commit the new PNG.
#include "render_baseline.h"
#include "shown_fabric.h"
#include "test_runs.h"
#include "realdata.h"
#include "importers/importer.h"

#include <gtest/gtest.h>

namespace faultline {
namespace {

void expectMatchesBaseline(const QImage& image, const QString& name) {
    test::expectMatchesBaseline(image, FAULTLINE_RENDER_BASELINES, name);
}

TEST(RenderBaseline, TinyRunDuringItsFirstFailureMatchesTheCommittedPicture) {
    const faultline::Run& run = test::tinyRun();
    const Failure& f = run.failures.front();
    test::ShownFabric shown(run, {800, 500});
    ASSERT_TRUE(shown.exposed());
    expectMatchesBaseline(shown.renderAt(f.time + 30 * kSecond), "tiny_first_failure");
}

// The data hall close up: one failed GPU red on its tray among grey ones.
TEST(RenderBaseline, CloseUpOfOneFailedGpuMatchesTheCommittedPicture) {
    const faultline::Run& run = test::tinyRun();
    const Failure* single = nullptr;
    for (const Failure& f : run.failures)
        if (f.component.kind == ComponentKind::Gpu && f.gpus.size() == 1) single = &f;
    ASSERT_NE(single, nullptr);
    test::ShownFabric shown(run, {800, 500});
    ASSERT_TRUE(shown.exposed());
    shown.renderAt(0);  // the first frame fits the whole cluster
    shown.view().zoomTo(single->component);
    expectMatchesBaseline(shown.renderAt(single->time + 5 * kSecond), "hall_close_failed_gpu");
}

// The whole hall of a 16,384-GPU cluster from the default camera.
TEST(RenderBaseline, WholeClusterMatchesTheCommittedPicture) {
    faultline::Run run;
    FabricShape shape;
    shape.gpus = 16'384;
    run.topology = buildFabric(shape);
    run.info.duration = kHour;
    const Failure f = test::faultyGpuFailure(9'001, 30 * kMinute);
    run.failures.push_back(f);
    test::ShownFabric shown(run, {800, 500});
    ASSERT_TRUE(shown.exposed());
    expectMatchesBaseline(shown.renderAt(f.time + kSecond), "hall_whole_cluster");
}

// A failed rack switch with its blast radius: its rack outlined as cut off, its uplinks
// drawn up the fabric, the camera on the whole scope, the label at the switch.
TEST(RenderBaseline, BlastRadiusOfAFailedRackSwitchMatchesTheCommittedPicture) {
    const faultline::Run& run = test::rackSwitchFailureRun();
    const Failure& f = test::rackSwitchFailure(run);
    test::ShownFabric shown(run, {800, 500});
    ASSERT_TRUE(shown.exposed());
    shown.renderAt(0);
    shown.view().select(f.component);
    shown.view().frameBlastRadius();
    expectMatchesBaseline(shown.renderAt(f.time + kSecond), "blast_radius_rack_switch");
}

// The comparison itself must fail on a picture that differs: a red GPU where one was grey.
TEST(RenderBaseline, ComparisonNoticesAChangedFrame) {
    const faultline::Run& run = test::tinyRun();
    const Failure& f = run.failures.front();
    test::ShownFabric shown(run, {800, 500});
    ASSERT_TRUE(shown.exposed());
    const QImage during = shown.renderAt(f.time + 30 * kSecond);
    const QImage earlier = shown.renderAt(f.time - kMinute);
    const test::ImageDifference d = test::compareImages(during, earlier);
    EXPECT_GT(d.differingShare, 0.005);
}

// The real DGX H100 SuperPOD fabric (topograph's ibnetdiscover dump) drawn as a fat tree:
// scalable units of racks, their rail leaves above, the spines above those.
TEST(RenderBaseline, SuperPodFatTreeMatchesTheCommittedPicture) {
    FAULTLINE_REQUIRE_REALDATA();
    const ImportResult imported = importFiles({test::realData("topology/topograph/tests/output/ibnetdiscover/example.out")}, ImportOptions{});
    test::ShownFabric shown(imported.run, {1000, 600});
    ASSERT_TRUE(shown.exposed());
    expectMatchesBaseline(shown.renderAt(0), "superpod_fat_tree");
}

}  // namespace
}  // namespace faultline
