// The exports' own pieces, without the app: the off-screen renderer's video frames, the video
// plan's durations, pictures of panels (PNG at a scale, SVG that holds the series, the 3D view
// rendered off screen) and the report's facts of an incident. The files the app writes from
// its command line and its File menu are tested in tests/app/export_gui_test.cpp.
#include "gui_test_app.h"
#include "test_runs.h"

#include "analysis/incidents.h"
#include "analysis/run_comparison.h"
#include "exports/comparison_report.h"
#include "exports/offscreen_renderer.h"
#include "exports/panel_export.h"
#include "exports/report_content.h"
#include "exports/report_figures.h"
#include "exports/video_recorder.h"
#include "views/charts_view.h"
#include "views/fabric/fabric_view.h"
#include "views/gpu_palette.h"
#include "views/timeline_view.h"

#include <QFile>
#include <QImage>
#include <QTest>
#include <QWidget>
#include <QXmlStreamReader>
#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>

#include <gtest/gtest.h>

#include <set>

namespace faultline {
namespace {

using test::ScratchDir;

// A failure in a frame of the whole hall is a few pixels: video frames call it out with a
// ring at the failed part and its name, while it is recent, and not before it happened.
TEST(ExportVideo, FramesCallOutEachRecentFailure) {
    test::guiApp();
    auto tiny = std::shared_ptr<const faultline::Run>(&test::tinyRun(), [](const faultline::Run*) {});
    ASSERT_FALSE(tiny->failures.empty());
    const Failure& failure = tiny->failures.front();
    OffscreenRenderer renderer(tiny, QSize(1280, 720));
    renderer.setCalloutSpan(5 * kMinute);
    auto callout = [](const QImage& frame) {
        int n = 0;
        for (int y = 0; y < frame.height() * 3 / 4; ++y)  // above the caption strip
            for (int x = 0; x < frame.width(); ++x) n += frame.pixelColor(x, y) == QColor(255, 214, 10);
        return n;
    };
    const QImage during = renderer.render(failure.time + kMinute);
    EXPECT_GT(callout(during), 100) << "no ring or name at the failed part";
    if (const QByteArray shots = qgetenv("FAULTLINE_TEST_SHOTS"); !shots.isEmpty()) during.save(shots + "/video-callout.png");
    EXPECT_EQ(callout(renderer.render(failure.time - kMinute)), 0) << "called out before it happened";
    EXPECT_EQ(callout(renderer.render(failure.time + 30 * kMinute)), 0) << "still called out long after";
}

// A frame's caption strip is the same whatever frame was made before it: the strip's
// translucent backing once went over memory the frame before had used, and the earlier
// caption showed through it, a ghost in the first frames of a video.
TEST(VideoFrames, TheCaptionStripShowsNoEarlierFrame) {
    test::guiApp();
    auto tiny = std::shared_ptr<const faultline::Run>(&test::tinyRun(), [](const faultline::Run*) {});
    ASSERT_FALSE(tiny->failures.empty());
    const Nanos failed = tiny->failures.front().time;
    OffscreenRenderer renderer(tiny, QSize(1280, 720));
    const QRect strip(0, 720 - 56, 1280, 56);  // the caption is at least 56 px high
    auto stripOf = [&](Nanos t) { return renderer.render(t).copy(strip); };
    QImage afterAnother;
    for (int i = 0; i < 4; ++i) {  // frames of another caption, then ours
        stripOf(failed + kHour);
        afterAnother = stripOf(failed - kHour);
    }
    const QImage afterItself = stripOf(failed - kHour);
    ASSERT_FALSE(afterItself.isNull());
    EXPECT_EQ(afterAnother, afterItself) << "the caption strip of one instant differs with the frame made before it";
}

// A crash half a second before the run's end (a console log's last lines): the report's picture
// of it is taken at the run's last instant, where the failed GPU is red, not a second past it.
TEST(ReportFigures, AFailureAtTheRunsEndIsDrawnRed) {
    test::guiApp();
    faultline::Run crash = test::oneMinuteCrash();
    crash.failures.front().time = crash.info.duration - kSecond / 2;
    const auto run = std::make_shared<const faultline::Run>(crash);
    const ReportContent content = buildReportContent(run, {}, 1);
    ASSERT_EQ(content.selected.size(), 1u);
    EXPECT_EQ(incidentSnapshotInstant(content.selected.front().incident, crash.info.duration), crash.info.duration);
    EXPECT_EQ(incidentSnapshotInstant(content.selected.front().incident, 10 * kMinute), crash.info.duration + kSecond / 2);

    ReportFigures figures;
    ASSERT_TRUE(renderReportFigures(content, figures));
    ASSERT_EQ(figures.snapshots.size(), 1u);
    const QImage& shot = figures.snapshots.front();
    int red = 0;
    for (int y = 0; y < shot.height(); ++y)
        for (int x = 0; x < shot.width(); ++x) {
            const QColor c = shot.pixelColor(x, y);
            red += std::abs(c.red() - kFailedColour[0]) < 12 && std::abs(c.green() - kFailedColour[1]) < 12 && std::abs(c.blue() - kFailedColour[2]) < 12;
        }
    EXPECT_GT(red, 8) << "the failed GPU is not drawn red in the report's picture";
}

TEST(ExportVideo, FromAndToReadCompoundDurations) {
    const faultline::Run& tiny = test::tinyRun();
    VideoOptions options;
    options.from = "1h";
    options.to = "1h30m";
    QString error;
    const auto plan = planVideo(tiny, options, &error);
    ASSERT_TRUE(plan) << error.toStdString();
    EXPECT_EQ(plan->from, kHour);
    EXPECT_EQ(plan->to, 90 * kMinute);
    options.to = "1h30x";
    EXPECT_FALSE(planVideo(tiny, options, &error));
    EXPECT_TRUE(error.contains("--to expects")) << error.toStdString();
}

TEST(ExportPicture, ChartSvgParsesAndHoldsTheSeries) {
    test::guiApp();
    ScratchDir dir;
    ChartsView charts;
    charts.setRun(std::shared_ptr<const faultline::Run>(std::shared_ptr<const faultline::Run>(), &test::tinyRun()));
    charts.resize(1000, 1200);
    charts.show();
    auto* chart = charts.findChild<QChartView*>("stepTimeChart");
    QLineSeries* series = nullptr;
    for (QAbstractSeries* s : chart ? chart->chart()->series() : QList<QAbstractSeries*>())
        if (s->objectName() == "stepTime") series = qobject_cast<QLineSeries*>(s);
    ASSERT_TRUE(chart && series);
    ASSERT_GT(series->count(), 10);
    const QString svg = QString::fromStdString(dir.file("step.svg"));
    QString error;
    ASSERT_TRUE(exportPanel(chart, svg, QSize(900, 400), 1, &error)) << error.toStdString();
    QFile f(svg);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&f);
    qsizetype vertices = 0;
    QString texts;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement() && (xml.name() == u"polyline" || xml.name() == u"path")) {
            const QString points = xml.attributes().value(xml.name() == u"polyline" ? "points" : "d").toString();
            vertices += points.count(',');
        }
        if (xml.isCharacters()) texts += xml.text();
    }
    ASSERT_FALSE(xml.hasError()) << xml.errorString().toStdString();
    // The step-time line is vector segments through every sample (Qt Charts draws a line
    // series segment by segment), not a picture of it.
    EXPECT_GE(vertices, series->count()) << vertices << " vertices for " << series->count() << " samples";
    EXPECT_TRUE(texts.contains("Step time")) << texts.toStdString();
    EXPECT_TRUE(texts.contains(series->name())) << "the legend names the series";
}

TEST(ExportPicture, PngHasTheSizeTimesTheScale) {
    test::guiApp();
    ScratchDir dir;
    TimelineView timeline;
    timeline.setRun(std::shared_ptr<const faultline::Run>(std::shared_ptr<const faultline::Run>(), &test::tinyRun()));
    timeline.show();
    const QString png = QString::fromStdString(dir.file("timeline.png"));
    QString error;
    ASSERT_TRUE(exportPanel(&timeline, png, QSize(800, 300), 2, &error)) << error.toStdString();
    const QImage image(png);
    EXPECT_EQ(image.size(), QSize(1600, 600));
}

TEST(ExportPicture, The3DViewRendersOffScreenAtTheAskedSizeAndLeavesTheWindowAlone) {
    test::guiApp();
    ScratchDir dir;
    QWidget window;
    window.resize(900, 600);
    auto* view = new FabricView(&window);
    view->resize(900, 600);
    view->setRun(std::shared_ptr<const faultline::Run>(std::shared_ptr<const faultline::Run>(), &test::tinyRun()));
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    view->setTime(test::tinyRun().failures.front().time);
    const QString png = QString::fromStdString(dir.file("fabric.png"));
    QString error;
    ASSERT_TRUE(exportPanel(view, png, QSize(800, 500), 2, &error)) << error.toStdString();
    EXPECT_FALSE(exportPanel(view, QString::fromStdString(dir.file("fabric.svg")), QSize(800, 500), 1, &error));
    const QImage image(png);
    EXPECT_EQ(image.size(), QSize(1600, 1000));
    EXPECT_EQ(view->size(), QSize(900, 600)) << "the window's view keeps its size";
    std::set<QRgb> colours;
    for (int y = 0; y < image.height(); y += 4)
        for (int x = 0; x < image.width(); x += 4) colours.insert(image.pixel(x, y));
    EXPECT_GT(colours.size(), 20u) << "a rendered cluster, not a blank picture";
}

// An incident's section names who reported it and whom the logs suspect, with torchrun's
// root-cause host and exit code: the facts the PDF and the HTML both print.
TEST(ExportReport, AnIncidentNamesItsReportersAndSuspects) {
    faultline::Run tiny = test::tinyRun();
    const auto before = buildIncidents(tiny);
    const auto withFailure = std::find_if(before.begin(), before.end(), [](const Incident& i) { return i.failure >= 0; });
    ASSERT_NE(withFailure, before.end());
    Failure& f = tiny.failures[static_cast<std::size_t>(withFailure->failure)];
    f.ranks = {0, 1, 2, 4};
    f.suspectRanks = {3};
    f.detail += "; torchrun's root cause: rank 3 on r0000-h1, exit code 1";
    const auto incidents = buildIncidents(tiny);
    const Incident& inc = incidents[static_cast<std::size_t>(withFailure - before.begin())];
    const auto facts = incidentFacts(inc, tiny.info);
    const auto fact = [&](const std::string& name) {
        for (const auto& [k, v] : facts)
            if (k == name) return v;
        return std::string("(none)");
    };
    EXPECT_EQ(fact("Reported by ranks"), "0-2,4");
    EXPECT_EQ(fact("Suspect ranks"), "3 (rank 3 on r0000-h1, exit code 1)");
    // An incident whose logs named no rank says nothing of ranks.
    const auto other = std::find_if(incidents.begin(), incidents.end(), [](const Incident& i) { return i.reportingRanks.empty(); });
    ASSERT_NE(other, incidents.end());
    const auto otherFacts = incidentFacts(*other, tiny.info);
    ASSERT_FALSE(otherFacts.empty()) << "its other facts are there";
    for (const auto& [k, v] : otherFacts) EXPECT_NE(k, "Suspect ranks");
}

// The comparison report's figures follow the evidence rule: a crash log's MTBF row says "not
// enough of the run to say", as the app's table does, not "0 s".
TEST(ComparisonReport, ASideWithoutTheEvidenceSaysNotEnoughOfTheRunToSay) {
    test::guiApp();
    ScratchDir dir;
    ReportOptions options;
    options.out = QString::fromStdString(dir.file("c.html"));
    writeComparisonReport(compareRuns(test::oneMinuteCrash(), test::tinyRun()), {}, options);
    QFile f(options.out);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    const std::string html = f.readAll().toStdString();
    const std::size_t mtbf = html.find(">MTBF<");
    ASSERT_NE(mtbf, std::string::npos);
    EXPECT_NE(html.substr(mtbf, html.find("</tr>", mtbf) - mtbf).find("not enough of the run to say"), std::string::npos) << html.substr(mtbf, 400);
}

}  // namespace
}  // namespace faultline
