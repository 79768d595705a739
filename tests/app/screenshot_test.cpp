// `faultline --screenshot` as users and reports use it, and what the binary links.
#include "gui_test_app.h"
#include "app_process.h"
#include "telemetry_test_run.h"
#include "test_runs.h"

#include "model/replay_state.h"
#include "model/run_file.h"
#include "views/charts_view.h"
#include "views/gpu_palette.h"
#include "views/power_chart.h"

#include <QApplication>
#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QTest>

#include <gtest/gtest.h>

#include <cmath>

namespace faultline {
namespace {

using test::AppResult;
using test::runApp;
using test::ScratchDir;

// Pixels of colour `c` in the 3D view: left of the side column, and above the strip along the
// view's bottom where its legend has a swatch of every colour (the camera keeps clear of it).
int pixelsOfTheHall(const QImage& image, Rgb c) {
    constexpr int kSideColumn = 360;
    const QRect legendStrip(0, image.height() - 220, image.width(), 220);
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width() - kSideColumn; ++x) {
            if (legendStrip.contains(x, y)) continue;
            const QColor p = image.pixelColor(x, y);
            n += std::abs(p.red() - c[0]) <= 12 && std::abs(p.green() - c[1]) <= 12 && std::abs(p.blue() - c[2]) <= 12;
        }
    return n;
}

// --at in whole milliseconds, rounded up so the instant is not before `t`.
QString at(Nanos t) { return QString("%1ms").arg((t + kMillisecond - 1) / kMillisecond); }

TEST(Screenshot, AtAFailureShowsRedThatAMinuteBeforeDoesNot) {
    test::guiApp();
    const faultline::Run& run = test::tinyRun();
    const ReplayIndex index(run);
    // A failure with nothing else failed the minute before it.
    const Failure* failure = nullptr;
    for (const Failure& f : run.failures) {
        const auto before = index.statesAt(f.time - kMinute);
        if (!f.gpus.empty() && std::none_of(before.begin(), before.end(), [](const GpuVisual& v) { return v.state == GpuState::Failed; })) {
            failure = &f;
            break;
        }
    }
    ASSERT_NE(failure, nullptr);
    ScratchDir dir;
    const std::string file = dir.file("tiny.faultline");
    writeRunFile(run, file);
    const QString shotAt = QString::fromStdString(dir.file("at.png"));
    const QString shotBefore = QString::fromStdString(dir.file("before.png"));
    AppResult r = runApp({"--screenshot", shotAt, "--at", at(failure->time), "--size", "1200x800", QString::fromStdString(file)});
    ASSERT_EQ(r.exitCode, 0) << r.errors.toStdString();
    r = runApp({"--screenshot", shotBefore, "--at", at(failure->time - kMinute), "--size", "1200x800", QString::fromStdString(file)});
    ASSERT_EQ(r.exitCode, 0) << r.errors.toStdString();
    const QImage atImage(shotAt), beforeImage(shotBefore);
    ASSERT_EQ(atImage.size(), QSize(1200, 800));
    EXPECT_GT(pixelsOfTheHall(atImage, kFailedColour), 8 * static_cast<int>(failure->gpus.size()));
    EXPECT_EQ(pixelsOfTheHall(beforeImage, kFailedColour), 0);
}

TEST(Screenshot, StepPicksTheInstantThatStepCompletedAndUnknownStepsAreRefused) {
    test::guiApp();
    ScratchDir dir;
    const std::string file = dir.file("tiny.faultline");
    writeRunFile(test::tinyRun(), file);
    const QString png = QString::fromStdString(dir.file("step.png"));
    AppResult r = runApp({"--screenshot", png, "--step", "1000", "--size", "800x600", QString::fromStdString(file)});
    ASSERT_EQ(r.exitCode, 0) << r.errors.toStdString();
    EXPECT_EQ(QImage(png).size(), QSize(800, 600));
    r = runApp({"--screenshot", png, "--step", "99999999", QString::fromStdString(file)});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_TRUE(r.errors.contains("never completed step 99999999")) << r.errors.toStdString();
    r = runApp({"--screenshot", png, "--at", "yesterday", QString::fromStdString(file)});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_TRUE(r.errors.contains("--at expects")) << r.errors.toStdString();
    r = runApp({"--screenshot", png, "--at", "3d", QString::fromStdString(file)});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_TRUE(r.errors.contains("outside the run")) << r.errors.toStdString();
}

// A short run's picture without --at shows where the app opens it: the first symptom, the failed
// GPU red (and framed), not the crash log's 0 s where nothing has failed yet; --at 0s still
// shows 0 s.
TEST(Screenshot, AShortRunOpensAtItsFirstSymptomAsTheAppDoes) {
    test::guiApp();
    ScratchDir dir;
    const faultline::Run crash = test::oneMinuteCrash();
    const std::string file = dir.file("crash.faultline");
    writeRunFile(crash, file);
    const QString opened = QString::fromStdString(dir.file("opened.png"));
    const QString atStart = QString::fromStdString(dir.file("start.png"));
    AppResult r = runApp({"--screenshot", opened, "--size", "1200x800", QString::fromStdString(file)});
    ASSERT_EQ(r.exitCode, 0) << r.errors.toStdString();
    r = runApp({"--screenshot", atStart, "--at", "0s", "--size", "1200x800", QString::fromStdString(file)});
    ASSERT_EQ(r.exitCode, 0) << r.errors.toStdString();
    EXPECT_GT(pixelsOfTheHall(QImage(opened), kFailedColour), 200) << "the failed GPU, red and framed";
    EXPECT_EQ(pixelsOfTheHall(QImage(atStart), kFailedColour), 0);
}

// Issue #38: `--screenshot --view charts` at the default 1600x1000 cut the power chart off at
// its foot: the panel's minimum counted three rows of charts of its four.
TEST(Screenshot, TheChartsPanelIsDrawnWholeWithItsPowerChart) {
    test::guiApp();
    ScratchDir dir;
    const std::string file = dir.file("tiny.faultline");
    writeRunFile(test::tinyRun(), file);
    ChartsView charts;
    charts.setRun(std::shared_ptr<const faultline::Run>(std::shared_ptr<const faultline::Run>(), &test::tinyRun()));
    charts.resize(1600, 1000);
    charts.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&charts));
    QApplication::processEvents();
    auto* power = charts.findChild<PowerChart*>("powerChart");
    ASSERT_NE(power, nullptr);
    // At the size the panel allows, every chart at least its own minimum and inside it.
    const QRect at(power->mapTo(&charts, QPoint(0, 0)), power->size());
    EXPECT_LE(at.bottom(), charts.height() - 1) << "the power chart ends at " << at.bottom() << " of " << charts.height();
    EXPECT_GE(power->height(), power->minimumHeight());
    // The picture takes that size, and says why it is not the one asked for.
    const QString png = QString::fromStdString(dir.file("charts.png"));
    const AppResult r = runApp({"--screenshot", png, "--view", "charts", QString::fromStdString(file)});
    ASSERT_EQ(r.exitCode, 0) << r.errors.toStdString();
    const QImage image(png);
    EXPECT_EQ(image.width(), 1600);
    EXPECT_EQ(image.height(), std::max(1000, charts.minimumHeight()));
    if (image.height() > 1000) {
        EXPECT_TRUE(r.errors.contains("needs 1600x")) << r.errors.toStdString();
    }
}

// --colour-by paints the hall as View > Colour By does: the GPUs leave the state grey for the
// metric's scale; a metric the run has not is refused naming those it has, and the option
// belongs to the 3D view alone.
TEST(Screenshot, ColourByPaintsTheHallByAMetricAndRefusesOneTheRunHasNot) {
    test::guiApp();
    ScratchDir dir;
    const std::string file = dir.file("telemetry.faultline");
    writeRunFile(test::telemetryTinyRun(), file);
    const QString byState = QString::fromStdString(dir.file("state.png"));
    const QString byPower = QString::fromStdString(dir.file("power.png"));
    const QString when = at(90 * kMinute + 30 * kSecond);
    AppResult r = runApp({"--screenshot", byState, "--at", when, "--size", "1200x800", QString::fromStdString(file)});
    ASSERT_EQ(r.exitCode, 0) << r.errors.toStdString();
    r = runApp({"--screenshot", byPower, "--colour-by", "power", "--at", when, "--size", "1200x800", QString::fromStdString(file)});
    ASSERT_EQ(r.exitCode, 0) << r.errors.toStdString();
    const int greyByState = pixelsOfTheHall(QImage(byState), kTrainingColour);
    EXPECT_GT(greyByState, 500);
    EXPECT_LT(pixelsOfTheHall(QImage(byPower), kTrainingColour), greyByState / 10) << "the GPUs kept their state colour";

    r = runApp({"--screenshot", byPower, "--colour-by", "humidity", QString::fromStdString(file)});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_TRUE(r.errors.contains("the run has no metric 'humidity' (it has ")) << r.errors.toStdString();
    r = runApp({"--screenshot", QString::fromStdString(dir.file("t.png")), "--view", "timeline", "--colour-by", "power", QString::fromStdString(file)});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_TRUE(r.errors.contains("--colour-by goes with --screenshot of the 3D view")) << r.errors.toStdString();

    // A video, the same way.
    const QStringList span{"--from", "1h", "--to", "2h", "--speed", "1h/s", "--fps", "2", "--size", "320x240"};
    const QString mp4 = QString::fromStdString(dir.file("power.mp4"));
    r = runApp(QStringList{"--record", mp4, "--colour-by", "Power"} + span + QStringList{QString::fromStdString(file)});
    ASSERT_EQ(r.exitCode, 0) << r.errors.toStdString();
    EXPECT_GT(QFileInfo(mp4).size(), 0);
    const QString none = QString::fromStdString(dir.file("humidity.mp4"));
    r = runApp(QStringList{"--record", none, "--colour-by", "humidity"} + span + QStringList{QString::fromStdString(file)});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_TRUE(r.errors.contains("the run has no metric 'humidity'")) << r.errors.toStdString();
    EXPECT_FALSE(QFileInfo::exists(none));

    // A report's pictures, the same way; its text says what they show.
    const QString pdf = QString::fromStdString(dir.file("power.pdf"));
    r = runApp({"--report", pdf, "--incidents", "1", "--colour-by", "power", QString::fromStdString(file)});
    ASSERT_EQ(r.exitCode, 0) << r.errors.toStdString();
    QProcess text;
    text.start("pdftotext", {pdf, "-"});
    ASSERT_TRUE(text.waitForFinished(60'000));
    const QString said = QString::fromUtf8(text.readAllStandardOutput()).simplified();
    EXPECT_TRUE(said.contains("The pictures colour each GPU by its power (W) just after the first symptom")) << said.toStdString();
}

// Debian's VTK Qt module is built for Qt 5: one Qt 5 library in a Qt 6 program would crash it.
TEST(AppBinary, LinksQt6AndVtkButNoQt5Library) {
    QProcess ldd;
    ldd.start("ldd", {FAULTLINE_APP});
    ASSERT_TRUE(ldd.waitForFinished(30'000));
    const QString libraries = QString::fromLocal8Bit(ldd.readAllStandardOutput());
    EXPECT_TRUE(libraries.contains("libQt6OpenGLWidgets")) << libraries.toStdString();
    EXPECT_TRUE(libraries.contains("libvtkRenderingOpenGL2")) << libraries.toStdString();
    EXPECT_FALSE(libraries.contains("libQt5")) << libraries.toStdString();
    EXPECT_FALSE(libraries.contains("GUISupportQt")) << libraries.toStdString();
}

}  // namespace
}  // namespace faultline
