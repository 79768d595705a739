#pragma once
// The command-line options of the app's headless exports (--report, --record, --scale),
// kept apart from main.cpp's own: they are added to its parser, read back, and run.
#include "exports/report_writer.h"
#include "exports/video_recorder.h"

#include <QCommandLineParser>
#include <QString>

#include <optional>

namespace faultline {

struct ExportRequest {
    ReportOptions report;  // report.out empty: no report
    VideoOptions video;    // video.out empty: no video
    double scale = 1.0;    // --screenshot of a panel: pixels per logical pixel
};

void addExportOptions(QCommandLineParser& parser);
// Reads them; an error message for a usage error. `size` is --size when given.
std::optional<QString> readExportOptions(const QCommandLineParser& parser, ExportRequest& request);

// Whether a report or a video was asked for.
bool headlessExportAsked(const ExportRequest& request);
// Runs the export asked for, of the run file at `runPath`.
int runHeadlessExport(const ExportRequest& request, const QString& runPath);

}  // namespace faultline
