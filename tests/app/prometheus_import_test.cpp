// File > Import from Prometheus... as a user meets it: the dialog pre-filled from the open run
// (its span, its topology's hosts), a bad field named before anything is asked, and a pull
// from a real Prometheus server (Debian's, started here; skipped without it) run off the GUI
// thread with the import's progress dialog, writing a run file that keeps where it came from.
#include "gui_test_app.h"

#include "app/import_controller.h"
#include "app/import_dialog.h"
#include "app/prometheus_dialog.h"
#include "model/pulled_sources.h"
#include "model/run_file.h"
#include "prometheus_server.h"
#include "test_runs.h"

#include <QDateTimeEdit>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QSignalSpy>
#include <QTimer>

#include <gtest/gtest.h>

#include <cstdlib>

namespace faultline {
namespace {

TEST(PrometheusImportGui, TheDialogTakesTheSpanAndHostsOfTheOpenRun) {
    test::guiApp();
    const faultline::Run& run = test::tinyRun();  // "Run" alone is gtest's Test::Run here
    PrometheusDialog dialog;
    dialog.prefill(&run);
    const auto* from = dialog.findChild<QDateTimeEdit*>("prometheusFrom");
    const auto* to = dialog.findChild<QDateTimeEdit*>("prometheusTo");
    // To the second the dialog shows.
    EXPECT_LE(std::llabs(from->dateTime().toMSecsSinceEpoch() - run.info.startEpochNs / 1'000'000), 1000);
    EXPECT_LE(std::llabs(to->dateTime().toMSecsSinceEpoch() - (run.info.startEpochNs + run.info.duration) / 1'000'000), 1000);
    const QString hosts = dialog.findChild<QPlainTextEdit*>("prometheusHosts")->toPlainText();
    for (const Host& h : run.topology.hosts) EXPECT_TRUE(hosts.contains(QString::fromStdString(h.name))) << h.name;

    // No URL yet: Pull stays in the dialog and says why.
    dialog.show();
    dialog.accept();
    EXPECT_TRUE(dialog.isVisible());
    EXPECT_NE(dialog.findChild<QLabel*>("prometheusError")->text().indexOf("is not a Prometheus server's URL"), -1);
    dialog.findChild<QLineEdit*>("prometheusUrl")->setText("http://alice:pw@prom:9090");
    dialog.accept();
    EXPECT_NE(dialog.findChild<QLabel*>("prometheusError")->text().indexOf("--basic-auth-file"), -1);
    dialog.findChild<QLineEdit*>("prometheusUrl")->setText("http://prom:9090");
    QString error;
    const auto pull = dialog.pullOptions(&error);
    ASSERT_TRUE(pull) << error.toStdString();
    EXPECT_EQ(pull->hosts.size(), run.topology.hosts.size());
    EXPECT_LE(std::llabs(pull->from - run.info.startEpochNs), kSecond);
}

TEST(PrometheusImportGui, APullRunsOffTheGuiThreadAndWritesARunThatSaysWhereItCameFrom) {
    test::guiApp();
    if (const auto missing = test::prometheusMissing()) GTEST_SKIP() << *missing;
    const test::History& history = test::backfilledHistory({"2d-64gpu-15s", 64, 2 * kDay, 15 * kSecond, false});
    test::PrometheusProcess server(history.blocks);
    test::ScratchDir dir;
    QWidget window;
    ImportController controller(&window);
    QSignalSpy imported(&controller, &ImportController::imported);
    int ticks = 0;
    QTimer ticker;
    QObject::connect(&ticker, &QTimer::timeout, [&] { ++ticks; });
    ticker.start(10);
    PrometheusPullOptions pull;
    pull.server.url = server.url();
    pull.from = history.first;
    pull.to = history.last;
    pull.hosts = history.hosts;
    pull.metrics = {"DCGM_FI_DEV_POWER_USAGE"};
    const QString out = QString::fromStdString(dir.file("pulled.faultline"));
    controller.importFromPrometheus(pull, out);
    ASSERT_TRUE(controller.busy());
    ASSERT_TRUE(imported.wait(120000));
    EXPECT_GT(ticks, 0) << "the window kept processing events while pulling";
    EXPECT_NE(controller.dialog()->reportText().indexOf("format: prometheus"), -1) << controller.dialog()->reportText().toStdString();
    EXPECT_EQ(controller.dialog()->findChild<QProgressBar*>("importProgress")->value(), 1000);
    const faultline::Run run = readRunFile(out.toStdString());
    EXPECT_EQ(run.topology.gpus.size(), static_cast<std::size_t>(history.gpus));
    const auto pulls = readPulledSources(out.toStdString());
    ASSERT_EQ(pulls.size(), 1u);
    EXPECT_EQ(pulls[0].url, server.url());
}

}  // namespace
}  // namespace faultline
