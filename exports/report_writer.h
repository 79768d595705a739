#pragma once
// The incident report: File > Export Report... and `faultline --report OUT.pdf|OUT.html
// [--incidents N] [--page a4|letter] RUN`. A title page with the headline figures, the
// goodput ledger and root causes, the charts as vector graphics, then one section per
// selected incident (chain of events, the hardware in 3D at the failure, the reviewer's
// notes, confirmed cause and tags), and the ledger per day at the end.
//
// Writing is split so the window never freezes: the figures are made on the GUI thread
// (report_figures.h), the document is written from them on a worker thread.
#include "exports/report_content.h"
#include "exports/report_figures.h"

#include <QPageSize>
#include <QString>

namespace faultline {

struct ReportOptions {
    QString out;                                  // .pdf or .html
    int incidents = 10;                           // sections, worst incidents first
    QPageSize::PageSizeId page = QPageSize::A4;   // PDF only
    QString colourBy = {};  // the metric its 3D pictures colour the GPUs by (--colour-by); empty: GPU state
};

// Both throw faultline::Error when the file cannot be written. The PDF's page count is
// returned.
int writePdfReport(const ReportContent& content, const ReportFigures& figures, const ReportOptions& options);
void writeHtmlReport(const ReportContent& content, const ReportFigures& figures, const ReportOptions& options);

// By the output's extension.
bool isHtmlReport(const QString& path);

// Headless: loads the run, makes the figures and writes the report; prints a line on
// success. Returns the process exit status.
int writeReportHeadless(const QString& runPath, const ReportOptions& options);

}  // namespace faultline
