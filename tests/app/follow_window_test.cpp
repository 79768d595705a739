// File > Follow Job Folder (issue 40): a running job's folder opens as a live run; a line
// written later shows its incident in the list and the status line, and the run is shown
// again without moving the camera, the instant or the selected incident. With a Prometheus
// server (Debian's, started here; skipped with the reason where it is not installed), the
// metrics are pulled at each look too, and a server that stops answering is told.
#include "app_process.h"
#include "growing_files.h"
#include "gui_test_app.h"
#include "prometheus_server.h"
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
#include <set>

namespace faultline {
namespace {

namespace fs = std::filesystem;

void appendXid(const fs::path& log, int minute, int node) { test::append(log.string(), test::xidLine(minute, node)); }

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


// The GPUs with power readings in the run shown.
std::set<std::int32_t> gpusWithPower(const MainWindow& window) {
    std::set<std::int32_t> gpus;
    if (!window.currentRun()) return gpus;
    const Telemetry& tm = window.currentRun()->run.telemetry;
    const auto power = tm.metricIndex(kPowerMetric);
    if (!power || tm.levels.empty()) return gpus;
    std::vector<TelemetrySummarySeries> read;
    for (const TelemetrySummarySeries& s : tm.metricSeries(0, *power, read)) gpus.insert(s.gpu);
    return gpus;
}

// File > Follow Job Folder with Prometheus (and `faultline --follow DIR --prometheus URL`).
TEST(FollowWindow, WithPrometheusTheMetricsArriveAndAServerThatStopsAnsweringIsTold) {
    if (const auto missing = test::prometheusMissing()) GTEST_SKIP() << *missing;
    test::guiApp();
    const test::History& history = test::backfilledHistory({"2d-64gpu-15s", 64, 2 * kDay, 15 * kSecond, false});
    test::PrometheusProcess server(history.blocks);
    test::ScratchDir dir;
    const fs::path job = dir.path() / "job";
    fs::create_directories(job);
    test::append((job / "syslog").string(), test::xidLineAt(history.first + kHour, history.hosts[0]));

    MainWindow window;
    window.resize(1400, 900);
    window.show();
    PrometheusPullOptions pull;
    pull.server.url = server.url();
    pull.hosts = {history.hosts[0], history.hosts[1]};
    pull.metrics = {std::string(kPowerMetric), std::string(kTemperatureMetric)};
    window.followFolder(QString::fromStdString(job.string()), pull);
    ASSERT_TRUE(window.follower());
    EXPECT_EQ(window.follower()->pullUrl().toStdString(), server.url());
    // The two hosts' 16 GPUs, from the Xid line up to the history's end.
    ASSERT_TRUE(QTest::qWaitFor([&] { return gpusWithPower(window).size() == 16u; }, 120'000)) << gpusWithPower(window).size() << " GPUs with power";
    ASSERT_TRUE(window.currentRun());
    EXPECT_EQ(window.currentRun()->incidents.size(), 1u);
    auto* status = window.findChild<QLabel*>("followStatus");
    ASSERT_TRUE(status);
    EXPECT_TRUE(status->text().contains("; metrics from 127.0.0.1")) << status->text().toStdString();
    EXPECT_TRUE(status->toolTip().contains(QString::fromStdString(server.url()))) << status->toolTip().toStdString();

    // The server stops: told once in the status bar and the status line; following goes on
    // with what was pulled, and the metrics come back with the server.
    server.stop();
    ASSERT_TRUE(QTest::qWaitFor([&] { return status->text().contains("127.0.0.1 not answering"); }, 120'000)) << status->text().toStdString();
    const QString told = window.statusBar()->currentMessage();
    EXPECT_TRUE(told.startsWith(QString("Pulling from %1 failed: ").arg(QString::fromStdString(server.url())))) << told.toStdString();
    EXPECT_TRUE(told.endsWith("(asked again at the next look; what was pulled is kept)")) << told.toStdString();
    EXPECT_EQ(gpusWithPower(window).size(), 16u);
    server.restart();
    ASSERT_TRUE(QTest::qWaitFor([&] { return status->text().contains("; metrics from 127.0.0.1"); }, 120'000)) << status->text().toStdString();
    EXPECT_EQ(gpusWithPower(window).size(), 16u);
    window.stopFollowing();
    EXPECT_FALSE(window.follower());
}

// The command line's --prometheus goes with --follow, and a URL it cannot use is a usage error.
TEST(FollowWindow, PrometheusOnTheCommandLineGoesWithFollow) {
    test::ScratchDir dir;
    test::AppResult r = test::runApp({"--prometheus", "http://127.0.0.1:9"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_TRUE(r.errors.contains("--prometheus goes with --follow DIR")) << r.errors.toStdString();
    r = test::runApp({"--follow", QString::fromStdString(dir.path().string()), "--token-file", QString::fromStdString(dir.file("token"))});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_TRUE(r.errors.contains("--token-file and --basic-auth-file go with --prometheus URL")) << r.errors.toStdString();
    r = test::runApp({"--follow", QString::fromStdString(dir.path().string()), "--prometheus", "http://user:secret@host:9090"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_TRUE(r.errors.contains("--prometheus: http://host:9090: put the user and password in --basic-auth-file")) << r.errors.toStdString();
    EXPECT_FALSE(r.errors.contains("secret")) << "credentials in a URL are never printed: " << r.errors.toStdString();
}
}  // namespace
}  // namespace faultline
