#pragma once
// The pieces every HTML export is made of: escaped text, figures as inline SVG, images as
// inline PNG, two-column fact tables, and the one style sheet (the run report and the
// comparison report look alike).
#include "exports/report_figures.h"

#include <QImage>
#include <QString>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace faultline {

QString h(const std::string& s);
QString h(std::string_view s);
QString h(const QString& s);

// A recorded figure as an <svg> element that scales with the page.
QString svgOf(const ReportFigure& f);
// An image as a data: URL.
QString pngOf(const QImage& image);
QString factsTable(const std::vector<std::pair<std::string, std::string>>& rows);
// A table with a header row; columns after the first right-aligned when `numeric`.
QString gridTable(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows);

extern const char* const kReportStyle;

// Writes the page to `path` (a partial file beside `out`); throws Error naming `out` when it cannot.
void writeHtmlFile(const QString& path, const QString& html, const QString& out);

}  // namespace faultline
