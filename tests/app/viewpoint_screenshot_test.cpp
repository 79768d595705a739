// `faultline --screenshot OUT.png --viewpoint NAME RUN`: the picture from a camera saved in
// the run's review; a name the run has not, or a viewpoint of another cluster, is refused
// with a message naming it and a failure status.
#include "shown_fabric.h"
#include "app_process.h"
#include "test_runs.h"

#include "model/run_file.h"
#include "model/viewpoints.h"
#include "views/fabric/viewpoint_camera.h"

#include <QImage>
#include <QFileInfo>

#include <gtest/gtest.h>

namespace faultline {
namespace {

using test::AppResult;
using test::runApp;
using test::ScratchDir;


// The share of pixels that differ between two pictures of the same size.
double changed(const QImage& a, const QImage& b) {
    int n = 0;
    for (int y = 0; y < a.height(); y += 2)
        for (int x = 0; x < a.width(); x += 2) n += a.pixel(x, y) != b.pixel(x, y);
    return n / (a.width() / 2.0 * a.height() / 2.0);
}

TEST(ViewpointScreenshot, TheSavedCameraIsUsedAndAnUnknownNameIsRefused) {
    const faultline::Run& run = test::tinyRun();
    ScratchDir dir;
    const std::string file = dir.file("tiny.faultline");
    writeRunFile(run, file);
    {
        test::ShownFabric shown(run);
        ASSERT_TRUE(shown.exposed());
        shown.view().zoomTo({ComponentKind::Gpu, 0});
        ViewpointStore(file).save(viewpointOf(shown.view(), "First rack"));
    }
    const QString whole = QString::fromStdString(dir.file("whole.png"));
    const QString close = QString::fromStdString(dir.file("close.png"));
    const QString run_ = QString::fromStdString(file);
    AppResult r = runApp({"--screenshot", whole, "--size", "1200x800", run_});
    ASSERT_EQ(r.exitCode, 0) << r.errors.toStdString();
    r = runApp({"--screenshot", close, "--viewpoint", "First rack", "--size", "1200x800", run_});
    ASSERT_EQ(r.exitCode, 0) << r.errors.toStdString();
    const QImage wholeImage(whole), closeImage(close);
    ASSERT_EQ(closeImage.size(), QSize(1200, 800));
    EXPECT_GT(changed(wholeImage.convertToFormat(QImage::Format_RGB32), closeImage.convertToFormat(QImage::Format_RGB32)), 0.2)
        << "the close-up is another picture than the whole cluster";

    const QString none = QString::fromStdString(dir.file("none.png"));
    r = runApp({"--screenshot", none, "--viewpoint", "Nope", run_});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_TRUE(r.errors.contains("no viewpoint named \"Nope\"")) << r.errors.toStdString();
    EXPECT_TRUE(r.errors.contains("it has \"First rack\"")) << r.errors.toStdString();
    EXPECT_FALSE(QFileInfo::exists(none)) << "no picture from a camera that does not exist";

    Viewpoint alien = viewpointOf(test::ShownFabric(run).view(), "Other hall");
    alien.topology = stampOf(buildFabric(FabricShape{.gpus = 1024}));
    ViewpointStore(file).save(alien);
    r = runApp({"--screenshot", none, "--viewpoint", "Other hall", run_});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_TRUE(r.errors.contains("does not fit this run")) << r.errors.toStdString();

    r = runApp({"--viewpoint", "First rack", run_});
    EXPECT_EQ(r.exitCode, 2) << "--viewpoint goes with --screenshot";
    EXPECT_TRUE(r.errors.contains("--viewpoint goes with --screenshot")) << r.errors.toStdString();
}

TEST(ViewpointScreenshot, AVideoIsRecordedFromASavedViewpointAndAnUnknownOneIsRefused) {
    const faultline::Run& run = test::tinyRun();
    ScratchDir dir;
    const std::string file = dir.file("tiny.faultline");
    writeRunFile(run, file);
    {
        test::ShownFabric shown(run);
        ASSERT_TRUE(shown.exposed());
        shown.view().topView();
        ViewpointStore(file).save(viewpointOf(shown.view(), "Floor plan"));
    }
    const QString mp4 = QString::fromStdString(dir.file("plan.mp4"));
    const QStringList span{"--from", "1h", "--to", "2h", "--speed", "1h/s", "--fps", "2", "--size", "320x240"};
    AppResult r = runApp(QStringList{"--record", mp4, "--viewpoint", "Floor plan"} + span + QStringList{QString::fromStdString(file)});
    ASSERT_EQ(r.exitCode, 0) << r.errors.toStdString();
    EXPECT_GT(QFileInfo(mp4).size(), 0);
    const QString other = QString::fromStdString(dir.file("other.mp4"));
    r = runApp(QStringList{"--record", other, "--viewpoint", "Balcony"} + span + QStringList{QString::fromStdString(file)});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_TRUE(r.errors.contains("no viewpoint named \"Balcony\"")) << r.errors.toStdString();
    EXPECT_FALSE(QFileInfo::exists(other));
}

}  // namespace
}  // namespace faultline
