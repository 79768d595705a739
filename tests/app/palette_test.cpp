// One palette for every view: switching it recolours the 3D view's legend, the timeline and
// its legend, the scrubber and the charts; and no two entries of one legend look alike
// (CIEDE2000 of 10 or more) in any palette under either theme.
#include "gui_test_app.h"
#include "test_runs.h"

#include "app/theme.h"
#include "exports/offscreen_renderer.h"
#include "exports/report_figures.h"
#include "views/charts_view.h"
#include "views/fabric/colour_difference.h"
#include "views/gpu_palette.h"
#include "views/replay_controls.h"
#include "views/state_legend.h"
#include "views/state_palette.h"
#include "views/timeline_view.h"
#include "widgets/time_scrubber.h"

#include <QApplication>
#include <QImage>
#include <QPainter>
#include <QTest>
#include <QtCharts/QChartView>
#include <QtCharts/QXYSeries>

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace faultline {
namespace {

using test::tracedRun;
using Entries = std::vector<std::pair<std::string, Rgb>>;

Rgb rgb(const QColor& c) {
    return {static_cast<std::uint8_t>(c.red()), static_cast<std::uint8_t>(c.green()), static_cast<std::uint8_t>(c.blue())};
}

// Every pair of entries closer than 10, named, for the failure message.
std::string tooClose(const Entries& entries) {
    std::string out;
    for (std::size_t i = 0; i < entries.size(); ++i)
        for (std::size_t j = i + 1; j < entries.size(); ++j)
            if (const double d = colourDifference(entries[i].second, entries[j].second); d < 10)
                out += entries[i].first + " ~ " + entries[j].first + " (" + std::to_string(d) + ") ";
    return out;
}

// The series of a chart's legend and their colours.
Entries chartLegend(const QChartView& chart) {
    Entries out;
    for (QAbstractSeries* s : chart.chart()->series())
        if (auto* xy = qobject_cast<QXYSeries*>(s); xy && s->objectName() != "cursor") out.push_back({s->name().toStdString(), rgb(xy->color())});
    return out;
}

struct PaletteAndTheme {
    PaletteAndTheme(StatePaletteKind kind, Theme theme) {
        setStatePalette(kind);
        applyTheme(theme);
    }
    ~PaletteAndTheme() {
        setStatePalette(StatePaletteKind::Standard);
        applyTheme(Theme::Light);
    }
};

TEST(Palette, Ciede2000MatchesThePublishedPairs) {
    // Sharma, Wu & Dalal (2005), table 1: pairs 1, 7, 17, 25 and 34.
    EXPECT_NEAR(ciede2000({50, 2.6772, -79.7751}, {50, 0, -82.7485}), 2.0425, 1e-4);
    EXPECT_NEAR(ciede2000({50, 0, 0}, {50, -1, 2}), 2.3669, 1e-4);
    EXPECT_NEAR(ciede2000({50, 2.5, 0}, {73, 25, -18}), 27.1492, 1e-4);
    EXPECT_NEAR(ciede2000({60.2574, -34.0099, 36.2677}, {60.4626, -34.1751, 39.4387}), 1.2644, 1e-4);
    EXPECT_NEAR(ciede2000({2.0776, 0.0795, -1.135}, {0.9033, -0.0636, -0.5514}), 0.9082, 1e-4);
    EXPECT_NEAR(colourDifference({255, 255, 255}, {255, 255, 255}), 0, 1e-9);
    EXPECT_GT(colourDifference({0, 0, 0}, {255, 255, 255}), 99);
}

TEST(Palette, NoTwoEntriesOfALegendLookAlikeInAnyPaletteOrTheme) {
    test::guiApp();
    for (StatePaletteKind kind : {StatePaletteKind::Standard, StatePaletteKind::ColourBlindSafe})
        for (Theme theme : {Theme::Light, Theme::Dark}) {
            PaletteAndTheme use(kind, theme);
            const std::string where = std::string(kind == StatePaletteKind::Standard ? "standard" : "colour-blind-safe") +
                                      (theme == Theme::Light ? ", light" : ", dark") + ": ";
            Entries states;
            for (const LegendEntry& e : stateLegendEntries(activeStatePalette(), true))
                states.push_back({e.text, e.outline ? *e.outline : e.fill});
            EXPECT_EQ(tooClose(states), "") << where << "3D view legend";

            TimelineView timeline;
            Entries marks;
            for (const auto& [label, colour] : timeline.legendColours()) marks.push_back({label.toStdString(), rgb(colour)});
            EXPECT_GE(marks.size(), 10u);
            EXPECT_EQ(tooClose(marks), "") << where << "timeline legend";

            ChartsView charts;
            charts.setRun(tracedRun());
            for (const char* name : {"ettrChart", "stepTimeChart"}) {
                const Entries legend = chartLegend(*charts.findChild<QChartView*>(name));
                EXPECT_GE(legend.size(), 2u) << name;
                EXPECT_EQ(tooClose(legend), "") << where << name;
            }
        }
}

// How many pixels of the image are exactly this colour.
int pixelsOf(const QImage& image, Rgb colour) {
    const QRgb wanted = qRgb(colour[0], colour[1], colour[2]);
    int n = 0;
    const QImage rgb32 = image.convertToFormat(QImage::Format_RGB32);
    for (int y = 0; y < rgb32.height(); ++y) {
        const auto* row = reinterpret_cast<const QRgb*>(rgb32.constScanLine(y));
        for (int x = 0; x < rgb32.width(); ++x) n += (row[x] & 0xFFFFFF) == (wanted & 0xFFFFFF);
    }
    return n;
}

TEST(Palette, SwitchingItRecoloursTheTimelineItsLegendTheScrubberAndTheCharts) {
    test::guiApp();
    PaletteAndTheme standard(StatePaletteKind::Standard, Theme::Light);
    TimelineView timeline;
    timeline.resize(1400, 220);
    timeline.setRun(std::shared_ptr<const faultline::Run>(&test::tinyRun(), [](const faultline::Run*) {}));
    ReplayControls controls;
    controls.resize(900, 60);
    controls.setDuration(test::tinyRun().info.duration, {kHour, 2 * kHour, 30 * kHour});
    ChartsView charts;
    charts.resize(1200, 1400);
    charts.setRun(tracedRun());
    for (QWidget* w : {static_cast<QWidget*>(&timeline), static_cast<QWidget*>(&controls), static_cast<QWidget*>(&charts)}) w->show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&charts));

    const StatePalette& before = kStandardStates;
    const StatePalette& after = kOkabeItoStates;
    const QImage timelineBefore = timeline.grab().toImage();
    const QImage scrubberBefore = controls.scrubber()->grab().toImage();
    auto* steps = charts.findChild<QChartView*>("stepTimeChart");
    const QImage stepsBefore = steps->grab().toImage();
    // The band's causes and checkpoints, the legend's swatches: drawn in the palette's colours.
    for (Rgb c : {before.timeline.training, before.timeline.gpuCause, before.checkpointing, before.timeline.checkpointLoad})
        EXPECT_GT(pixelsOf(timelineBefore, c), 20);

    setStatePalette(StatePaletteKind::ColourBlindSafe);
    QApplication::processEvents();
    const QImage timelineAfter = timeline.grab().toImage();
    for (Rgb c : {after.timeline.gpuCause, after.checkpointing, after.timeline.checkpointLoad, after.failed})
        EXPECT_GT(pixelsOf(timelineAfter, c), 20) << "the timeline or its legend kept the other palette";
    for (Rgb c : {before.timeline.gpuCause, before.checkpointing, before.timeline.checkpointLoad, before.failed})
        EXPECT_EQ(pixelsOf(timelineAfter, c), 0) << "the timeline or its legend kept the other palette";
    EXPECT_EQ(rgb(controls.scrubber()->markColour()), after.failed);
    EXPECT_NE(controls.scrubber()->grab().toImage(), scrubberBefore) << "the scrubber's marks kept their colour";
    EXPECT_NE(steps->grab().toImage(), stepsBefore) << "the straggler marks kept their colour";
}

// Pixels within `tolerance` of a colour in the top `share` of an image (above a caption strip).
int pixelsNear(const QImage& image, Rgb colour, int tolerance, double share = 1.0) {
    int n = 0;
    for (int y = 0; y < static_cast<int>(image.height() * share); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            n += std::abs(c.red() - colour[0]) <= tolerance && std::abs(c.green() - colour[1]) <= tolerance && std::abs(c.blue() - colour[2]) <= tolerance;
        }
    return n;
}

// Report snapshots, video frames and presentation slides are all drawn by the off-screen
// renderer, and the report's charts are recorded panels: each in the palette chosen when it is
// drawn, never in the other.
TEST(Palette, SwitchingItRecoloursTheReportVideoAndPresentationPictures) {
    test::guiApp();
    PaletteAndTheme standard(StatePaletteKind::Standard, Theme::Light);
    auto tiny = std::shared_ptr<const faultline::Run>(&test::tinyRun(), [](const faultline::Run*) {});
    ASSERT_FALSE(tiny->failures.empty());
    const Nanos t = tiny->failures.front().time + kSecond;
    OffscreenRenderer renderer(tiny, QSize(1280, 720));
    TimelineView timeline;
    timeline.resize(1400, 220);
    timeline.setRun(tiny);
    auto played = [](ReportFigure figure) {
        QImage image(figure.size, QImage::Format_RGB32);
        image.fill(Qt::white);
        QPainter painter(&image);
        figure.picture.play(&painter);
        return image;
    };

    const QImage frameBefore = renderer.render(t);
    const QImage chartBefore = played(recordFigure(&timeline, "Timeline", timeline.size()));
    EXPECT_GT(pixelsNear(frameBefore, kStandardStates.failed, 12, 0.75), 0) << "the failed GPU in the standard red";
    EXPECT_GT(pixelsOf(chartBefore, kStandardStates.timeline.gpuCause), 20);

    setStatePalette(StatePaletteKind::ColourBlindSafe);
    QApplication::processEvents();
    const QImage frameAfter = renderer.render(t);
    const QImage chartAfter = played(recordFigure(&timeline, "Timeline", timeline.size()));
    EXPECT_EQ(pixelsNear(frameAfter, kStandardStates.failed, 12, 0.75), 0) << "a frame kept the standard red";
    EXPECT_GT(pixelsNear(frameAfter, kOkabeItoStates.failed, 12, 0.75), pixelsNear(frameBefore, kOkabeItoStates.failed, 12, 0.75))
        << "the failed GPU is not in the colour-blind-safe vermillion";
    EXPECT_EQ(pixelsOf(chartAfter, kStandardStates.timeline.gpuCause), 0) << "a report chart kept the standard colours";
    EXPECT_GT(pixelsOf(chartAfter, kOkabeItoStates.timeline.gpuCause), 20);
}

}  // namespace
}  // namespace faultline
