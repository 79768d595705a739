// Every page of every PDF the app writes, read back as a reader sees it (pdftotext's word
// boxes): no word off the page, no word drawn over another, and no page of a report that
// opens on rows of a table without saying what the table is. The panels and charts these
// pages are drawn from are checked for cut text in cut_text_test.cpp; this checks the pages.
#include "gui_test_app.h"
#include "test_runs.h"

#include "model/run_file.h"
#include "simulator/what_if.h"
#include "simulator/simulator.h"

#include <QFileInfo>
#include <QProcess>
#include <QRectF>
#include <QXmlStreamReader>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace faultline {
namespace {

using test::ScratchDir;

struct Word {
    QRectF box;
    QString text;
};

struct Line {
    QRectF box;
    QString text;
};

struct Page {
    QSizeF size;
    std::vector<Word> words;
    std::vector<Line> lines;  // in pdftotext's reading order
};

QString output(const QString& program, const QStringList& args) {
    QProcess p;
    p.start(program, args);
    if (!p.waitForFinished(180'000)) return {};
    return QString::fromUtf8(p.readAllStandardOutput());
}

QRectF boxOf(const QXmlStreamAttributes& a) {
    const double x0 = a.value("xMin").toDouble(), y0 = a.value("yMin").toDouble();
    return QRectF(QPointF(x0, y0), QPointF(a.value("xMax").toDouble(), a.value("yMax").toDouble()));
}

// The pages of `pdf` with their words and lines, from `pdftotext -bbox-layout`.
std::vector<Page> readPages(const QString& pdf) {
    std::vector<Page> pages;
    QXmlStreamReader xml(output("pdftotext", {"-bbox-layout", pdf, "-"}));
    Line* line = nullptr;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isEndElement() && xml.name() == u"line") line = nullptr;
        if (!xml.isStartElement()) continue;
        const QXmlStreamAttributes a = xml.attributes();
        if (xml.name() == u"page") {
            pages.push_back({QSizeF(a.value("width").toDouble(), a.value("height").toDouble()), {}, {}});
        } else if (xml.name() == u"line" && !pages.empty()) {
            pages.back().lines.push_back({boxOf(a), {}});
            line = &pages.back().lines.back();
        } else if (xml.name() == u"word" && !pages.empty()) {
            Word w{boxOf(a), xml.readElementText()};
            if (line) line->text += (line->text.isEmpty() ? "" : " ") + w.text;
            pages.back().words.push_back(std::move(w));
        }
    }
    EXPECT_FALSE(xml.hasError()) << pdf.toStdString() << ": " << xml.errorString().toStdString();
    return pages;
}

std::string where(const QString& pdf, std::size_t page) { return QFileInfo(pdf).fileName().toStdString() + " page " + std::to_string(page + 1); }

// No word beyond the page's edges, none drawn over another (more than a fifth of the smaller
// box covered: glyphs touching across a tight line are not text over text).
void expectEveryWordReadable(const QString& pdf, const std::vector<Page>& pages) {
    for (std::size_t p = 0; p < pages.size(); ++p) {
        const Page& page = pages[p];
        const QRectF sheet = QRectF(QPointF(0, 0), page.size).adjusted(-0.5, -0.5, 0.5, 0.5);
        for (std::size_t i = 0; i < page.words.size(); ++i) {
            const Word& w = page.words[i];
            EXPECT_TRUE(sheet.contains(w.box)) << where(pdf, p) << ": \"" << w.text.toStdString() << "\" runs off the page";
            for (std::size_t j = i + 1; j < page.words.size(); ++j) {
                const Word& v = page.words[j];
                const QRectF both = w.box.intersected(v.box);
                const double smaller = std::min(w.box.width() * w.box.height(), v.box.width() * v.box.height());
                if (both.isEmpty() || smaller <= 0) continue;
                EXPECT_LE(both.width() * both.height(), smaller / 5)
                    << where(pdf, p) << ": \"" << w.text.toStdString() << "\" over \"" << v.text.toStdString() << "\"";
            }
        }
    }
}

// A page of a report opens on a heading: a line of larger type than the body's table rows.
// A table that runs on from the page before repeats its section's heading, "(continued)".
void expectEveryPageOpensOnAHeading(const QString& pdf, const std::vector<Page>& pages) {
    for (std::size_t p = 1; p < pages.size(); ++p) {
        const Page& page = pages[p];
        ASSERT_FALSE(page.lines.empty()) << where(pdf, p) << " is empty";
        const Line* top = &page.lines.front();
        for (const Line& l : page.lines)
            if (l.box.top() < top->box.top()) top = &l;
        const double bodyHeight = [&] {  // the commonest line height on the page
            std::map<int, int> count;
            for (const Line& l : page.lines) ++count[static_cast<int>(std::lround(l.box.height()))];
            return static_cast<double>(std::max_element(count.begin(), count.end(), [](auto& a, auto& b) { return a.second < b.second; })->first);
        }();
        EXPECT_GT(top->box.height(), bodyHeight * 1.2)
            << where(pdf, p) << " opens on \"" << top->text.toStdString() << "\" (" << top->box.height() << " pt high, the body "
            << bodyHeight << " pt): a table or text under no heading";
    }
}

int pageCount(const QString& pdf) { return output("pdfinfo", {pdf}).section("Pages:", 1).simplified().section(' ', 0, 0).toInt(); }

// Runs the app to write a PDF (`args` name it second) and returns the PDF's path.
QString write(const QStringList& args) {
    QProcess p;
    p.start(FAULTLINE_APP, args);
    EXPECT_TRUE(p.waitForFinished(300'000));
    EXPECT_EQ(p.exitCode(), 0) << args.join(' ').toStdString() << ": " << p.readAllStandardError().toStdString();
    return args[1];
}

TEST(PdfPages, TheReportOfAShortAndALongRun) {
    ScratchDir dir;
    const std::string tiny = dir.file("tiny.faultline");
    writeRunFile(test::tinyRun(), tiny);
    SimulationParams p = simulationPreset("llama3-405b");
    p.days = 12;
    p.telemetry.interval = 0;
    const std::string longer = dir.file("twelve-days.faultline");
    writeRunFile(simulate(p), longer);
    for (const std::string& run : {tiny, longer}) {
        const QString pdf = write({"--report", QString::fromStdString(run + ".pdf"), "--incidents", "3", QString::fromStdString(run)});
        const std::vector<Page> pages = readPages(pdf);
        ASSERT_EQ(static_cast<int>(pages.size()), pageCount(pdf)) << pdf.toStdString();
        ASSERT_GE(pages.size(), 4u) << pdf.toStdString();
        expectEveryWordReadable(pdf, pages);
        expectEveryPageOpensOnAHeading(pdf, pages);
    }
}

TEST(PdfPages, TheComparisonReport) {
    ScratchDir dir;
    const QString a = QString::fromStdString(dir.file("a.faultline")), b = QString::fromStdString(dir.file("b.faultline"));
    writeRunFile(test::tinyRun(), a.toStdString());
    RecoveryPolicy policy;
    policy.checkpointInterval = 45 * kMinute;
    writeRunFile(replayWithPolicy(test::tinyRun(), policy), b.toStdString());
    const QString pdf = write({"--report", QString::fromStdString(dir.file("compare.pdf")), "--compare", a, b});
    const std::vector<Page> pages = readPages(pdf);
    ASSERT_GE(pages.size(), 2u);
    expectEveryWordReadable(pdf, pages);
    expectEveryPageOpensOnAHeading(pdf, pages);
}

TEST(PdfPages, ThePresentationsSlides) {
    ScratchDir dir;
    const std::string run = dir.file("tiny.faultline");
    writeRunFile(test::tinyRun(), run);
    const QString pdf = write({"--presentation", QString::fromStdString(dir.file("slides.pdf")), "--incidents", "3", QString::fromStdString(run)});
    const std::vector<Page> pages = readPages(pdf);
    ASSERT_EQ(pages.size(), 5u) << "title, three incidents, closing";
    expectEveryWordReadable(pdf, pages);
}

}  // namespace
}  // namespace faultline
