// The top view (T) keeps every tier and its labels in frame: the switches floating over the
// hall, seen in perspective from above, spread out past the floor's edges.
#include "shown_fabric.h"
#include "test_runs.h"

#include <gtest/gtest.h>

namespace faultline {
namespace {

TEST(TopView, EverySwitchTierStaysInFrame) {
    for (const QSize size : {QSize(800, 500), QSize(500, 800)}) {
        const faultline::Run& run = test::tinyRun();
        test::ShownFabric shown(run, size);
        ASSERT_TRUE(shown.exposed());
        shown.renderAt(0);
        shown.view().topView();
        const QImage frame = shown.renderAt(0);
        if (const QByteArray shots = qgetenv("FAULTLINE_TEST_SHOTS"); !shots.isEmpty())
            frame.save(shots + QString("/top_view_%1x%2.png").arg(size.width()).arg(size.height()));
        // A margin for the tier names centred over their first switch.
        const QRectF inside(QPointF(24, 12), QPointF(size.width() - 24, size.height() - 12));
        ASSERT_FALSE(run.topology.switches.empty());
        for (std::size_t s = 0; s < run.topology.switches.size(); ++s) {
            const QPointF at = shown.view().positionOf({ComponentKind::Switch, static_cast<std::int32_t>(s)});
            EXPECT_TRUE(inside.contains(at)) << run.topology.switches[s].name << " at " << at.x() << "," << at.y() << " in a "
                                             << size.width() << "x" << size.height() << " view";
        }
    }
}

}  // namespace
}  // namespace faultline
