// File > Follow Job Folder (issue 40): a running job's folder opens as a live run; a line
// written later shows its incident in the list and the status line, and the run is shown
// again without moving the camera, the instant or the selected incident.
#include "gui_test_app.h"
#include "test_runs.h"

#include "app/job_follower.h"
#include "app/main_window.h"
#include "views/fabric/fabric_view.h"
#include "views/incident_view.h"
#include "views/replay_panel.h"

#include <QAction>
#include <QLabel>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTest>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace faultline {
namespace {

namespace fs = std::filesystem;

void appendXid(const fs::path& log, int minute, int node) {
    char line[200];
    std::snprintf(line, sizeof line, "2025-01-21T04:%02d:10+0000 gpu-node-%02d kernel: NVRM: Xid (PCI:0000:1b:00): 79, pid=77, name=python, GPU has fallen off the bus.\n",
                  minute, node);
    std::ofstream(log, std::ios::app) << line;
}

TEST(FollowWindow, ALineWrittenLaterArrivesWithoutMovingTheReviewersView) {
    test::guiApp();
    test::ScratchDir dir;
    const fs::path job = dir.path() / "job";
    fs::create_directories(job);
    const fs::path log = job / "syslog";
    appendXid(log, 10, 1);
    appendXid(log, 12, 2);

    MainWindow window;
    window.resize(1400, 900);
    window.show();
    QSignalSpy shown(&window, &MainWindow::runShown);
    window.followFolder(QString::fromStdString(job.string()));
    ASSERT_TRUE(window.follower());
    ASSERT_TRUE(shown.wait(60'000));
    ASSERT_TRUE(window.currentRun());
    EXPECT_EQ(window.currentRun()->incidents.size(), 2u);
    auto* status = window.findChild<QLabel*>("followStatus");
    ASSERT_TRUE(status);
    EXPECT_TRUE(status->isVisible());
    EXPECT_TRUE(status->text().startsWith("Following job: updated ")) << status->text().toStdString();

    // The reviewer looks at the second incident from a camera of their own, at an instant.
    auto* incidents = window.findChild<IncidentView*>();
    ASSERT_TRUE(incidents);
    ASSERT_TRUE(incidents->selectIncident(2));
    CameraPose pose = window.replayPanel()->fabricView()->cameraPose();
    pose.position[0] += 3.5;
    pose.position[2] += 1.25;
    window.replayPanel()->fabricView()->setCameraPose(pose);
    // Wall-clock times: the earlier failure below moves the run's start.
    const std::int64_t instant = window.currentRun()->run.info.startEpochNs + window.replayPanel()->time();
    const std::int64_t selectedAt = window.currentRun()->run.info.startEpochNs + window.currentRun()->incidents[1].begin;

    // An earlier GPU's failure arrives (it numbers the others anew), then a later one.
    appendXid(log, 14, 3);
    appendXid(job / "node00.log", 9, 4);
    ASSERT_TRUE(QTest::qWaitFor([&] { return window.currentRun() && window.currentRun()->incidents.size() == 4u; }, 60'000));
    QTest::qWait(0);
    const CameraPose after = window.replayPanel()->fabricView()->cameraPose();
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(after.position[i], pose.position[i], 1e-6);
    const std::int64_t start = window.currentRun()->run.info.startEpochNs;
    EXPECT_EQ(start + window.replayPanel()->time(), instant);
    const int selected = incidents->selectedIncidentId();
    ASSERT_GE(selected, 1);
    EXPECT_EQ(start + window.currentRun()->incidents[static_cast<std::size_t>(selected - 1)].begin, selectedAt);
    const QString message = window.statusBar()->currentMessage();
    EXPECT_TRUE(message.startsWith("New incident: ")) << message.toStdString();
    // Only what arrived after the folder was first shown is news.
    EXPECT_EQ(message.count("Faulty GPU"), 2) << message.toStdString();
    EXPECT_TRUE(message.contains("gpu-node-03") && message.contains("gpu-node-04")) << message.toStdString();

    window.stopFollowing();
    EXPECT_FALSE(window.follower());
    EXPECT_FALSE(status->isVisible());
    EXPECT_FALSE(window.findChild<QAction*>("stopFollowingAction")->isEnabled());
    EXPECT_EQ(window.currentRun()->incidents.size(), 4u);  // the run as last read stays open
}

}  // namespace
}  // namespace faultline
