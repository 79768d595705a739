// Every export is whole or absent (issue 39): each writer with its writes refused past a few
// KB (RLIMIT_FSIZE, as a full disk refuses them; tests/support/write_faults.h) fails with a
// message that names the file and the cause, leaves no partial file, and leaves the older
// file of that name exactly as it was; on a real full disk (a tmpfs, where the test may mount
// one) the cause reads "no space left on device".
#include "file_bytes.h"
#include "gui_test_app.h"
#include "test_runs.h"
#include "write_faults.h"

#include "analysis/run_comparison.h"
#include "exports/comparison_report.h"
#include "exports/csv_export.h"
#include "exports/image_file.h"
#include "exports/panel_export.h"
#include "exports/perfetto_export.h"
#include "exports/report_content.h"
#include "exports/report_writer.h"
#include "exports/video_encoder.h"
#include "model/error.h"
#include "views/charts_view.h"

#include <QImage>
#include <QPainter>
#include <QRandomGenerator>
#include <QtCharts/QChartView>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

namespace faultline {
namespace {

namespace fs = std::filesystem;
using test::ScratchDir;

using test::bytesOf;

bool hasPartial(const fs::path& folder) {
    for (const auto& entry : fs::directory_iterator(folder))
        if (entry.path().filename().string().find(".partial-") != std::string::npos) return true;
    return false;
}

// `write` run with writes past 8 KB refused must throw an Error naming `target` and `cause`,
// leave `target` as it was (`older`, written first) and no partial file beside it.
void expectWholeOrAbsent(const std::string& target, const std::string& older, const std::function<void()>& write,
                         const std::string& cause = "file too large") {
    std::ofstream(target, std::ios::binary) << older;
    {
        const test::FileSizeLimit limit(8 * 1024);
        try {
            write();
            ADD_FAILURE() << target << ": a write past the limit must fail";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find(target), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find(cause), std::string::npos) << e.what();
            EXPECT_EQ(std::string(e.what()).find(".partial-"), std::string::npos) << "the message names the file, not its partial: " << e.what();
        }
    }
    EXPECT_EQ(bytesOf(target), older) << target << ": the older file must stay as it was";
    EXPECT_FALSE(hasPartial(fs::path(target).parent_path())) << target;
}

ReportContent tinyContent() {
    static const auto run = std::shared_ptr<const faultline::Run>(std::shared_ptr<const faultline::Run>(), &test::tinyRun());
    return buildReportContent(run, {}, 3);
}

// Noise does not compress: a PNG of it is far past the limit.
QImage noise(int width, int height) {
    QImage image(width, height, QImage::Format_RGB32);
    QRandomGenerator random(7);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) image.setPixel(x, y, random.generate());
    return image;
}

TEST(WholeOrAbsent, HtmlAndPdfReports) {
    test::guiApp();
    ScratchDir dir;
    const ReportContent content = tinyContent();
    const ReportFigures figures;
    ReportOptions options;
    options.out = QString::fromStdString(dir.file("r.html"));
    expectWholeOrAbsent(dir.file("r.html"), "<!doctype html><p>an older report</p>", [&] { writeHtmlReport(content, figures, options); });
    options.out = QString::fromStdString(dir.file("r.pdf"));
    expectWholeOrAbsent(dir.file("r.pdf"), "%PDF-1.4 an older report", [&] { writePdfReport(content, figures, options); });
    // Without the limit both are written whole.
    EXPECT_NO_THROW(writePdfReport(content, figures, options));
    EXPECT_EQ(bytesOf(dir.file("r.pdf")).substr(0, 5), "%PDF-");
    EXPECT_NE(bytesOf(dir.file("r.pdf")).find("%%EOF"), std::string::npos);
}

TEST(WholeOrAbsent, ComparisonReports) {
    test::guiApp();
    ScratchDir dir;
    const faultline::Run a = test::comparisonRunA(), b = test::comparisonRunB();
    const RunComparison comparison = compareRuns(a, b);
    std::vector<ReportFigure> figures(1);
    figures[0].title = "Noise";
    figures[0].size = QSize(300, 300);
    QPainter painter(&figures[0].picture);
    painter.drawImage(0, 0, noise(300, 300));
    painter.end();
    ReportOptions options;
    for (const char* name : {"c.html", "c.pdf"}) {
        options.out = QString::fromStdString(dir.file(name));
        expectWholeOrAbsent(dir.file(name), std::string(name) == "c.html" ? "<!doctype html>older" : "%PDF-1.4 older",
                            [&] { writeComparisonReport(comparison, figures, options); });
    }
}

TEST(WholeOrAbsent, SvgAndPngPictures) {
    test::guiApp();
    ScratchDir dir;
    ChartsView charts;
    charts.setRun(std::shared_ptr<const faultline::Run>(std::shared_ptr<const faultline::Run>(), &test::tinyRun()));
    charts.resize(1000, 1200);
    charts.show();
    auto* chart = charts.findChild<QChartView*>("stepTimeChart");
    ASSERT_TRUE(chart);
    const std::string svg = dir.file("c.svg");
    expectWholeOrAbsent(svg, "<svg>an older picture</svg>", [&] {
        QString error;
        if (!exportPanel(chart, QString::fromStdString(svg), QSize(900, 400), 1, &error)) throw Error(error.toStdString());
    });
    expectWholeOrAbsent(dir.file("n.png"), "\x89PNG\r\n\x1a\nan older picture",
                        [&] { saveImageFile(noise(400, 400), QString::fromStdString(dir.file("n.png"))); });
}

TEST(WholeOrAbsent, CsvTablesAndPerfettoTrace) {
    ScratchDir dir;
    fs::create_directory(dir.path() / "csv");
    const std::string incidents = dir.file("csv/incidents.csv");
    // Many notes make the incidents table long.
    std::map<Nanos, IncidentNote> notes;
    for (const Downtime& d : test::tinyRun().downtimes) notes[d.begin] = {d.begin, std::string(2000, 'n'), std::nullopt, {}, 0};
    expectWholeOrAbsent(incidents, "incident,begin\r\n1,older\r\n", [&] { writeCsvTables(test::tinyRun(), notes, dir.file("csv")); });
    expectWholeOrAbsent(dir.file("t.json"), "{\"older\": true}", [&] { writePerfettoTraceFile(test::tinyRun(), dir.file("t.json")); });
}

TEST(WholeOrAbsent, Mp4Video) {
    ScratchDir dir;
    const std::string mp4 = dir.file("v.mp4");
    const QImage frame = noise(320, 240).convertToFormat(QImage::Format_RGB32);
    expectWholeOrAbsent(mp4, std::string("\0\0\0\x18" "ftypisom older", 18), [&] {
        VideoEncoder encoder(mp4, 320, 240, 10);
        for (int i = 0; i < 10; ++i) encoder.addFrame(frame.constBits(), static_cast<int>(frame.bytesPerLine()));
        encoder.finish();
    });
}

TEST(WholeOrAbsent, AFullDiskIsNamedNoSpaceLeftOnDevice) {
    test::guiApp();
    ScratchDir dir;
    test::FullDisk disk(dir.path() / "full", 1 << 20);
    if (!disk.available()) GTEST_SKIP() << "needs root to mount a small tmpfs";
    const ReportContent content = tinyContent();
    const ReportFigures figures;
    ReportOptions options;
    for (const char* name : {"r.html", "r.pdf"}) {
        options.out = QString::fromStdString(disk.file(name));
        const std::string older = std::string(name) == "r.html" ? "<!doctype html>older" : "%PDF-1.4 older";
        std::ofstream(disk.file(name), std::ios::binary) << older;
        disk.fill();
        try {
            if (isHtmlReport(options.out)) writeHtmlReport(content, figures, options);
            else writePdfReport(content, figures, options);
            ADD_FAILURE() << name << " on a full disk must fail";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find(disk.file(name) + ": cannot write: no space left on device"), std::string::npos) << e.what();
        }
        EXPECT_EQ(bytesOf(disk.file(name)), older);
        fs::remove(disk.file("filler"));
    }
    disk.fill();
    try {
        writePerfettoTraceFile(test::tinyRun(), disk.file("t.json"));
        ADD_FAILURE() << "a trace on a full disk must fail";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("no space left on device"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(fs::exists(disk.file("t.json")));
    EXPECT_FALSE(hasPartial(disk.file("")));
}

}  // namespace
}  // namespace faultline
