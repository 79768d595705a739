// The floating labels of the 3D view (tier names, switch names, rows) never overlap one
// another nor the legend, and where they would, the more important ones stay: tier names
// before switch names before row names. The legend drawn in the view keeps the hall clear.
#include "shown_fabric.h"
#include "test_runs.h"

#include "views/fabric/label_placer.h"
#include "views/fabric/scene_labels.h"
#include "views/fabric/scene_legend.h"
#include "widgets/vtk_render_widget.h"

#include <vtkGenericOpenGLRenderWindow.h>

#include <gtest/gtest.h>

#include <algorithm>

namespace faultline {
namespace {

TEST(LabelPlacer, KeepsTheMoreImportantOfTwoOverlappingLabels) {
    const std::vector<LabelCandidate> labels{
        {{0, 0, 50, 10}, 2, true},   // a row name
        {{40, 5, 90, 15}, 0, true},  // a tier name over its right end
        {{100, 0, 150, 10}, 2, true},
    };
    EXPECT_EQ(placeLabels(labels, {}), (std::vector<bool>{false, true, true}));
}

TEST(LabelPlacer, HidesLabelsOverABlockedAreaOrBehindTheCamera) {
    const std::vector<LabelCandidate> labels{
        {{0, 0, 50, 10}, 0, true},
        {{100, 0, 150, 10}, 1, false},
        {{200, 0, 250, 10}, 1, true},
    };
    EXPECT_EQ(placeLabels(labels, {{10, 5, 20, 30}}), (std::vector<bool>{false, false, true}));
}

TEST(LabelPlacer, AmongEqualsTheEarlierWinsAndTouchingIsNotOverlapping) {
    const std::vector<LabelCandidate> labels{{{0, 0, 50, 10}, 1, true}, {{20, 0, 70, 10}, 1, true}, {{50, 0, 60, 10}, 1, true}};
    EXPECT_EQ(placeLabels(labels, {}), (std::vector<bool>{true, false, true}));
}

// The tiny run's hall in a small view: its tier, switch and row names would be written over
// each other there.
TEST(LabelPlacement, NoTwoShownLabelsOverlapAndEveryTierNameIsShown) {
    for (const QSize size : {QSize(480, 300), QSize(640, 400), QSize(1200, 800)}) {
        test::ShownFabric shown(test::tinyRun(), size);
        ASSERT_TRUE(shown.exposed());
        const QImage frame = shown.renderAt(0);
        if (const QByteArray shots = qgetenv("FAULTLINE_TEST_SHOTS"); !shots.isEmpty())
            frame.save(shots + QString("/labels_%1x%2.png").arg(size.width()).arg(size.height()));
        const SceneLabels* labels = shown.view().labels();
        ASSERT_NE(labels, nullptr);
        const auto& placed = labels->placed();
        ASSERT_FALSE(placed.empty());
        const ScreenRect legend = shown.view().legend().panelRect();
        int wouldOverlap = 0, tiers = 0;
        for (std::size_t i = 0; i < placed.size(); ++i) {
            if (placed[i].kind == LabelKind::Tier) {
                ++tiers;
                EXPECT_TRUE(placed[i].shown) << placed[i].text << " in a " << size.width() << "x" << size.height() << " view";
            }
            if (placed[i].shown) {
                EXPECT_FALSE(placed[i].rect.intersects(legend)) << placed[i].text << " under the legend";
            }
            for (std::size_t j = i + 1; j < placed.size(); ++j) {
                wouldOverlap += placed[i].rect.intersects(placed[j].rect);
                if (placed[i].shown && placed[j].shown) {
                    EXPECT_FALSE(placed[i].rect.intersects(placed[j].rect))
                        << placed[i].text << " over " << placed[j].text << " in a " << size.width() << "x" << size.height() << " view";
                }
            }
        }
        EXPECT_GE(tiers, 2);
        if (size.width() < 600) {
            EXPECT_GT(wouldOverlap, 0) << "a view small enough that some labels would overlap";
        }
        if (size.width() >= 1200) {
            EXPECT_EQ(std::count_if(placed.begin(), placed.end(), [](const SceneLabels::Placed& p) { return p.shown; }),
                      static_cast<long>(placed.size()))
                << "room for every label in a large view";
        }
    }
}

// Zoomed in towards a corner, as after orbiting close, names run to the view's edges: one the
// edge would cut is not shown until the whole of it is in view (building labels were clipped).
TEST(LabelPlacement, NoShownLabelIsCutByTheViewsEdge) {
    test::ShownFabric shown(test::tinyRun(), {900, 600});
    ASSERT_TRUE(shown.exposed());
    int checked = 0;
    for (const QPointF towards : {QPointF(880, 20), QPointF(20, 580), QPointF(450, 300)}) {
        shown.view().fitAll();
        shown.renderAt(0);
        shown.view().renderWidget()->zoomTowards(towards, 2.5);
        shown.renderAt(0);
        const int* size = shown.view().renderWidget()->renderWindow()->GetSize();
        for (const SceneLabels::Placed& p : shown.view().labels()->placed()) {
            if (!p.shown) continue;
            ++checked;
            // The placed rectangle holds the text and its padding: the text itself lies within.
            const double pad = (p.rect.y1 - p.rect.y0) * 0.2;
            EXPECT_GE(p.rect.x0 + pad, -1) << p.text << " cut by the left edge";
            EXPECT_GE(p.rect.y0 + pad, -1) << p.text << " cut by the bottom edge";
            EXPECT_LE(p.rect.x1 - pad, size[0] + 1) << p.text << " cut by the right edge";
            EXPECT_LE(p.rect.y1 - pad, size[1] + 1) << p.text << " cut by the top edge";
        }
    }
    EXPECT_GT(checked, 0) << "some names are shown";
}

// The placement follows the camera: zoomed out until the hall is small, names give way; back
// in, they come back.
TEST(LabelPlacement, LabelsHiddenWhenCrowdedComeBackWhenThereIsRoom) {
    test::ShownFabric shown(test::tinyRun(), {900, 600});
    ASSERT_TRUE(shown.exposed());
    shown.renderAt(0);
    auto shownCount = [&] {
        const auto& placed = shown.view().labels()->placed();
        return std::count_if(placed.begin(), placed.end(), [](const SceneLabels::Placed& p) { return p.shown; });
    };
    const auto framed = shownCount();
    shown.view().renderWidget()->zoomTowards(QPointF(450, 300), 0.25);
    shown.renderAt(0);
    const auto crowded = shownCount();
    EXPECT_LT(crowded, framed);
    shown.view().fitAll();
    shown.renderAt(0);
    EXPECT_EQ(shownCount(), framed);
}

// The legend covers a strip of the view: fits keep the hall above it, and a click on it is a
// click on the legend, not on whatever a closer camera put behind it.
TEST(SceneLegend, FitsKeepTheHallAboveItAndAClickOnItPicksNothing) {
    const faultline::Run& run = test::tinyRun();
    test::ShownFabric shown(run, {800, 500});
    ASSERT_TRUE(shown.exposed());
    const QImage frame = shown.renderAt(0);
    const ScreenRect legend = shown.view().legend().panelRect();
    const double legendTop = frame.height() - legend.y1;  // in widget pixels, from the top
    ASSERT_GT(legend.y1, legend.y0);
    for (std::size_t g = 0; g < run.topology.gpus.size(); ++g)
        EXPECT_LT(shown.view().gpuPosition(static_cast<std::int32_t>(g)).y(), legendTop) << "GPU " << g << " under the legend";
    // Closer, with the hall running under the legend: a GPU drawn behind it is not picked
    // through it.
    QPointF middle;
    for (std::int32_t g = 0; g < static_cast<std::int32_t>(run.topology.gpus.size()); ++g) middle += shown.view().gpuPosition(g);
    middle /= static_cast<double>(run.topology.gpus.size());
    const QRectF covered(QPointF(legend.x0, frame.height() - legend.y1), QPointF(legend.x1, frame.height() - legend.y0));
    int behind = 0;
    // Closer a step at a time until the front racks' GPUs pass behind the legend.
    for (int step = 0; step < 12 && behind == 0; ++step) {
        shown.view().renderWidget()->zoomTowards(middle, 1.1);
        shown.renderAt(0);
        for (std::int32_t g = 0; g < static_cast<std::int32_t>(run.topology.gpus.size()); ++g) {
            const QPointF at = shown.view().gpuPosition(g);
            if (!covered.contains(at)) continue;
            ++behind;
            EXPECT_EQ(shown.view().partAt(at.toPoint()).kind, ComponentKind::None) << "GPU " << g << " picked through the legend";
        }
    }
    EXPECT_GT(behind, 0) << "some GPUs behind the legend";
}

}  // namespace
}  // namespace faultline
