// `faultline --screenshot` of every view, in both palettes, at 1280x720 and 1920x1080, against
// committed pictures (tests/data/render/screenshots, compared as render_baseline.h says). A new
// picture is one line in kShots. Regenerate them all after a deliberate change with
// tests/update_render_baselines.sh (FAULTLINE_UPDATE_BASELINES=1 over this suite).
#include "app_process.h"
#include "gui_test_app.h"
#include "render_baseline.h"
#include "test_runs.h"

#include "model/run_file.h"
#include "simulator/simulator.h"
#include "views/charts_view.h"

#include <QImage>

#include <gtest/gtest.h>

namespace faultline {
namespace {

struct Shot {
    const char* view;     // --view; "compare": the comparison window (--compare A B)
    const char* palette;  // --palette
    QSize size;
};

// One line a picture.
const Shot kShots[] = {
    {"fabric", "standard", {1280, 720}},     {"fabric", "standard", {1920, 1080}},
    {"fabric", "colour-blind", {1280, 720}}, {"fabric", "colour-blind", {1920, 1080}},
    {"timeline", "standard", {1280, 720}},   {"timeline", "standard", {1920, 1080}},
    {"timeline", "colour-blind", {1280, 720}}, {"timeline", "colour-blind", {1920, 1080}},
    {"charts", "standard", {1280, 720}},     {"charts", "standard", {1920, 1080}},
    {"charts", "colour-blind", {1280, 720}}, {"charts", "colour-blind", {1920, 1080}},
    {"incidents", "standard", {1280, 720}},  {"incidents", "standard", {1920, 1080}},
    {"incidents", "colour-blind", {1280, 720}}, {"incidents", "colour-blind", {1920, 1080}},
    {"present", "standard", {1280, 720}},    {"present", "standard", {1920, 1080}},
    {"present", "colour-blind", {1280, 720}}, {"present", "colour-blind", {1920, 1080}},
    {"compare", "standard", {1280, 720}},    {"compare", "standard", {1920, 1080}},
    {"compare", "colour-blind", {1280, 720}}, {"compare", "colour-blind", {1920, 1080}},
};

std::string shotName(const Shot& s) {
    std::string palette = s.palette;
    std::replace(palette.begin(), palette.end(), '-', '_');
    return std::string(s.view) + "_" + palette + "_" + std::to_string(s.size.width()) + "x" + std::to_string(s.size.height());
}

// The runs pictured, written once for the suite: the tiny run, and for the comparison a
// smaller cluster of 512 GPUs for half a day beside it.
struct Runs {
    test::ScratchDir dir;
    QString tiny = QString::fromStdString(dir.file("tiny.faultline"));
    QString other = QString::fromStdString(dir.file("other.faultline"));
    Runs() {
        writeRunFile(test::tinyRun(), tiny.toStdString());
        SimulationParams p = simulationPreset("tiny");
        p.fabric.gpus = 512;
        p.days = 0.5;
        p.seed = 3;
        writeRunFile(simulate(p), other.toStdString());
    }
};
const Runs& runs() {
    static const Runs made;
    return made;
}

class ScreenshotBaseline : public testing::TestWithParam<Shot> {};

TEST_P(ScreenshotBaseline, MatchesTheCommittedPicture) {
    test::guiApp();
    const Shot& shot = GetParam();
    const QString out = QString::fromStdString(runs().dir.file(shotName(shot) + ".png"));
    // Half an hour into the tiny run's first failure: red GPUs, an incident under review.
    const Failure& failure = test::tinyRun().failures.front();
    const QString at = QString("%1s").arg((failure.time + 30 * kMinute) / kSecond);
    QStringList args{"--screenshot", out, "--palette", shot.palette, "--size",
                     QString("%1x%2").arg(shot.size.width()).arg(shot.size.height()), "--at", at};
    if (QString(shot.view) == "compare") args << "--compare" << runs().tiny << runs().other;
    else args << "--view" << shot.view << runs().tiny;
    const test::AppResult r = test::runApp(args);
    ASSERT_EQ(r.exitCode, 0) << r.errors.toStdString();
    const QImage image(out);
    // The charts are drawn whole, taller than a short window: their power chart at the foot.
    QSize expected = shot.size;
    if (QString(shot.view) == "charts") {
        ChartsView charts;
        charts.setRun(std::shared_ptr<const faultline::Run>(std::shared_ptr<const faultline::Run>(), &test::tinyRun()));
        expected = expected.expandedTo(charts.minimumSize());
    }
    ASSERT_EQ(image.size(), expected);
    test::expectMatchesBaseline(image, FAULTLINE_SCREENSHOT_BASELINES, QString::fromStdString(shotName(shot)));
}

INSTANTIATE_TEST_SUITE_P(Screenshots, ScreenshotBaseline, testing::ValuesIn(kShots),
                         [](const testing::TestParamInfo<Shot>& shot) { return shotName(shot.param); });

// The two palettes draw the same run differently: the flag reaches the picture.
TEST(ScreenshotPalette, TheColourBlindPaletteChangesThePicture) {
    test::guiApp();
    const QString at = QString("%1s").arg((test::tinyRun().failures.front().time + 30 * kMinute) / kSecond);
    QImage pictures[2];
    int i = 0;
    for (const char* palette : {"standard", "colour-blind"}) {
        const QString out = QString::fromStdString(runs().dir.file(std::string("palette_") + palette + ".png"));
        const test::AppResult r = test::runApp({"--screenshot", out, "--palette", palette, "--size", "800x600", "--at", at, runs().tiny});
        ASSERT_EQ(r.exitCode, 0) << r.errors.toStdString();
        pictures[i++] = QImage(out);
    }
    EXPECT_GT(test::compareImages(pictures[0], pictures[1]).differingShare, 0.001);
    const test::AppResult bad = test::runApp({"--screenshot", "x.png", "--palette", "sepia", runs().tiny});
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_TRUE(bad.errors.contains("--palette expects standard or colour-blind, not 'sepia'")) << bad.errors.toStdString();
}

}  // namespace
}  // namespace faultline
