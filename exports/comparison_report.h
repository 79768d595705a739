#pragma once
// The comparison as a document for a reader who will not open the app:
// `faultline --report OUT.pdf|OUT.html --compare A B` and the comparison window's Export
// Report.... It leads with the verdict (which run lost fewer GPU-hours, and why), then the
// GPU-hours lost part by part, the KPI table, root causes per 1,000 GPU-days, and the
// comparison window's charts as vector figures.
#include "analysis/run_comparison.h"
#include "exports/report_figures.h"
#include "exports/report_writer.h"

#include <QString>

#include <vector>

namespace faultline {

// The charts of the comparison window (root causes, ETTR, step time, downtime waterfall),
// recorded on the GUI thread.
std::vector<ReportFigure> renderComparisonFigures(const Run& a, const Run& b, const RunComparison& comparison);

// Writes a PDF or HTML (by the extension of options.out) through a partial file; returns the
// PDF's pages (0 for HTML). Throws Error when the file cannot be written.
int writeComparisonReport(const RunComparison& comparison, const std::vector<ReportFigure>& figures, const ReportOptions& options);

// Headless: loads both runs, compares them, writes the report and prints a line. Returns
// the process exit status.
int writeComparisonReportHeadless(const QString& pathA, const QString& pathB, const ReportOptions& options);

}  // namespace faultline
