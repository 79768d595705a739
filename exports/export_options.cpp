#include "exports/export_options.h"

namespace faultline {

void addExportOptions(QCommandLineParser& parser) {
    parser.addOptions({
        {"report", "Write the run's incident report and exit: PDF, or one self-contained HTML file by extension.", "OUT.pdf"},
        {"incidents", "Incident sections in --report, worst first by downtime (default 10).", "N", "10"},
        {"page", "Paper for a PDF --report: a4 (default) or letter.", "a4|letter", "a4"},
        {"record", "Render the replay off screen into an H.264 MP4 and exit.", "OUT.mp4"},
        {"from", "Where --record starts: a time since the start (36h) or UTC time (default: the start).", "TIME"},
        {"to", "Where --record ends (default: the end of the run).", "TIME"},
        {"speed", "Run time per second of video for --record, such as 1h/s (default: the span in 60 s).", "SPEED"},
        {"fps", "Frames per second of --record (default 30).", "N", "30"},
        {"scale", "Pixels per point of a PNG --screenshot of a panel (default 1; 2 for slides).", "S", "1"},
    });
}

std::optional<QString> readExportOptions(const QCommandLineParser& parser, ExportRequest& r) {
    bool ok = false;
    r.report.out = parser.value("report");
    r.report.incidents = parser.value("incidents").toInt(&ok);
    if (!ok || r.report.incidents < 0) return QString("--incidents expects a count");
    const QString page = parser.value("page").toLower();
    if (page == "a4") r.report.page = QPageSize::A4;
    else if (page == "letter") r.report.page = QPageSize::Letter;
    else return QString("--page expects a4 or letter");
    r.video.out = parser.value("record");
    r.video.from = parser.value("from");
    r.video.to = parser.value("to");
    r.video.speed = parser.value("speed");
    r.video.fps = parser.value("fps").toInt(&ok);
    if (!ok) return QString("--fps expects a number of frames a second");
    r.scale = parser.value("scale").toDouble(&ok);
    if (!ok || r.scale <= 0 || r.scale > 8) return QString("--scale expects a number from 0.1 to 8");
    if (!r.report.out.isEmpty() && !r.video.out.isEmpty()) return QString("give --report or --record, not both");
    const bool presentation = parser.optionNames().contains("presentation");  // the app's own option, when given
    if (r.report.out.isEmpty() && ((parser.isSet("incidents") && !presentation) || parser.isSet("page")))
        return QString("--incidents goes with --report or --presentation, --page with --report");
    if (presentation && !parser.isSet("incidents")) r.report.incidents = 5;  // the presentation's own default
    if (r.video.out.isEmpty() && (parser.isSet("from") || parser.isSet("to") || parser.isSet("speed") || parser.isSet("fps")))
        return QString("--from, --to, --speed and --fps go with --record");
    if (parser.isSet("size")) {
        const QStringList wh = parser.value("size").split('x');
        if (wh.size() == 2) r.video.size = QSize(wh[0].toInt(), wh[1].toInt());
    }
    return std::nullopt;
}

bool headlessExportAsked(const ExportRequest& r) { return !r.report.out.isEmpty() || !r.video.out.isEmpty(); }

int runHeadlessExport(const ExportRequest& r, const QString& runPath) {
    if (!r.report.out.isEmpty()) return writeReportHeadless(runPath, r.report);
    return recordVideoHeadless(runPath, r.video);
}

}  // namespace faultline
