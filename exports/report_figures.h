#pragma once
// The pictures of a report, made on the GUI thread (charts are widgets, the 3D view needs
// OpenGL): charts and the timeline recorded as QPictures (vector painting commands that a
// worker thread then plays into the PDF or an SVG), snapshots of the hardware at each
// selected incident rendered by the off-screen path.
#include "analysis/opening_instant.h"  // incidentSnapshotInstant: where each incident's picture is taken
#include "exports/report_content.h"

#include <QImage>
#include <QPicture>
#include <QSize>
#include <QWidget>
#include <QString>

#include <atomic>
#include <functional>
#include <vector>

namespace faultline {

// The size every chart of a report is painted at, in logical pixels.
inline constexpr QSize kChartSize(1000, 460);

struct ReportFigure {
    QString title;
    QPicture picture;
    QSize size;  // the logical size it was painted at
};

struct ReportFigures {
    std::vector<ReportFigure> charts;  // ETTR, step time, root causes, downtime waterfall, heat map, timeline
    std::vector<QImage> snapshots;     // one per selected incident, in the same order
};

// A panel painted into a figure at `size` (on the GUI thread).
ReportFigure recordFigure(QWidget* panel, const QString& title, QSize size);
// The report's charts as the panels they are drawn from, each on its own at its figure's
// size, handed to `use` in turn (null for a chart with nothing to show: the straggler heat
// map of a run without traces) and deleted after; `use` returns false to stop. For the
// figures below, and for tests that read the panels as the pages show them.
bool forEachReportChart(const ReportContent& content, const std::function<bool(QWidget* panel, const QString& title, QSize size)>& use);

// `progress(done, total)` after each figure; returns false when `cancel` was set.
bool renderReportFigures(const ReportContent& content, ReportFigures& out, const std::function<void(int, int)>& progress = {},
                         const std::atomic<bool>* cancel = nullptr);

}  // namespace faultline
