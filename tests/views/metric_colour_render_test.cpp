// View > Colour By a metric, rendered for real: a GPU drawn in the scale's colour of its
// reading at the instant, no reading drawn as no data (not as healthy), a failure still
// drawn as a failure, the scale in the legend with its unit and range.
#include "shown_fabric.h"
#include "telemetry_test_run.h"

#include "views/metric_scale.h"
#include "views/fabric/scene_legend.h"
#include "views/state_palette.h"

#include <gtest/gtest.h>

namespace faultline {
namespace {

using test::colourAt;
using test::near;
using test::colourName;
using test::drawnAs;

std::string rgbName(Rgb c) { return QColor(c[0], c[1], c[2]).name().toStdString(); }

constexpr std::int32_t kPower = 0;  // the fixture's metric order
// 90 minutes and a half in: sample 90 is the newest reading.
constexpr Nanos kShownAt = 90 * kMinute + 30 * kSecond;

Rgb scaleColour(const FabricView& view, float value, const StatePalette& palette = activeStatePalette()) {
    return MetricColourTable(*view.metricScale(), palette.metric).colour(value);
}

TEST(MetricColourRender, PowerColoursEachGpuByItsReadingAtTheInstant) {
    const faultline::Run& run = test::telemetryTinyRun();
    test::ShownFabric shown(run);
    ASSERT_TRUE(shown.exposed());
    shown.view().setColourBy(kPower);
    const QImage image = shown.renderAt(kShownAt);
    for (std::int32_t gpu : {2, 20}) {
        const float watts = test::testPower(gpu, 90);  // 130 W and 400 W
        EXPECT_FLOAT_EQ(shown.view().metricValue(gpu), watts);
        const Rgb expected = scaleColour(shown.view(), watts);
        EXPECT_EQ(shown.view().gpuColourShown(gpu), expected) << "gpu " << gpu;
        const QPointF p = shown.view().gpuPosition(gpu);
        EXPECT_TRUE(drawnAs(image, p, expected)) << "gpu " << gpu << ": " << colourName(image, p) << " where " << rgbName(expected) << " was asked";
    }
    EXPECT_NE(scaleColour(shown.view(), 130), scaleColour(shown.view(), 400)) << "130 W and 400 W look alike";
}

TEST(MetricColourRender, AGpuWithoutAReadingIsDrawnAsNoDataNotAsHealthy) {
    const faultline::Run& run = test::telemetryTinyRun();
    test::ShownFabric shown(run);
    ASSERT_TRUE(shown.exposed());
    shown.view().setColourBy(kPower);
    const std::int32_t silent = test::gpuWithoutTelemetry(run);
    const QImage image = shown.renderAt(kShownAt);
    const QPointF p = shown.view().gpuPosition(silent);
    const Rgb noData = activeStatePalette().metric.noData;
    EXPECT_TRUE(std::isnan(shown.view().metricValue(silent)));
    EXPECT_TRUE(drawnAs(image, p, noData)) << colourName(image, p);
    EXPECT_FALSE(drawnAs(image, p, kTrainingColour, 30)) << "a GPU without readings looks like a healthy one";
}

TEST(MetricColourRender, AFailedGpuStaysDrawnAsFailedWhateverItReads) {
    const faultline::Run& run = test::telemetryTinyRun();
    const Failure& f = test::telemetryTestFailure(run);
    test::ShownFabric shown(run);
    ASSERT_TRUE(shown.exposed());
    shown.view().setColourBy(kPower);
    const QPointF p = shown.view().gpuPosition(f.gpus.front());
    const QImage at = shown.renderAt(f.time);
    EXPECT_TRUE(drawnAs(at, p, activeStatePalette().failed)) << colourName(at, p);
    const QImage before = shown.renderAt(f.time - kHour);
    EXPECT_TRUE(drawnAs(before, p, scaleColour(shown.view(), shown.view().metricValue(f.gpus.front())))) << colourName(before, p);
}

TEST(MetricColourRender, TheLegendShowsTheScaleWithItsUnitAndRange) {
    const faultline::Run& run = test::telemetryTinyRun();
    test::ShownFabric shown(run);
    ASSERT_TRUE(shown.exposed());
    shown.view().setColourBy(kPower);
    const QImage image = shown.renderAt(kShownAt);
    const SceneLegend& legend = shown.view().legend();
    ASSERT_TRUE(legend.scale().has_value());
    EXPECT_EQ(legend.title(), "Power (W)");
    EXPECT_EQ(legend.scale()->lowText, "0 W");  // power's fixed physical range
    EXPECT_EQ(legend.scale()->highText, "700 W");
    // The bar drawn: its low end in the scale's first colour, its high end in its last.
    const ScreenRect bar = legend.scaleBarRect();
    ASSERT_GT(bar.x1 - bar.x0, 50);
    const double y = image.height() - 1 - (bar.y0 + bar.y1) / 2;  // display pixels count from the bottom
    const auto& scale = activeStatePalette().metric.scale;
    EXPECT_TRUE(near(image.pixelColor(static_cast<int>(bar.x0 + 1), static_cast<int>(y)), scale.front()[0], scale.front()[1], scale.front()[2], 20));
    EXPECT_TRUE(near(image.pixelColor(static_cast<int>(bar.x1 - 2), static_cast<int>(y)), scale.back()[0], scale.back()[1], scale.back()[2], 20));
    // Back to states: the state legend, no scale.
    shown.view().setColourBy(std::nullopt);
    shown.renderAt(kShownAt);
    EXPECT_FALSE(legend.scale().has_value());
    EXPECT_EQ(legend.title(), "GPU state");
}

TEST(MetricColourRender, OtherMetricsSpanTheRunsOwnRangeAndFollowTheColourBlindPalette) {
    const faultline::Run& run = test::telemetryTinyRun();
    test::ShownFabric shown(run);
    ASSERT_TRUE(shown.exposed());
    shown.view().setColourBy(2);  // SM clock
    const MetricScale* scale = shown.view().metricScale();
    ASSERT_NE(scale, nullptr);
    EXPECT_FALSE(scale->fixedRange);
    EXPECT_DOUBLE_EQ(scale->min, 1980 - 31 * 10);
    EXPECT_DOUBLE_EQ(scale->max, 1980);
    EXPECT_EQ(shown.view().legend().scale()->highText, "1,980 MHz");
    setStatePalette(StatePaletteKind::ColourBlindSafe);
    shown.renderAt(kShownAt);
    const Rgb cividis = scaleColour(shown.view(), test::testSmClock(2, 0), kOkabeItoStates);
    EXPECT_EQ(shown.view().gpuColourShown(2), cividis);
    EXPECT_EQ(shown.view().legend().scale()->colours.front(), scaleColourAt(kOkabeItoStates.metric, 0.5 / 48));
    setStatePalette(StatePaletteKind::Standard);
}

}  // namespace
}  // namespace faultline
