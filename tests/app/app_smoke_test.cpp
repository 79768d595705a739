// The app as a user starts it: the real `faultline` binary under the X server.
#include "app_process.h"
#include "gui_test_app.h"
#include "test_runs.h"

#include "model/run_file.h"

#include <QImage>
#include <QProcess>

#include <gtest/gtest.h>

#include <set>

namespace faultline {
namespace {

using test::runApp;
using test::ScratchDir;

// How many distinct colours a picture has: a blank window has a handful.
std::size_t colourCount(const QImage& image) {
    std::set<QRgb> colours;
    for (int y = 0; y < image.height(); y += 3)
        for (int x = 0; x < image.width(); x += 3) colours.insert(image.pixel(x, y));
    return colours.size();
}

TEST(AppSmoke, OpensARunAndRendersItsSummary) {
    test::guiApp();
    ScratchDir dir;
    const std::string run = dir.file("tiny.faultline");
    writeRunFile(test::tinyRun(), run);
    const QString png = QString::fromStdString(dir.file("shot.png"));
    QString errors;
    ASSERT_EQ(runApp({"--screenshot", png, "--size", "1200x800", QString::fromStdString(run)}, &errors), 0) << errors.toStdString();
    const QImage image(png);
    ASSERT_FALSE(image.isNull());
    EXPECT_EQ(image.size(), QSize(1200, 800));
    EXPECT_GT(colourCount(image), 20u);
}

TEST(AppSmoke, NoArgumentOpensTheSampleRun) {
    test::guiApp();
    ScratchDir dir;
    const QString png = QString::fromStdString(dir.file("sample.png"));
    QString errors;
    ASSERT_EQ(runApp({"--screenshot", png}, &errors), 0) << errors.toStdString();
    EXPECT_EQ(QImage(png).size(), QSize(1600, 1000));
}

TEST(AppSmoke, EachPanelRendersOnItsOwn) {
    test::guiApp();
    ScratchDir dir;
    const std::string run = dir.file("tiny.faultline");
    writeRunFile(test::tinyRun(), run);
    for (const char* view : {"timeline", "charts", "incidents"}) {
        const QString png = QString::fromStdString(dir.file(std::string(view) + ".png"));
        QString errors;
        ASSERT_EQ(runApp({"--screenshot", png, "--view", view, "--at", "20h", "--size", "1000x600", QString::fromStdString(run)}, &errors), 0)
            << view << ": " << errors.toStdString();
        const QImage image(png);
        if (std::string(view) == "charts") {
            // Its five charts do not fit 600 px: drawn whole, taller, and said so, not cut off.
            EXPECT_EQ(image.width(), 1000);
            EXPECT_GT(image.height(), 600);
            EXPECT_NE(errors.indexOf("the charts panel needs 1000x"), -1) << errors.toStdString();
        } else {
            EXPECT_EQ(image.size(), QSize(1000, 600)) << view;
        }
        EXPECT_GT(colourCount(image), 20u) << view;
    }
    QString errors;
    EXPECT_EQ(runApp({"--screenshot", QString::fromStdString(dir.file("x.png")), "--view", "poster", QString::fromStdString(run)}, &errors), 2);
    EXPECT_NE(errors.indexOf("--view expects fabric, timeline, charts, incidents or present"), -1) << errors.toStdString();
}

TEST(AppSmoke, BadRunFileExitsWithTheMessage) {
    test::guiApp();
    ScratchDir dir;
    QString errors;
    const std::string missing = dir.file("missing.faultline");
    EXPECT_EQ(runApp({"--screenshot", QString::fromStdString(dir.file("x.png")), QString::fromStdString(missing)}, &errors), 1);
    // Qt may warn first (e.g. about XDG_RUNTIME_DIR); our message is the last line.
    EXPECT_EQ(errors.trimmed().split('\n').last().toStdString(), "faultline: " + missing + ": no such file");
}

}  // namespace
}  // namespace faultline
