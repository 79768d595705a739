// Short evidence opened as a reviewer opens it after an incident: a minute of crash log or
// 18 ms of a hang's Flight Recorder dumps opens on the first symptom, with the failed GPU red
// where it is drawn, the status line saying what failed and no tile giving a figure the
// evidence cannot support.
#include "gui_test_app.h"
#include "manual_animation_clock.h"
#include "open_in_window.h"
#include "shown_fabric.h"
#include "test_runs.h"

#include "app/main_window.h"
#include "model/run_file.h"
#include "model/time_notes.h"
#include "model/unplaced_hosts.h"
#include "views/fabric/scene_labels.h"
#include "views/fabric/fabric_view.h"
#include "views/gpu_palette.h"
#include "views/incident_view.h"
#include "views/replay_panel.h"
#include "widgets/stat_tile.h"
#include "widgets/vtk_render_widget.h"

#include <QAbstractButton>
#include <QLabel>
#include <QPlainTextEdit>
#include <QRegularExpression>

#include <algorithm>

#include <QTest>

#include <gtest/gtest.h>

namespace faultline {
namespace {

struct Opened {
    explicit Opened(const faultline::Run& run) {
        writeRunFile(run, dir.file("run.faultline"));
        window.resize(1600, 1000);
        window.show();
        // Laid out at its size before the run is framed: a window still being mapped frames
        // the camera for a view of another size (seen on a busy X server).
        ok = QTest::qWaitForWindowExposed(&window) && test::openAndWait(window, dir.file("run.faultline"));
    }
    bool appReady = (test::guiApp(), true);  // before any widget
    test::ManualAnimationClock clock;        // the camera's flight ends when the test says
    test::ScratchDir dir;
    MainWindow window;
    bool ok = false;
};

void expectOpensOnTheFailure(const faultline::Run& run, std::int32_t gpu, const QString& status) {
    Opened w(run);
    ASSERT_TRUE(w.ok);
    ReplayPanel& replay = *w.window.replayPanel();
    EXPECT_EQ(replay.time(), run.failures.front().time) << "opens at the first symptom, not at 0";
    auto* incidents = w.window.findChild<IncidentView*>();
    ASSERT_NE(incidents, nullptr);
    EXPECT_EQ(incidents->selectedIncidentId(), 1);
    const QString line = w.window.findChild<QLabel*>("replayStatus")->text();
    EXPECT_TRUE(line.contains(status)) << line.toStdString();
    EXPECT_FALSE(line.contains("step 0")) << line.toStdString();

    FabricView& view = *replay.fabricView();
    // Labelled and selected, as when the incident is clicked.
    EXPECT_EQ(view.selected(), (ComponentRef{ComponentKind::Gpu, gpu}));
    EXPECT_EQ(view.blastLabel().toStdString(), run.topology.gpuName(gpu) + " failed");
    // The flight to the failed GPU, to its end. Qt's animation timer may count the first
    // second of a test's clock against the time an earlier test's animations ran on, so the
    // clock is moved on until the flight says it is over, not by a fixed amount.
    for (int second = 0; second < 60 && (second == 0 || view.flying()); ++second) w.clock.advanceBy(1'000);
    ASSERT_FALSE(view.flying()) << "the flight to the failed GPU never ended";
    const QImage frame = view.renderImage().convertToFormat(QImage::Format_RGB32);
    const QPointF at = view.gpuPosition(gpu);
    ASSERT_TRUE(QRectF(QPointF(0, 0), QSizeF(view.renderWidget()->size())).contains(at))
        << "the failed GPU at " << at.x() << "," << at.y() << " of a view of " << view.renderWidget()->width() << "x" << view.renderWidget()->height();
    EXPECT_TRUE(test::near(test::colourAt(frame, at), kFailedColour[0], kFailedColour[1], kFailedColour[2]))
        << test::colourAt(frame, at).name().toStdString();

    for (const char* name : {"ettrTile", "mtbfTile", "detectionTile"}) {
        auto* tile = w.window.findChild<StatTile*>(name);
        ASSERT_NE(tile, nullptr) << name;
        EXPECT_FALSE(tile->showsFigure()) << name << ": " << tile->value().toStdString();
        EXPECT_EQ(tile->value(), "not enough of the run to say") << name;
        EXPECT_TRUE(tile->detail().startsWith("needs ")) << name;
    }
}

TEST(ShortEvidence, ACrashLogOpensOnItsFailedGpu) {
    expectOpensOnTheFailure(test::oneMinuteCrash(), 12, "failed: GPU HBM3 Memory on ");
}

TEST(ShortEvidence, AHangsDumpsOpenOnTheirFirstSymptom) {
    faultline::Run hang = test::eighteenMillisecondHang();
    hang.downtimes.clear();  // the dumps say the job hung, not when it was torn down
    expectOpensOnTheFailure(hang, 10, "failed: NCCL Watchdog Timeouts on ");
}

// Dumps that name no host: their ranks are drawn apart as unplaced (a zone of their own, so
// labelled) and named "rank N (host unknown)" in the 3D label, the inspector and the incident,
// never as an invented host; a yearless date's failure says "year assumed" beside its time.
TEST(ShortEvidence, UnplacedRanksAreNamedByRankWithTheirHostUnknown) {
    faultline::Run hang = test::eighteenMillisecondHang();
    hang.downtimes.clear();
    for (std::size_t h = 0; h < hang.topology.hosts.size(); ++h)
        hang.topology.hosts[h].name = unplacedHostName(static_cast<std::int32_t>(8 * h), static_cast<std::int32_t>(8 * h + 7));
    for (Zone& z : hang.topology.zones) z.name = std::string(kUnplacedZoneName);
    for (std::int32_t r = 0; r < 16; ++r) hang.rankToGpu.push_back(r);
    hang.failures.front().suspectRanks = {10, 15};
    hang.failures.front().detail += kYearAssumedNote;
    Opened w(hang);
    ASSERT_TRUE(w.ok);
    const QString chain = w.window.findChild<QPlainTextEdit*>("incidentChain")->toPlainText();
    EXPECT_TRUE(chain.contains("where: rank 10 (host unknown), rank 15 (host unknown)")) << chain.toStdString();
    const QString when = chain.split('\n').filter(QRegularExpression("^when: ")).value(0);
    EXPECT_TRUE(when.endsWith(" (year assumed)")) << chain.toStdString();
    EXPECT_EQ(w.window.findChild<QLabel*>("inspectorTitle")->text(), "rank 10 (host unknown)");
    EXPECT_TRUE(w.window.findChild<QLabel*>("inspectorDetails")->text().contains("host unknown")) << w.window.findChild<QLabel*>("inspectorDetails")->text().toStdString();
    FabricView& view = *w.window.replayPanel()->fabricView();
    EXPECT_EQ(view.blastLabel(), "rank 10 (host unknown) failed");
    w.clock.advanceBy(100);
    w.clock.advanceBy(5'000);
    view.fitAll();
    view.renderImage();
    const auto& placed = view.labels()->placed();
    EXPECT_TRUE(std::any_of(placed.begin(), placed.end(), [](const auto& p) { return p.text == kUnplacedZoneName && p.shown; }))
        << "the unplaced ranks' group is labelled";
}

TEST(ShortEvidence, ARunWithAHistoryOpensAtItsStart) {
    Opened w(test::tinyRun());
    ASSERT_TRUE(w.ok);
    EXPECT_EQ(w.window.replayPanel()->time(), 0);
    EXPECT_EQ(w.window.findChild<IncidentView*>()->selectedIncidentId(), -1);
    EXPECT_TRUE(w.window.findChild<StatTile*>("mtbfTile")->showsFigure());
}

// A one-line crash spans no time: the replay row says the instant and how its time is known,
// with no scrubber of no length and nothing to play, never "0 s of 0 s".
TEST(ShortEvidence, EvidenceOfOneInstantSaysItsInstantNotZeroOfZero) {
    Opened w(test::oneInstantCrash());
    ASSERT_TRUE(w.ok);
    const QString time = w.window.findChild<QLabel*>("replayTime")->text();
    EXPECT_EQ(time, "one instant: 2024-06-01 12:00:03 UTC (time inferred)");
    EXPECT_FALSE(time.contains("0 s of 0 s"));
    EXPECT_FALSE(w.window.findChild<QWidget*>("timeScrubber")->isVisible());
    auto* play = w.window.findChild<QAbstractButton*>("playPause");
    ASSERT_NE(play, nullptr);
    EXPECT_FALSE(play->isEnabled());
    w.window.replayPanel()->play();
    EXPECT_FALSE(w.window.replayPanel()->isPlaying());

    // A run with a span has its scrubber back.
    Opened span(test::oneMinuteCrash());
    ASSERT_TRUE(span.ok);
    EXPECT_TRUE(span.window.findChild<QWidget*>("timeScrubber")->isVisible());
    EXPECT_TRUE(span.window.findChild<QLabel*>("replayTime")->text().endsWith(" of 1 min"));
}

}  // namespace
}  // namespace faultline
