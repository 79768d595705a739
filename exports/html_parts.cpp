#include "exports/html_parts.h"

#include "model/checked_write.h"
#include "model/error.h"

#include <QBuffer>
#include <QFile>
#include <QPainter>
#include <QRegularExpression>
#include <QSvgGenerator>

namespace faultline {

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

QString gridTable(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows) {
    QString out = "<table class=grid><tr>";
    for (const std::string& c : header) out += "<th>" + h(c) + "</th>";
    out += "</tr>";
    for (const auto& row : rows) {
        out += "<tr>";
        for (std::size_t i = 0; i < row.size(); ++i) out += (i ? "<td class=n>" : "<td>") + h(row[i]) + "</td>";
        out += "</tr>";
    }
    return out + "</table>\n";
}

void writeHtmlFile(const QString& path, const QString& html, const QString& out) {
    // Every byte counted: a full disk is "no space left on device", never a report cut short.
    const QByteArray bytes = html.toUtf8();
    try {
        writeFileBytes(path.toStdString(), std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
    } catch (const Error& e) {
        std::string message = e.what();
        if (const std::string partial = path.toStdString(); message.rfind(partial, 0) == 0) message.replace(0, partial.size(), out.toStdString());
        throw Error(message);
    }
}

const char* const kReportStyle =
    "body{font-family:'DejaVu Sans',Arial,sans-serif;max-width:1000px;margin:2em auto;color:#1e1e1e;line-height:1.45}"
    "h1{color:#14468c}h2{color:#14468c;border-bottom:1px solid #c8cdd7;padding-bottom:.2em;margin-top:2em}"
    ".tiles{display:grid;grid-template-columns:repeat(3,1fr);gap:12px}.tile{background:#f0f4fa;border-left:4px solid #14468c;"
    "padding:.6em 1em}.tile .l{color:#5a5a5a;font-size:.9em}.tile .v{font-size:1.5em;font-weight:bold}"
    "table{border-collapse:collapse;width:100%;margin:.6em 0}th,td{text-align:left;padding:.25em .5em;vertical-align:top}td.n{text-align:right}"
    "table.grid tr:nth-child(even){background:#f7f8fa}table.grid th{background:#e1e8f2}table.facts th{width:30%;color:#464646}"
    "figure{margin:1em 0}figcaption{font-weight:bold;margin-bottom:.3em}img{max-width:100%}.note{white-space:pre-wrap;"
    "background:#fffbe6;border-left:4px solid #ffb400;padding:.5em 1em}.muted{color:#777}.verdict{font-size:1.2em;font-weight:bold}";

}  // namespace faultline
