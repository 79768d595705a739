// The summary panel's tiles as a reviewer reads them: a minute of crash log or 18 ms of
// Flight Recorder dumps shows no ETTR, MTBF or downtime figure, only "not enough of the run to
// say" and what would make it known; the 54-day sample run shows every figure.
#include "gui_test_app.h"
#include "test_runs.h"

#include "analysis/summary.h"
#include "model/format.h"
#include "simulator/simulator.h"
#include "views/summary_view.h"
#include "widgets/stat_tile.h"

#include <gtest/gtest.h>

namespace faultline {
namespace {

const StatTile& tile(const SummaryView& view, const char* name) {
    auto* t = view.findChild<StatTile*>(name);
    if (!t) throw std::runtime_error(std::string("no tile ") + name);
    return *t;
}

constexpr const char* kEvidenceTiles[] = {"ettrTile", "mtbfTile", "detectionTile", "restartTile", "reloadTile", "lostWorkTile"};

void expectReasonsNotFigures(const faultline::Run& run) {
    test::guiApp();
    SummaryView view;
    view.setSummary(summarize(run));
    for (const char* name : kEvidenceTiles) {
        SCOPED_TRACE(name);
        const StatTile& t = tile(view, name);
        EXPECT_FALSE(t.showsFigure());
        EXPECT_EQ(t.value(), "not enough of the run to say");
        EXPECT_TRUE(t.detail().startsWith("needs ")) << t.detail().toStdString();
    }
    EXPECT_TRUE(tile(view, "mtbfTile").detail().contains("at least two unexpected failures over at least a day of run"));
    EXPECT_TRUE(tile(view, "ettrTile").detail().contains("training steps or job spans covering at least half of a run of an hour"));
    // Counts are counts: they stay.
    EXPECT_TRUE(tile(view, "interruptionsTile").showsFigure());
    EXPECT_EQ(tile(view, "interruptionsTile").value(), "1");
}

TEST(SummaryView, AOneMinuteCrashShowsTheReasonNotAFigure) {
    expectReasonsNotFigures(test::oneMinuteCrash());
    SummaryView view;
    view.setSummary(summarize(test::oneMinuteCrash()));
    EXPECT_EQ(tile(view, "mtbfTile").detail(),
              "needs at least two unexpected failures over at least a day of run (the files hold 1 unexpected failure in 1 min)");
}

TEST(SummaryView, AnEighteenMillisecondHangShowsTheReasonNotAFigure) { expectReasonsNotFigures(test::eighteenMillisecondHang()); }

TEST(SummaryView, TheSampleRunShowsEveryFigure) {
    test::guiApp();
    SimulationParams p = simulationPreset("llama3-405b");
    p.seed = 1;
    p.telemetry.interval = 0;  // the tiles do not read it
    const RunSummary s = summarize(simulate(p));
    SummaryView view;
    view.setSummary(s);
    for (const char* name : kEvidenceTiles) EXPECT_TRUE(tile(view, name).showsFigure()) << name;
    EXPECT_EQ(tile(view, "ettrTile").value(), QString::fromStdString(formatPercent(s.ettr)));
    EXPECT_EQ(tile(view, "mtbfTile").value(), QString::fromStdString(formatDuration(s.mtbf)));
    EXPECT_EQ(tile(view, "detectionTile").value(), QString::fromStdString(formatDuration(s.downtime.detection)));
}

}  // namespace
}  // namespace faultline
