// The hang view: who hung the job, reachable from View > Hang, the hang incident's review pane
// and the inspector of a GPU that took part; at 16,384 ranks it paints only the lanes shown.
#include "gui_test_app.h"
#include "open_in_window.h"
#include "test_runs.h"
#include "realdata.h"

#include "app/hang_window.h"
#include "analysis/hang_lanes.h"
#include "app/main_window.h"
#include "importers/importer.h"
#include "model/run_file.h"
#include "views/hang_view.h"
#include "views/gpu_palette.h"
#include "views/incident_view.h"
#include "views/inspector_view.h"
#include "views/replay_panel.h"
#include "views/timeline_view.h"

#include <QAction>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include <gtest/gtest.h>

namespace faultline {
namespace {

using test::ScratchDir;

constexpr int kDeadlineMs = 30'000;

HangWindow* hangWindowOf(MainWindow& window) { return window.findChild<HangWindow*>("hangWindow"); }

// The real Flight Recorder dumps of a job rank 12 hung (ranks 13-15 wait for it), imported.
std::string importHungJob(const ScratchDir& dir) {
    const std::string path = dir.file("fr.faultline");
    importToRunFile({test::realData("flight_recorder/nvidia-resiliency-ext/tests/attribution/unit/fr_traces/gpu_error_1st")}, path, {});
    return path;
}

TEST(HangView, AnImportedHangIsShownFromTheMenuTheIncidentAndTheInspector) {
    FAULTLINE_REQUIRE_REALDATA();
    test::guiApp();
    ScratchDir dir;
    const std::string path = importHungJob(dir);
    const faultline::Run run = readRunFile(path);
    test::WindowOnRun w(path, {1600, 1000});
    ASSERT_TRUE(w.shown);
    MainWindow& window = w.window;

    // View > Hang: rank 12 first, marked the culprit; 13-15 waiting, each with a flow to it.
    auto* action = window.findChild<QAction*>("hangAction");
    ASSERT_TRUE(action);
    EXPECT_TRUE(action->isEnabled());
    action->trigger();
    HangWindow* hang = hangWindowOf(window);
    ASSERT_TRUE(hang);
    EXPECT_TRUE(QTest::qWaitForWindowExposed(hang));
    EXPECT_TRUE(hang->findChild<QLabel*>("hangHeadline")->text().contains(
        "rank 12 never joined all_to_all #20537 in process group 74 (EXPERT_MODEL_PARALLEL_GROUP); ranks 13-15 wait in it"));
    const auto& lanes = hang->view()->hangLanes();
    ASSERT_TRUE(lanes);
    ASSERT_GE(lanes->lanes.size(), 4u);
    EXPECT_EQ(lanes->lanes[0].rank, 12);
    EXPECT_EQ(lanes->lanes[0].role, HangRole::Culprit);
    for (int i = 1; i <= 3; ++i) EXPECT_EQ(lanes->lanes[static_cast<std::size_t>(i)].role, HangRole::Waiting) << i;
    ASSERT_EQ(lanes->flows.size(), 3u);
    for (const HangFlow& f : lanes->flows) {
        EXPECT_EQ(f.to, 12);
        ASSERT_TRUE(f.fromRecord && f.toRecord) << f.from;
        EXPECT_EQ(run.collectives.at(*f.fromRecord).seq, 20537) << "each waiting rank is stuck in the collective rank 12 never joined";
    }
    const QString culpritTip = hang->view()->toolTipAt(hang->view()->laneRect(0).center() - QPoint(hang->view()->width() / 2, 0));
    EXPECT_TRUE(culpritTip.startsWith("rank 12 on ")) << culpritTip.toStdString();
    EXPECT_TRUE(culpritTip.contains("the culprit")) << culpritTip.toStdString();
    hang->close();
    ASSERT_TRUE(QTest::qWaitFor([&] { return hangWindowOf(window) == nullptr; }, kDeadlineMs));

    // The hang's incident: its review pane offers the hang.
    auto* incidents = window.findChild<IncidentView*>();
    auto* table = incidents->findChild<QTableView*>("incidentTable");
    ASSERT_EQ(table->model()->rowCount(), 1);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(table->model()->index(0, 1)).center());
    auto* button = incidents->findChild<QPushButton*>("showHangButton");
    ASSERT_TRUE(QTest::qWaitFor([&] { return button->isVisible(); }, kDeadlineMs));
    button->click();
    ASSERT_TRUE(hangWindowOf(window));
    hangWindowOf(window)->close();
    ASSERT_TRUE(QTest::qWaitFor([&] { return hangWindowOf(window) == nullptr; }, kDeadlineMs));

    // The inspector of rank 13's GPU says it waits in the hang, and links to it.
    auto* inspector = window.findChild<InspectorView*>();
    inspector->showPart({ComponentKind::Gpu, run.rankToGpu[13]});
    auto* line = inspector->findChild<QLabel*>("inspectorHang");
    EXPECT_TRUE(line->isVisible());
    EXPECT_TRUE(line->text().startsWith("Rank 13 waits in the hang: rank 12 never joined")) << line->text().toStdString();
    emit line->linkActivated("13");
    ASSERT_TRUE(hangWindowOf(window));
    EXPECT_GE(hangWindowOf(window)->view()->laneOfRank(13), 0);
}

// The timeline's rank lanes show the hang too: from the moment it began the culprit's lane is
// filled in the failed colour and a waiting rank's hatched with it, and their tooltips say so.
TEST(HangView, TheTimelineMarksTheHangOnItsRankLanes) {
    FAULTLINE_REQUIRE_REALDATA();
    test::guiApp();
    ScratchDir dir;
    const auto run = std::make_shared<const faultline::Run>(readRunFile(importHungJob(dir)));
    const std::optional<RankInHang> culprit = rankInHang(*run, 12), waiting = rankInHang(*run, 13);
    ASSERT_TRUE(culprit && waiting);
    EXPECT_TRUE(culprit->culprit);
    EXPECT_FALSE(waiting->culprit);
    EXPECT_FALSE(rankInHang(*run, 0)) << "rank 0 takes no part in the hang";

    TimelineView view;
    view.resize(1600, 600);
    view.setRun(run);
    view.setVisibleRange(culprit->begin - 200 * kMillisecond, culprit->begin + 200 * kMillisecond);
    ASSERT_TRUE(view.showsRankLanes());
    const int culpritLane = view.laneOfRank(12), waitingLane = view.laneOfRank(13), otherLane = view.laneOfRank(0);
    ASSERT_GE(culpritLane, 0);
    ASSERT_GE(waitingLane, 0);
    ASSERT_GE(otherLane, 0);
    QImage image(view.size(), QImage::Format_RGB32);
    view.render(&image);
    const Rgb failed = activeStatePalette().failed;
    auto failedPixels = [&](int lane, Nanos from, Nanos to) {
        const QRect r = view.laneRect(lane);
        int n = 0;
        for (int x = static_cast<int>(view.xOf(from)) + 3; x < static_cast<int>(view.xOf(to)) - 3; ++x)
            for (int y = r.top(); y <= r.bottom(); ++y) n += image.pixelColor(x, y) == QColor(failed[0], failed[1], failed[2]);
        return n;
    };
    const Nanos begin = culprit->begin, end = view.visibleEnd();
    EXPECT_EQ(failedPixels(culpritLane, view.visibleBegin(), begin), 0) << "not before the hang";
    const int culpritArea = view.laneRect(culpritLane).height() * static_cast<int>(view.xOf(end) - view.xOf(begin) - 6);
    EXPECT_GT(failedPixels(culpritLane, begin, end), culpritArea * 9 / 10) << "the culprit's lane is filled";
    const int hatched = failedPixels(waitingLane, begin, end);
    EXPECT_GT(hatched, culpritArea / 10) << "the waiting rank's lane is hatched";
    EXPECT_LT(hatched, culpritArea * 7 / 10) << "hatched, not filled";
    EXPECT_EQ(failedPixels(otherLane, begin, end), 0);

    const int x = static_cast<int>((view.xOf(begin) + view.xOf(end)) / 2);
    const QString culpritTip = view.toolTipAt({x, view.laneRect(culpritLane).center().y()});
    EXPECT_TRUE(culpritTip.startsWith("rank 12: hung since")) << culpritTip.toStdString();
    EXPECT_TRUE(culpritTip.contains("never joined nccl:all_to_all #20537 in process group 74")) << culpritTip.toStdString();
    const QString waitingTip = view.toolTipAt({x, view.laneRect(waitingLane).center().y()});
    EXPECT_TRUE(waitingTip.startsWith("rank 13: waiting since")) << waitingTip.toStdString();
}

// A job of 16,384 ranks: every rank has a lane, the culprit's first, and the view paints the
// top, the middle and the bottom of the list (only the lanes shown: see bench_hang_view).
TEST(HangView, SixteenThousandLanesScrollToAnyRank) {
    test::guiApp();
    constexpr std::int32_t kRanks = 16'384;
    auto run = std::make_shared<faultline::Run>(test::tinyRun());
    run->rankToGpu.resize(static_cast<std::size_t>(kRanks));
    for (std::int32_t r = 0; r < kRanks; ++r) run->rankToGpu[static_cast<std::size_t>(r)] = r % static_cast<std::int32_t>(run->topology.gpus.size());
    run->collectiveOps = {"all_reduce"};
    std::vector<std::int32_t> all(static_cast<std::size_t>(kRanks));
    for (std::int32_t r = 0; r < kRanks; ++r) all[static_cast<std::size_t>(r)] = r;
    run->processGroups = {{"0", all}};
    constexpr std::int32_t kCulprit = 9'001;
    for (std::int64_t seq = 0; seq < 4; ++seq)
        for (std::int32_t r = 0; r < kRanks; ++r) {
            if (seq == 3 && r == kCulprit) continue;  // it never joined the fourth
            const Nanos enter = seq * kSecond + r;
            run->collectives.push_back({r, 0, 0, seq, enter, seq == 3 ? enter : enter + 100 * kMillisecond, 1 << 20});
        }
    HangReport hang;
    hang.dumps = kRanks;
    HangFinding f;
    f.processGroup = "0";
    f.groupRanks = all;
    f.seq = 3;
    f.op = "nccl:all_reduce";
    f.enqueuedNs = run->info.startEpochNs + 3 * kSecond;
    f.missing = {kCulprit};
    for (std::int32_t r = 0; r < kRanks; ++r)
        if (r != kCulprit) f.stuck.push_back(r);
    hang.findings = {f};
    hang.origins = {{0, {kCulprit}, f.stuck}};
    hang.culprits = {kCulprit};
    run->hang = hang;

    HangView view;
    view.resize(1200, 700);
    view.setRun(run, buildCollectiveLanes(*run));
    const auto& lanes = view.hangLanes();
    ASSERT_TRUE(lanes);
    ASSERT_EQ(lanes->lanes.size(), static_cast<std::size_t>(kRanks));
    EXPECT_EQ(lanes->lanes[0].rank, kCulprit);
    EXPECT_EQ(lanes->flows.size(), static_cast<std::size_t>(kRanks - 1));
    for (int lane : {0, kRanks / 2, kRanks - 1}) {
        view.scrollToLane(lane);
        const QImage shot = view.grab().toImage();
        EXPECT_FALSE(shot.isNull());
        EXPECT_LE(view.firstVisibleLane(), lane);
    }
    EXPECT_EQ(view.laneOfRank(kRanks - 1), kRanks - 1);
}

}  // namespace
}  // namespace faultline
