// Exported files looked at the way their readers look at them: the PDF through poppler
// (pdfinfo, pdftotext), the video through ffprobe, the CSV read back; from the app's command
// line as a user runs it, and from the window's File menu. The exports' own pieces (frames,
// pictures of panels, the report's facts) are tested in tests/exports.
#include "gui_test_app.h"
#include "open_in_window.h"
#include "test_runs.h"

#include "analysis/incidents.h"
#include "app/main_window.h"
#include "app/export_controller.h"
#include "exports/panel_export.h"
#include "exports/report_content.h"
#include "model/incident_notes.h"
#include "model/run_file.h"
#include "simulator/simulator.h"
#include "views/charts_view.h"
#include "views/fabric/fabric_view.h"
#include "views/timeline_view.h"

#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QMenuBar>
#include <QProgressDialog>
#include <QSignalSpy>
#include <QTimer>
#include <QImage>
#include <QPointer>
#include <QProcess>
#include <QRegularExpression>
#include <QTest>

#include <gtest/gtest.h>

#include <set>

namespace faultline {
namespace {

using test::ScratchDir;

struct Output {
    int status = -1;
    QString out, err;
};

Output run(const QString& program, const QStringList& args) {
    QProcess p;
    p.start(program, args);
    Output o;
    if (!p.waitForFinished(300'000)) {
        p.kill();
        return o;
    }
    o.status = p.exitCode();
    o.out = QString::fromUtf8(p.readAllStandardOutput());
    o.err = QString::fromUtf8(p.readAllStandardError());
    return o;
}

// The tiny run in a file, with a reviewer's note on its worst incident.
struct NotedRun {
    ScratchDir dir;
    std::string path = dir.file("tiny.faultline");
    Incident worst;
    std::string note = "Replaced the GPU, \"HBM3\" errors again; ticket 4411";
    NotedRun() {
        writeRunFile(test::tinyRun(), path);
        worst = worstIncidents(buildIncidents(test::tinyRun()), 1).front();
        IncidentNotesStore(path).save({worst.begin, note, RootCause::FaultyGpu, {"hbm", "repeat offender"}, 0});
    }
};

TEST(ExportReport, PdfHasItsPagesAndTheTextAReviewerLooksFor) {
    test::guiApp();
    NotedRun r;
    const QString pdf = QString::fromStdString(r.dir.file("report.pdf"));
    const Output made = run(FAULTLINE_APP, {"--report", pdf, "--incidents", "3", QString::fromStdString(r.path)});
    ASSERT_EQ(made.status, 0) << made.err.toStdString();
    const QRegularExpression printed("(\\d+) pages");
    const auto m = printed.match(made.out);
    ASSERT_TRUE(m.hasMatch()) << made.out.toStdString();

    const Output info = run("pdfinfo", {pdf});
    ASSERT_EQ(info.status, 0) << info.err.toStdString();
    const auto pages = QRegularExpression("Pages:\\s+(\\d+)").match(info.out);
    ASSERT_TRUE(pages.hasMatch());
    EXPECT_EQ(pages.captured(1), m.captured(1));
    // Title, figures, charts, the incident list with the first sections, and the ledger per day.
    EXPECT_GE(pages.captured(1).toInt(), 6);
    EXPECT_TRUE(info.out.contains("(A4)")) << info.out.toStdString();

    const QString text = run("pdftotext", {"-layout", pdf, "-"}).out;
    for (const char* expected : {"Run review: tiny", "Where the time went", "Root causes of unexpected interruptions", "Chain of events",
                                 "Effective training time per day", "Goodput ledger per day", "ticket 4411", "repeat offender", "Cluster power",
                                 "Swing (a tenth of the peak", "Cluster power draw"})
        EXPECT_TRUE(text.contains(expected)) << expected;
    for (const Incident& inc : worstIncidents(buildIncidents(test::tinyRun()), 3))
        EXPECT_TRUE(text.contains(QString::fromStdString(incidentTitle(inc)))) << incidentTitle(inc);
    // Pages filled: the worst incident's section goes on under the list of incidents, not on
    // a page of its own after a three-quarters empty one.
    int listPage = 0;
    for (int page = 1; page <= pages.captured(1).toInt() && !listPage; ++page)
        if (run("pdftotext", {"-f", QString::number(page), "-l", QString::number(page), pdf, "-"}).out.contains("Incidents by downtime"))
            listPage = page;
    ASSERT_GT(listPage, 0);
    const Output first = run("pdftotext", {"-f", QString::number(listPage), "-l", QString::number(listPage), pdf, "-"});
    EXPECT_TRUE(first.out.contains(QString::fromStdString(incidentTitle(r.worst)))) << first.out.toStdString();
    // Two incidents a page where they fit: the second and third sections share one.
    const std::vector<Incident> worst = worstIncidents(buildIncidents(test::tinyRun()), 3);
    ASSERT_EQ(worst.size(), 3u);
    bool shared = false;
    for (int page = listPage; page <= pages.captured(1).toInt(); ++page) {
        const QString onPage = run("pdftotext", {"-f", QString::number(page), "-l", QString::number(page), pdf, "-"}).out;
        shared = shared || (onPage.contains(QString::fromStdString(incidentTitle(worst[1]))) &&
                            onPage.contains(QString::fromStdString(incidentTitle(worst[2]))));
    }
    EXPECT_TRUE(shared) << "the second and third incident sections are on pages of their own";
}

// Twelve days of the 16,384-GPU preset: the causes table fills page 2 so that the power
// section does not fit under it. Its table once went alone onto page 3, under no heading.
TEST(ExportReport, ThePowerSectionKeepsItsHeadingWithItsTable) {
    test::guiApp();
    ScratchDir dir;
    SimulationParams p = simulationPreset("llama3-405b");
    p.days = 12;
    p.telemetry.interval = 0;
    const std::string path = dir.file("fleet.faultline");
    writeRunFile(simulate(p), path);
    const QString pdf = QString::fromStdString(dir.file("fleet.pdf"));
    ASSERT_EQ(run(FAULTLINE_APP, {"--report", pdf, "--incidents", "1", QString::fromStdString(path)}).status, 0);
    int headingPage = 0, tablePage = 0;
    for (int page = 1; page <= 4; ++page) {
        const QString text = run("pdftotext", {"-f", QString::number(page), "-l", QString::number(page), pdf, "-"}).out;
        if (text.contains("Cluster power\n")) headingPage = page;
        if (text.contains("Swing (a tenth of the peak")) tablePage = page;
    }
    ASSERT_GT(tablePage, 0);
    EXPECT_EQ(headingPage, tablePage) << "the swings table on page " << tablePage << ", its heading on page " << headingPage;
    // What a reader checks in the table: each failure's drop counted once, in one row.
    const QString text = run("pdftotext", {"-layout", "-f", QString::number(tablePage), "-l", QString::number(tablePage), pdf, "-"}).out;
    EXPECT_EQ(text.count("Drop at a failure"), 1) << text.toStdString();
    EXPECT_EQ(text.count("11.47 MW \u2192 1.18 MW"), 1) << text.toStdString();
}

TEST(ExportReport, LetterPaperWhenAsked) {
    test::guiApp();
    NotedRun r;
    const QString pdf = QString::fromStdString(r.dir.file("letter.pdf"));
    ASSERT_EQ(run(FAULTLINE_APP, {"--report", pdf, "--incidents", "1", "--page", "letter", QString::fromStdString(r.path)}).status, 0);
    const Output info = run("pdfinfo", {pdf});
    EXPECT_TRUE(info.out.contains("612 x 792 pts (letter)")) << info.out.toStdString();
}

TEST(ExportReport, HtmlIsOneSelfContainedFile) {
    test::guiApp();
    NotedRun r;
    const QString html = QString::fromStdString(r.dir.file("report.html"));
    const Output made = run(FAULTLINE_APP, {"--report", html, "--incidents", "2", QString::fromStdString(r.path)});
    ASSERT_EQ(made.status, 0) << made.err.toStdString();
    QFile f(html);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(f.readAll());
    // The charts, vector: ETTR, step time, causes, waterfall, cluster power and the timeline
    // (the tiny run has no traces, so no straggler heat map).
    EXPECT_EQ(text.count("<svg"), 6);
    EXPECT_TRUE(text.contains("<h2>Cluster power</h2>"));
    EXPECT_EQ(text.count("src=\"data:image/png;base64,"), 2);  // a 3D snapshot per incident
    EXPECT_FALSE(text.contains("src=\"http")) << "refers to another file";
    // Written for a reader, not a clicker: none of the app's "click a bar" hints.
    EXPECT_FALSE(text.contains("click", Qt::CaseInsensitive)) << "an interaction hint in the report";
    EXPECT_TRUE(text.contains(QString::fromStdString(r.note).toHtmlEscaped()));
}

TEST(ExportVideo, Mp4DecodesToTheFramesAndSizeAsked) {
    test::guiApp();
    ScratchDir dir;
    const std::string path = dir.file("tiny.faultline");
    writeRunFile(test::tinyRun(), path);
    const QString mp4 = QString::fromStdString(dir.file("replay.mp4"));
    // Two seconds of video at 10 fps: 20 frames.
    const Output made = run(FAULTLINE_APP, {"--record", mp4, "--from", "1h", "--to", "2h", "--speed", "30m/s", "--fps", "10", "--size",
                                            "640x360", QString::fromStdString(path)});
    ASSERT_EQ(made.status, 0) << made.err.toStdString();
    EXPECT_TRUE(made.out.contains("20 frames")) << made.out.toStdString();
    const Output probe = run("ffprobe", {"-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                                         "stream=codec_name,width,height,nb_read_frames", "-of", "default=noprint_wrappers=1", mp4});
    ASSERT_EQ(probe.status, 0) << probe.err.toStdString();
    EXPECT_TRUE(probe.out.contains("codec_name=h264")) << probe.out.toStdString();
    EXPECT_TRUE(probe.out.contains("width=640")) << probe.out.toStdString();
    EXPECT_TRUE(probe.out.contains("height=360")) << probe.out.toStdString();
    EXPECT_TRUE(probe.out.contains("nb_read_frames=20")) << probe.out.toStdString();
}

// The presentation's slides as a PDF to hand out: one 16:9 page a slide, from the command line
// as from File > Export Presentation as PDF.
TEST(ExportPresentation, OnePdfPageASlide) {
    test::guiApp();
    ScratchDir dir;
    const std::string path = dir.file("tiny.faultline");
    writeRunFile(test::tinyRun(), path);
    const QString pdf = QString::fromStdString(dir.file("slides.pdf"));
    const Output made = run(FAULTLINE_APP, {"--presentation", pdf, "--incidents", "2", QString::fromStdString(path)});
    ASSERT_EQ(made.status, 0) << made.err.toStdString();
    EXPECT_TRUE(made.out.contains("4 slides")) << made.out.toStdString();  // title, 2 incidents, closing
    QFile f(pdf);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    const QByteArray bytes = f.readAll();
    EXPECT_TRUE(bytes.startsWith("%PDF"));
    EXPECT_EQ(bytes.count("/Type /Page\n") + bytes.count("/Type /Page\r") + bytes.count("/Type /Page "), 4) << "one page a slide";
    const Output info = run("pdfinfo", {pdf});
    if (info.status == 0) {
        EXPECT_TRUE(info.out.contains("720 x 405 pts")) << "16:9 pages: " << info.out.toStdString();
    }

    const Output wrongKind = run(FAULTLINE_APP, {"--presentation", QString::fromStdString(dir.file("slides.png")), QString::fromStdString(path)});
    EXPECT_EQ(wrongKind.status, 2);
    EXPECT_TRUE(wrongKind.err.contains("--presentation writes a PDF")) << wrongKind.err.toStdString();
}

TEST(ExportVideo, BadSpeedIsAUsageError) {
    test::guiApp();
    ScratchDir dir;
    const std::string path = dir.file("tiny.faultline");
    writeRunFile(test::tinyRun(), path);
    const Output o = run(FAULTLINE_APP, {"--record", QString::fromStdString(dir.file("x.mp4")), "--speed", "fast", QString::fromStdString(path)});
    EXPECT_EQ(o.status, 2);
    EXPECT_TRUE(o.err.contains("--speed expects")) << o.err.toStdString();
    EXPECT_FALSE(QFile::exists(QString::fromStdString(dir.file("x.mp4"))));
}

TEST(ExportData, FromTheWindowOffTheGuiThreadTheSameFilesAsTheCli) {
    test::guiApp();
    NotedRun r;
    test::WindowOnRun w(r.path);
    ASSERT_TRUE(w.shown);
    MainWindow& window = w.window;
    auto* exports = window.findChild<ExportController*>();
    ASSERT_NE(exports, nullptr);
    QSignalSpy done(exports, &ExportController::message);
    const QString dir = QString::fromStdString(r.dir.file("tables"));
    exports->exportCsvTo(dir);
    ASSERT_TRUE(done.wait(20'000));  // the event loop ran while the worker wrote
    EXPECT_TRUE(done.last().first().toString().startsWith("Wrote incidents.csv")) << done.last().first().toString().toStdString();
    QFile csv(dir + "/incidents.csv");
    ASSERT_TRUE(csv.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(csv.readAll());
    EXPECT_EQ(text.count("\r\n"), static_cast<int>(buildIncidents(test::tinyRun()).size()) + 1) << text.toStdString();  // header + rows
    EXPECT_TRUE(text.contains("ticket 4411"));
    const QString json = QString::fromStdString(r.dir.file("run.json"));
    exports->exportPerfettoTo(json);
    ASSERT_TRUE(done.wait(20'000));
    EXPECT_EQ(done.last().first().toString(), "Wrote " + json);
    EXPECT_GT(QFile(json).size(), 1000);
}

TEST(ExportReport, FromTheWindowTheFiguresThenTheDocumentOnAWorker) {
    test::guiApp();
    NotedRun r;
    test::WindowOnRun w(r.path);
    ASSERT_TRUE(w.shown);
    MainWindow& window = w.window;
    auto* exports = window.findChild<ExportController*>();
    QSignalSpy said(exports, &ExportController::message);
    const QString pdf = QString::fromStdString(r.dir.file("from-window.pdf"));
    exports->exportReportTo({pdf, 2, QPageSize::Letter});
    ASSERT_GE(said.count(), 1);
    EXPECT_EQ(said.first().first().toString(), "Writing " + pdf + "...");  // the figures are made; the document is being written
    ASSERT_TRUE(said.wait(20'000));
    EXPECT_EQ(said.last().first().toString(), "Wrote " + pdf);
    const QString text = run("pdftotext", {pdf, "-"}).out;
    EXPECT_TRUE(text.contains(QString::fromStdString(incidentTitle(r.worst))));
}

TEST(ExportVideo, FromTheWindowWithProgressAndCancelLeavesNoFile) {
    test::WindowOnRun w(test::tinyRun());
    ASSERT_TRUE(w.shown);
    MainWindow& window = w.window;
    auto* exports = window.findChild<ExportController*>();
    QSignalSpy said(exports, &ExportController::message);
    const QString done = QString::fromStdString(w.dir.file("done.mp4"));
    exports->exportVideoTo({done, "1h", "2h", "30m/s", 10, QSize(320, 180)});
    ASSERT_EQ(said.count(), 1);
    EXPECT_EQ(said.last().first().toString(), "Wrote " + done + " (20 frames)");
    EXPECT_TRUE(QFile::exists(done));

    // Cancel pressed while it records: the event loop runs between frames, so it is heard.
    const QString cancelled = QString::fromStdString(w.dir.file("cancelled.mp4"));
    QTimer::singleShot(300, &window, [&window] {
        if (auto* progress = window.findChild<QProgressDialog*>()) progress->cancel();
    });
    exports->exportVideoTo({cancelled, "1h", "20h", "1h/s", 10, QSize(320, 180)});  // 190 frames
    ASSERT_EQ(said.count(), 2);
    EXPECT_EQ(said.last().first().toString(), "Video cancelled");
    EXPECT_FALSE(QFile::exists(cancelled));
}

TEST(ExportPicture, FileMenuHasTheExportsAndCopyPutsThePanelOnTheClipboard) {
    test::guiApp();
    MainWindow window;
    QStringList actions;
    for (QAction* menu : window.menuBar()->actions())
        if (menu->menu())
            for (QAction* a : menu->menu()->actions()) actions << a->text().remove('&');
    for (const char* expected : {"Export Report...", "Export Video...", "Export Picture", "Copy Picture", "Export Data", "Present"})
        EXPECT_TRUE(actions.contains(expected)) << expected << " in " << actions.join(", ").toStdString();

    TimelineView timeline;
    timeline.setRun(std::shared_ptr<const faultline::Run>(std::shared_ptr<const faultline::Run>(), &test::tinyRun()));
    timeline.resize(700, 200);
    timeline.show();
    copyPanelToClipboard(&timeline);
    const QImage copied = QApplication::clipboard()->image();
    EXPECT_EQ(copied.size(), QSize(700, 200));
}

// A run whose traced collectives had a late rank on a throttled GPU: both reports list the late
// ranks with what their GPUs read while traced, and a run without traces has no such section.
TEST(ExportReport, LateRanksComeWithTheirGpusTelemetry) {
    test::guiApp();
    faultline::Run traced = test::tinyRun();
    traced.collectiveOps = {"allreduce"};
    traced.processGroups = {{"dp", {0, 1, 2, 3}}};
    traced.rankToGpu = {0, 1, 2, 3};
    for (std::int64_t seq = 1; seq <= 3; ++seq)
        for (std::int32_t rank = 0; rank < 4; ++rank) {
            const Nanos start = kHour + seq * kSecond;
            traced.collectives.push_back({rank, 0, 0, seq, start + (rank == 2 ? 40 * kMillisecond : 0), start + 50 * kMillisecond, 1 << 20});
        }
    traced.telemetry = {};  // only the SM clock of the four traced GPUs
    traced.telemetry.metrics = {"DCGM_FI_DEV_SM_CLOCK"};
    TelemetryLevel level{10 * kMinute, {}};
    const std::int64_t bucket = (traced.info.startEpochNs + kHour) / level.bucket;
    for (std::int32_t gpu = 0; gpu < 4; ++gpu) {
        const float clock = gpu == 2 ? 1410.f : 1980.f;
        level.series.push_back({0, gpu, {bucket}, {clock}, {clock}, {clock}});
    }
    traced.telemetry.levels = {level};
    ScratchDir dir;
    const std::string path = dir.file("traced.faultline");
    writeRunFile(traced, path);
    for (const char* name : {"report.pdf", "report.html"}) {
        const QString out = QString::fromStdString(dir.file(name));
        const Output made = run(FAULTLINE_APP, {"--report", out, QString::fromStdString(path)});
        ASSERT_EQ(made.status, 0) << made.err.toStdString();
        QString text;
        if (out.endsWith(".pdf")) {
            text = run("pdftotext", {out, "-"}).out;
            if (const QByteArray shots = qgetenv("FAULTLINE_TEST_SHOTS"); !shots.isEmpty()) QFile::copy(out, shots + "/late-ranks-report.pdf");
        } else {
            QFile html(out);
            ASSERT_TRUE(html.open(QIODevice::ReadOnly));
            text = QString::fromUtf8(html.readAll());
        }
        EXPECT_TRUE(text.contains("Late ranks in the traced collectives")) << name;
        EXPECT_TRUE(text.contains("SM clock 1,410 MHz vs peers 1,980")) << name;
    }
    const QString plain = QString::fromStdString(dir.file("plain.pdf"));
    NotedRun untraced;
    ASSERT_EQ(run(FAULTLINE_APP, {"--report", plain, QString::fromStdString(untraced.path)}).status, 0);
    EXPECT_FALSE(run("pdftotext", {plain, "-"}).out.contains("Late ranks")) << "a run without traces has no late ranks to list";
}

}  // namespace
}  // namespace faultline
