#include "exports/comparison_report.h"
#include "widgets/qt_text.h"

#include "exports/html_parts.h"
#include "exports/image_file.h"
#include "exports/pdf_layout.h"
#include "exports/report_figures.h"
#include "model/error.h"
#include "model/format.h"
#include "model/partial_file.h"
#include "views/comparison_charts.h"
#include "views/run_loader.h"

#include <QApplication>
#include <QElapsedTimer>

#include <cstdio>

namespace faultline {

namespace {


std::string runLine(const RunSummary& s) {
    return s.name + " · " + formatCount(static_cast<std::int64_t>(s.gpus)) + " GPUs · " + formatDuration(s.duration) + " from " +
           formatWallTime(s.startEpochNs, 0);
}


// The tables both documents show, as text.
struct Tables {
    std::vector<std::vector<std::string>> groups;  // cause group (the network first), A, B, B - A
    std::vector<std::vector<std::string>> lost;    // part, A, B, B - A
    std::vector<std::vector<std::string>> kpis;    // figure, A, B, B - A, change, verdict
    std::vector<std::vector<std::string>> causes;  // cause, A, A rate, B, B rate
};

Tables tablesOf(const RunComparison& c) {
    Tables t;
    const ComparisonVerdict& v = c.verdict;
    // A side whose evidence cannot support its losses reads "not enough of the run to say".
    auto row = [&v](const std::string& part, double a, double b) {
        return std::vector<std::string>{part, lostGpuHoursCell(v.knownA, a), lostGpuHoursCell(v.knownB, b), lostGpuHoursDelta(v, b - a)};
    };
    for (const LostGpuHoursPart& g : v.groups) t.groups.push_back(row(g.part, g.a, g.b));
    for (const LostGpuHoursPart& p : v.parts) t.lost.push_back(row(p.part, p.a, p.b));
    t.lost.push_back(row("All lost time", v.lostA, v.lostB));
    for (const KpiTableRow& r : kpiTable(c)) t.kpis.push_back({r.label, r.a, r.b, r.delta, r.change, r.verdict});
    for (const CauseComparison& x : c.causes)
        t.causes.push_back({std::string(rootCauseLabel(x.cause)), std::to_string(x.a), rateCell(x.rateKnownA, x.ratePerKiloGpuDayA),
                            std::to_string(x.b), rateCell(x.rateKnownB, x.ratePerKiloGpuDayB)});
    return t;
}

const std::vector<std::string> kLostHeader{"GPU-hours lost to", "A", "B", "B - A"};
// The cause groups' header names the runs as the verdict does ("RoCE", "InfiniBand").
std::vector<std::string> groupHeader(const ComparisonVerdict& v) { return {"Cause", v.nameA, v.nameB, v.nameB + " - " + v.nameA}; }
const std::vector<std::string> kKpiHeader{"Figure", "A", "B", "B - A", "Change", ""};
const std::vector<std::string> kCauseHeader{"Root cause", "A", "per 1,000 GPU-days", "B", "per 1,000 GPU-days"};

QStringList qRow(const std::vector<std::string>& row) {
    QStringList out;
    for (const std::string& c : row) out << qtText(c);
    return out;
}
std::vector<QStringList> qRows(const std::vector<std::vector<std::string>>& rows) {
    std::vector<QStringList> out;
    for (const auto& r : rows) out.push_back(qRow(r));
    return out;
}

int writePdf(const RunComparison& c, const std::vector<ReportFigure>& figures, const ReportOptions& options, QIODevice& device) {
    const std::string title = "Comparison: " + c.a.name + " and " + c.b.name;
    PdfLayout pdf(&device, options.page, qtText(title), qtText("Faultline · " + title));
    if (!pdf.ok()) throw Error(options.out.toStdString() + ": cannot write");
    pdf.title(qtText(title), qtText("A  " + runLine(c.a) + "\nB  " + runLine(c.b)));
    pdf.paragraph(qtText(c.verdict.headline), QColor(20, 70, 140), 17);
    const Tables t = tablesOf(c);
    pdf.heading(QObject::tr("GPU-hours lost, by cause"));
    pdf.table(qRow(groupHeader(c.verdict)), qRows(t.groups), {0.46, 0.18, 0.18, 0.18}, {false, true, true, true});
    pdf.heading(QObject::tr("GPU-hours lost, part by part"));
    pdf.table(qRow(kLostHeader), qRows(t.lost), {0.46, 0.18, 0.18, 0.18}, {false, true, true, true});
    pdf.heading(QObject::tr("Figures"));
    pdf.table(qRow(kKpiHeader), qRows(t.kpis), {0.34, 0.15, 0.15, 0.14, 0.11, 0.11}, {false, true, true, true, true, false});
    if (!t.causes.empty()) {
        pdf.heading(QObject::tr("Root causes of unexpected interruptions"));
        pdf.table(qRow(kCauseHeader), qRows(t.causes), {0.34, 0.1, 0.23, 0.1, 0.23}, {false, true, true, true, true});
    }
    pdf.newPage();
    pdf.heading(QObject::tr("Charts"));
    for (const ReportFigure& f : figures) pdf.picture(f.picture, f.size, f.title);
    return pdf.finish();
}

QString html(const RunComparison& c, const std::vector<ReportFigure>& figures) {
    const std::string title = "Comparison: " + c.a.name + " and " + c.b.name;
    QString out = "<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8><title>" + h(title) + "</title><style>" + QString(kReportStyle) +
                  "</style></head><body>\n<h1>" + h(title) + "</h1><p class=muted>A &nbsp;" + h(runLine(c.a)) + "<br>B &nbsp;" +
                  h(runLine(c.b)) + "</p>\n<p class=verdict>" + h(c.verdict.headline) + "</p>\n";
    const Tables t = tablesOf(c);
    out += "<h2>GPU-hours lost, by cause</h2>" + gridTable(groupHeader(c.verdict), t.groups);
    out += "<h2>GPU-hours lost, part by part</h2>" + gridTable(kLostHeader, t.lost);
    out += "<h2>Figures</h2>" + gridTable(kKpiHeader, t.kpis);
    if (!t.causes.empty()) out += "<h2>Root causes of unexpected interruptions</h2>" + gridTable(kCauseHeader, t.causes);
    out += "<h2>Charts</h2>";
    for (const ReportFigure& f : figures) out += "<figure><figcaption>" + h(f.title) + "</figcaption>" + svgOf(f) + "</figure>\n";
    return out + "<p class=muted>Generated by Faultline</p></body></html>\n";
}

}  // namespace

std::vector<ReportFigure> renderComparisonFigures(const Run& a, const Run& b, const RunComparison& comparison) {
    ComparisonCharts charts;
    charts.setAttribute(Qt::WA_DontShowOnScreen);
    charts.setRuns(a, b, comparison);
    charts.resize(kChartSize);
    charts.show();
    QApplication::processEvents();
    std::vector<ReportFigure> out;
    while (charts.count() > 0) {
        const QString title = charts.tabText(0);
        QWidget* panel = charts.widget(0);
        charts.removeTab(0);
        panel->setParent(nullptr);  // on its own, at the figure's size
        panel->setAttribute(Qt::WA_DontShowOnScreen);
        panel->show();
        out.push_back(recordFigure(panel, title, kChartSize));
        delete panel;
    }
    return out;
}

int writeComparisonReport(const RunComparison& comparison, const std::vector<ReportFigure>& figures, const ReportOptions& options) {
    int pages = 0;
    writeThroughPartial(options.out.toStdString(), [&](const std::string& partial) {
        if (isHtmlReport(options.out)) writeHtmlFile(QString::fromStdString(partial), html(comparison, figures), options.out);
        else writeRenderedFile(partial, [&](QIODevice& device) { pages = writePdf(comparison, figures, options, device); });
    });
    return pages;
}

int writeComparisonReportHeadless(const QString& pathA, const QString& pathB, const ReportOptions& options) {
    QElapsedTimer timer;
    timer.start();
    try {
        const std::shared_ptr<const LoadedRun> a = loadRun(pathA);
        const std::shared_ptr<const LoadedRun> b = loadRun(pathB);
        const RunComparison comparison = compareRuns(a->run, b->run);
        const int pages = writeComparisonReport(comparison, renderComparisonFigures(a->run, b->run, comparison), options);
        std::printf("wrote %s: the comparison of %s and %s%s in %.1f s\n", qPrintable(options.out), comparison.a.name.c_str(),
                    comparison.b.name.c_str(), pages > 0 ? (", " + std::to_string(pages) + " pages").c_str() : "",
                    static_cast<double>(timer.elapsed()) / 1000.0);
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "faultline: %s\n", e.what());
        return 1;
    }
}

}  // namespace faultline
