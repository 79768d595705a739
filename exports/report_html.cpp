// The report as one self-contained HTML file for wikis: charts as inline SVG (vector, from
// the same recorded pictures as the PDF), 3D snapshots as inline PNG, no external files.
#include "exports/report_writer.h"

#include "model/partial_file.h"
#include "model/error.h"
#include "model/format.h"

#include <QBuffer>
#include <QFile>
#include <QPainter>
#include <QRegularExpression>
#include <QSvgGenerator>

namespace faultline {

namespace {

QString h(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }
QString h(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())).toHtmlEscaped(); }
QString h(const QString& s) { return s.toHtmlEscaped(); }

QString svgOf(const ReportFigure& f) {
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(f.size);
    svg.setViewBox(QRect(QPoint(0, 0), f.size));
    svg.setTitle(f.title);
    QPainter p(&svg);
    p.drawPicture(0, 0, f.picture);
    p.end();
    QString text = QString::fromUtf8(buffer.data());
    // Inline in HTML: drop the XML prolog, let the figure scale with the page.
    const qsizetype start = text.indexOf("<svg");
    if (start > 0) text = text.mid(start);
    return text.replace(QRegularExpression("<svg([^>]*) width=\"[^\"]*\" height=\"[^\"]*\""), "<svg\\1 style=\"width:100%;height:auto\"");
}

QString pngOf(const QImage& image) {
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return "data:image/png;base64," + QString::fromLatin1(buffer.data().toBase64());
}

QString factsTable(const std::vector<std::pair<std::string, std::string>>& rows) {
    QString out = "<table class=facts>";
    for (const auto& [k, v] : rows) out += "<tr><th>" + h(k) + "</th><td>" + h(v) + "</td></tr>";
    return out + "</table>\n";
}

constexpr const char* kStyle =
    "body{font-family:'DejaVu Sans',Arial,sans-serif;max-width:1000px;margin:2em auto;color:#1e1e1e;line-height:1.45}"
    "h1{color:#14468c}h2{color:#14468c;border-bottom:1px solid #c8cdd7;padding-bottom:.2em;margin-top:2em}"
    ".tiles{display:grid;grid-template-columns:repeat(3,1fr);gap:12px}.tile{background:#f0f4fa;border-left:4px solid #14468c;"
    "padding:.6em 1em}.tile .l{color:#5a5a5a;font-size:.9em}.tile .v{font-size:1.5em;font-weight:bold}"
    "table{border-collapse:collapse;width:100%;margin:.6em 0}th,td{text-align:left;padding:.25em .5em;vertical-align:top}"
    "table.grid tr:nth-child(even){background:#f7f8fa}table.grid th{background:#e1e8f2}table.facts th{width:30%;color:#464646}"
    "figure{margin:1em 0}figcaption{font-weight:bold;margin-bottom:.3em}img{max-width:100%}.note{white-space:pre-wrap;"
    "background:#fffbe6;border-left:4px solid #ffb400;padding:.5em 1em}.muted{color:#777}";

}  // namespace

void writeHtmlReport(const ReportContent& c, const ReportFigures& figures, const ReportOptions& options) {
    const RunInfo& info = c.run->info;
    QString html = "<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8><title>Run review: " + h(info.name) +
                   "</title><style>" + kStyle + "</style></head><body>\n";
    html += "<h1>Run review: " + h(info.name) + "</h1><p class=muted>" +
            h(formatWallTime(info.startEpochNs, 0) + " to " + formatWallTime(info.startEpochNs, info.duration) + " · " +
              formatDuration(info.duration) + " · " + info.source) +
            "</p>\n<div class=tiles>";
    for (const auto& [k, v] : headlineFigures(c.summary)) html += "<div class=tile><div class=l>" + h(k) + "</div><div class=v>" + h(v) + "</div></div>";
    html += "</div>\n<h2>Where the time went</h2><table class=grid><tr><th>Root cause</th><th>Count</th><th>Share</th></tr>";
    for (const CauseCount& cc : c.summary.causes)
        html += "<tr><td>" + h(rootCauseLabel(cc.cause)) + "</td><td>" + QString::number(cc.count) + "</td><td>" +
                QString::number(cc.percent, 'f', 1) + "%</td></tr>";
    html += "</table>\n<pre>" + h(goodputToText(c.summary.ledger)) + "</pre>\n<h2>Cluster power</h2><table class=facts>";
    for (const auto& [k, v] : powerFacts(c.power)) html += "<tr><th>" + h(k) + "</th><td>" + h(v) + "</td></tr>";
    html += "</table><table class=grid><tr><th>Largest swings (UTC)</th><th>From</th><th>To</th><th>MW/s</th><th>At</th></tr>";
    for (const auto& row : powerSwingRows(c.power, info)) {
        html += "<tr>";
        for (const std::string& cell : row) html += "<td>" + h(cell) + "</td>";
        html += "</tr>";
    }
    html += "</table>\n<h2>Charts</h2>\n";
    for (const ReportFigure& f : figures.charts) html += "<figure><figcaption>" + h(f.title) + "</figcaption>" + svgOf(f) + "</figure>\n";
    html += "<h2>Incidents by downtime</h2>\n";
    for (std::size_t i = 0; i < c.selected.size(); ++i) {
        const ReportIncident& r = c.selected[i];
        const Incident& inc = r.incident;
        html += "<h2 id=incident-" + QString::number(inc.id) + ">" + h(incidentTitle(inc)) + "</h2><p>" + h(inc.headline) + "</p>\n";
        html += factsTable(incidentFacts(inc, info));
        if (i < figures.snapshots.size())
            html += "<figure><img alt=\"The hardware at the failure\" src=\"" + pngOf(figures.snapshots[i]) + "\"></figure>\n";
        html += "<h3>Chain of events</h3><table class=grid><tr><th>When (UTC)</th><th>Since symptom</th><th>What happened</th></tr>";
        for (const IncidentEvent& e : inc.chain)
            html += "<tr><td>" + h(formatWallTime(info.startEpochNs, e.time)) + "</td><td>" + h(sinceSymptom(e.time - inc.begin)) +
                    "</td><td>" + h(e.what) + "</td></tr>";
        html += "</table>\n<h3>Review</h3>";
        if (!r.note) {
            html += "<p class=muted>Not reviewed yet: no notes, confirmed cause or tags in its review.</p>\n";
            continue;
        }
        html += factsTable({{"Confirmed cause", r.note->confirmedCause ? std::string(rootCauseLabel(*r.note->confirmedCause)) : "not confirmed"},
                            {"Tags", r.note->tags.empty() ? "none" : joinTags(r.note->tags)}});
        if (!r.note->notes.empty()) html += "<div class=note>" + h(noteExcerpt(r.note->notes, 4000)) + "</div>\n";
    }
    html += "<p class=muted>Generated by Faultline " + h(formatWallTime(c.generatedEpochNs, 0)) + "</p></body></html>\n";
    writeThroughPartial(options.out.toStdString(), [&](const std::string& partial) {
        QFile file(QString::fromStdString(partial));
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(html.toUtf8()) < 0 || !file.flush())
            throw Error(options.out.toStdString() + ": cannot write");
    });
}

}  // namespace faultline
