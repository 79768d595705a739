// faultline: the desktop app. With no argument it opens the built-in sample run.
#include "app_icon.h"
#include "app/replay_bench/bench_replay.h"
#include "cli/build_info.h"
#include "compare_snapshot.h"
#include "compare_window.h"
#include "exports/comparison_report.h"
#include "exports/export_options.h"
#include "exports/image_file.h"
#include "main_window.h"
#include "model/incident_notes.h"
#include "model/run_file.h"
#include "panel_snapshot.h"
#include "remote/prometheus_credentials.h"
#include "presentation_pdf.h"
#include "recent_files.h"
#include "sample_run.h"
#include "screenshot.h"
#include "views/state_palette.h"
#include "widgets/open_gl_probe.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QRegularExpression>
#include <QSurfaceFormat>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <variant>

namespace {

// What the command line asked for, read before the GUI starts so that --help, --version and
// usage errors work without a display.
struct Options {
    QStringList positional;
    QString screenshot, at, view = "fabric", viewpoint, colourBy;
    QSize size;
    std::optional<long long> step;
    bool benchReplay = false;
    bool compare = false;  // two runs side by side
    int gpus = 24576;
    bool closeCamera = false;  // --camera close
    faultline::ExportRequest exports;  // --report, --record, --scale
    QString presentation;              // --presentation OUT.pdf
    QString follow;                    // --follow DIR: a running job's folder, live
    QString prometheus;                // --prometheus URL with --follow: the metrics pulled too
    QString tokenFile, basicAuthFile;  // its credentials, else the environment's
    std::optional<faultline::StatePaletteKind> palette;  // --palette; none: the standard colours
};

constexpr const char* kUsage = "usage: faultline [RUN.faultline]\n"
                               "       faultline --follow DIR [--prometheus URL [--token-file FILE | --basic-auth-file FILE]]   (a running job's folder, live)\n"
                               "       faultline A.faultline B.faultline   (the two runs compared side by side)\n"
                               "       faultline --screenshot OUT.png [--view PANEL] [--at TIME | --step N] [--viewpoint NAME] [--colour-by METRIC] [--palette standard|colour-blind] [--size WxH] [RUN.faultline]\n"
                               "       faultline --screenshot OUT.svg --view charts|timeline [--at TIME] [--size WxH] [RUN.faultline]\n"
                               "       faultline --report OUT.pdf|OUT.html [--incidents N] [--page a4|letter] [--colour-by METRIC] [RUN.faultline]\n"
                               "       faultline --presentation OUT.pdf [--incidents N] [RUN.faultline]\n"
                               "       faultline --record OUT.mp4 [--from T] [--to T] [--speed 1h/s] [--fps 30] [--viewpoint NAME] [--colour-by METRIC] [--size 1920x1080] [RUN.faultline]\n"
                               "       faultline --screenshot OUT.png --compare [--at TIME | --step N] [--size WxH] A.faultline B.faultline\n"
                               "       faultline --report OUT.pdf|OUT.html [--page a4|letter] --compare A.faultline B.faultline\n"
                               "       faultline --bench-replay [--compare] [--gpus N | RUN.faultline] [--camera whole|close] [--size WxH]\n"
                               "       faultline --help | --version\n";

constexpr const char* kExitStatus = "Exit status:\n  0  success\n  1  failure (the run cannot be opened, the screenshot not written)\n"
                                    "  2  usage error (unknown option, missing or malformed value)\n";

int usageError(const QString& message) {
    std::fprintf(stderr, "faultline: %s\n%sTry 'faultline --help' for more information.\n", qPrintable(message), kUsage);
    return 2;
}

// Every option of the app, declared on the parser.
void addAppOptions(QCommandLineParser& parser) {
    parser.setApplicationDescription("Replays and explains large-cluster training runs: opens a run file (*.faultline), or the "
                                     "built-in sample run when none is given, and shows it replayed on its cluster in 3D.");
    const QCommandLineOption help({"h", "help"}, "Show this help and exit.");
    const QCommandLineOption version({"v", "version"}, "Show the version and the build, and exit.");
    parser.addPositionalArgument("RUN.faultline", "A run file; the sample run when none is given. Two run files open side by side, compared.",
                                 "[RUN.faultline [B.faultline]]");
    const QCommandLineOption screenshot("screenshot", "Render the window (or the panel named by --view) into OUT.png and exit.", "OUT.png");
    const QCommandLineOption view("view", "The panel for --screenshot: fabric (the whole window, default), timeline, charts, incidents or present (the presentation's title card).",
                                  "PANEL", "fabric");
    const QCommandLineOption at("at", "The instant for --screenshot: time since the start (36h) or UTC time (2024-03-05T14:02:11Z).", "TIME");
    const QCommandLineOption step("step", "The instant for --screenshot: when training step N completed.", "N");
    const QCommandLineOption size("size", "Window size for --screenshot and --bench-replay (default 1600x1000); frame size for --record (default 1920x1080).", "WxH", "1600x1000");
    const QCommandLineOption benchReplay("bench-replay", "Replay a simulated run (or the RUN.faultline given, timing its opening) in the fabric view; print frames per second.");
    const QCommandLineOption gpus("gpus", "GPUs in the --bench-replay run (default 24576).", "N", "24576");
    const QCommandLineOption compare("compare", "Compare the two run files given: with --screenshot, render the comparison window "
                                                "(both views and the diff) at --at / --step of run A; with --bench-replay, replay two "
                                                "runs side by side.");
    const QCommandLineOption camera("camera", "The camera of --bench-replay: whole (the whole cluster, default) or close (one zone, near enough that every GPU is drawn on its own).",
                                    "VIEW", "whole");
    const QCommandLineOption viewpoint("viewpoint", "The camera for --screenshot and --record: a viewpoint saved in the run's review (View > Viewpoints).", "NAME");
    const QCommandLineOption colourBy("colour-by", "The 3D view's colours for --screenshot, the pictures of --report, and --record: a metric of the run's telemetry, by DCGM's name "
                                                   "(DCGM_FI_DEV_POWER_USAGE) or the app's (Power), or job (each job its own colour, idle hardware pale), as View > Colour By; "
                                                   "default: GPU state.", "METRIC");
    const QCommandLineOption presentation("presentation", "Write the presentation's slides (View > Present) as a PDF, one page a slide, its --incidents worst incidents (default 5), and exit.", "OUT.pdf");
    const QCommandLineOption palette("palette", "The GPU states' colours for --screenshot, --report, --presentation and --record: standard, or colour-blind "
                                                "(Okabe & Ito's, as View > Colour-Blind-Safe Colours). Default: standard.", "standard|colour-blind");
    const QCommandLineOption follow("follow", "Follow a running job's folder: open it as a live run, read again as its files grow or arrive (File > Follow Job Folder).", "DIR");
    const QCommandLineOption prometheus("prometheus", "With --follow: pull the job's GPU telemetry from this Prometheus server (http://HOST:9090) up to now at each look "
                                                      "(File > Follow Job Folder with Prometheus).", "URL");
    const QCommandLineOption tokenFile("token-file", "With --prometheus: a file holding a bearer token (else $FAULTLINE_PROMETHEUS_TOKEN).", "FILE");
    const QCommandLineOption basicAuthFile("basic-auth-file", "With --prometheus: a file holding one line user:password (else $FAULTLINE_PROMETHEUS_BASIC_AUTH).", "FILE");
    const QCommandLineOption force("force", "Replace an existing output file that is not of the kind written (never a run given as input).");
    parser.addOptions({help, version, screenshot, view, at, step, size, benchReplay, gpus, compare, camera, viewpoint, colourBy, presentation, palette, follow, prometheus, tokenFile, basicAuthFile, force});
    faultline::addExportOptions(parser);
}

// The runs, the window and the instant asked for; the usage error when they do not go together.
std::optional<QString> readRunAndViewOptions(const QCommandLineParser& parser, Options& o) {
    o.positional = parser.positionalArguments();
    o.compare = parser.isSet("compare");
    if (o.positional.size() > 2) return "give one run file, or two to compare, not " + QString::number(o.positional.size());
    if (o.positional.size() == 2) o.compare = true;
    if (o.compare && !parser.isSet("bench-replay") && o.positional.size() != 2) return "--compare needs two run files, A and B";
    bool ok = false;
    const QStringList wh = parser.value("size").split('x');
    o.size = wh.size() == 2 ? QSize(wh[0].toInt(), wh[1].toInt()) : QSize();
    if (!o.size.isValid() || o.size.isEmpty()) return "--size expects WIDTHxHEIGHT, such as 1600x1000";
    o.benchReplay = parser.isSet("bench-replay");
    o.gpus = parser.value("gpus").toInt(&ok);
    if (!ok || o.gpus < 8) return "--gpus expects a count of at least 8";
    if (parser.value("camera") != "whole" && parser.value("camera") != "close")
        return "--camera expects whole or close, not '" + parser.value("camera") + "'";
    o.closeCamera = parser.value("camera") == "close";
    o.screenshot = parser.value("screenshot");
    o.follow = parser.value("follow");
    if (!o.follow.isEmpty() && (!o.positional.isEmpty() || parser.isSet("screenshot") || parser.isSet("bench-replay") || parser.isSet("presentation")))
        return "--follow opens a folder as a live run, on its own (no run file, --screenshot, --presentation or --bench-replay)";
    o.prometheus = parser.value("prometheus");
    if (parser.isSet("prometheus") && o.follow.isEmpty())
        return "--prometheus goes with --follow DIR (File > Import from Prometheus pulls into a run of its own)";
    o.tokenFile = parser.value("token-file");
    o.basicAuthFile = parser.value("basic-auth-file");
    if ((parser.isSet("token-file") || parser.isSet("basic-auth-file")) && !parser.isSet("prometheus"))
        return "--token-file and --basic-auth-file go with --prometheus URL";
    if (parser.isSet("prometheus")) {
        try {
            (void)faultline::checkedServerUrl(o.prometheus.toStdString());
        } catch (const std::exception& e) {
            return "--prometheus: " + QString::fromUtf8(e.what());
        }
    }
    o.at = parser.value("at");
    o.view = parser.value("view");
    o.viewpoint = parser.value("viewpoint");
    if (parser.isSet("viewpoint") && o.viewpoint.trimmed().isEmpty()) return "--viewpoint expects the name of a saved viewpoint";
    if (!faultline::kPanelViews.contains(o.view) && o.view != "fabric")
        return "--view expects fabric, timeline, charts, incidents or present";
    if (parser.isSet("step")) {
        o.step = parser.value("step").toLongLong(&ok);
        if (!ok || *o.step < 0) return "--step expects a training step number";
    }
    if (parser.isSet("at") && parser.isSet("step")) return "give --at or --step, not both";
    if (o.view == "fabric" && o.screenshot.endsWith(".svg", Qt::CaseInsensitive))
        return "the 3D view is a rendered picture: write it as PNG (SVG is for --view charts, timeline or incidents)";
    return std::nullopt;
}

// What is written (report, video, presentation) and how it is coloured; the usage error when
// the options do not go together.
std::optional<QString> readOutputOptions(const QCommandLineParser& parser, Options& o) {
    if (const auto error = faultline::readExportOptions(parser, o.exports)) return error;
    const bool ofTheView = (parser.isSet("screenshot") && o.view == "fabric") || !o.exports.video.out.isEmpty();
    if (parser.isSet("viewpoint") && (!ofTheView || o.compare))
        return "--viewpoint goes with --screenshot of the 3D view (--view fabric) or --record, of one run";
    o.exports.video.viewpoint = o.viewpoint;
    o.colourBy = parser.value("colour-by");
    if (parser.isSet("colour-by") && o.colourBy.trimmed().isEmpty()) return "--colour-by expects the name of a metric, such as Power";
    if (parser.isSet("colour-by") && ((!ofTheView && o.exports.report.out.isEmpty()) || o.compare))
        return "--colour-by goes with --screenshot of the 3D view (--view fabric), --report or --record, of one run";
    o.exports.video.colourBy = o.colourBy;
    o.exports.report.colourBy = o.colourBy;
    o.presentation = parser.value("presentation");
    if (parser.isSet("presentation") && !o.presentation.endsWith(".pdf", Qt::CaseInsensitive))
        return "--presentation writes a PDF: name it OUT.pdf, not \"" + o.presentation + "\"";
    if (parser.isSet("presentation") && (o.compare || parser.isSet("screenshot") || faultline::headlessExportAsked(o.exports)))
        return "--presentation takes one run, on its own (not with --screenshot, --report or --record)";
    if (o.compare && (parser.isSet("view") || !o.exports.video.out.isEmpty()))
        return "a comparison is snapshotted whole: --view and --record take one run";
    if (o.compare && !o.exports.report.out.isEmpty() && (parser.isSet("screenshot") || parser.isSet("bench-replay")))
        return "--report --compare writes the comparison's report on its own (not with --screenshot)";
    if (parser.isSet("palette")) {
        if (parser.value("palette") == "standard") o.palette = faultline::StatePaletteKind::Standard;
        else if (parser.value("palette") == "colour-blind") o.palette = faultline::StatePaletteKind::ColourBlindSafe;
        else return "--palette expects standard or colour-blind, not '" + parser.value("palette") + "'";
        // A window keeps the choice of View > Colour-Blind-Safe Colours; the flag is for what is written.
        if (!parser.isSet("screenshot") && !parser.isSet("presentation") && !faultline::headlessExportAsked(o.exports))
            return "--palette goes with --screenshot, --report, --presentation or --record";
    }
    if (!parser.isSet("screenshot") && (parser.isSet("at") || parser.isSet("step") || parser.isSet("view")))
        return "--at, --step and --view go with --screenshot";
    return std::nullopt;
}

// The options, or the exit status when the command line is answered without the GUI.
std::variant<Options, int> parseCommandLine(int argc, char** argv) {
    QCoreApplication core(argc, argv);  // for the parser's own messages; gone before the GUI's
    QCoreApplication::setApplicationName("faultline");
    QCoreApplication::setApplicationVersion(faultline::faultlineVersion());
    QCommandLineParser parser;
    addAppOptions(parser);

    if (!parser.parse(QCoreApplication::arguments())) return usageError(parser.errorText());
    if (parser.isSet("help")) {
        QString text = parser.helpText();
        text.replace(QRegularExpression("^Usage: [^\n]*\n"), "");  // our usage lines say more
        std::fputs(kUsage, stdout);
        std::fputs("\n", stdout);
        std::fputs(qPrintable(text), stdout);
        std::fputs("\nIn the window, Help > Keyboard Shortcuts lists every key; the manual is faultline(1).\n\n", stdout);
        std::fputs(kExitStatus, stdout);
        return 0;
    }
    if (parser.isSet("version")) {
        std::fputs(faultline::versionText("faultline").c_str(), stdout);
        return 0;
    }

    Options o;
    if (const auto error = readRunAndViewOptions(parser, o)) return usageError(*error);
    if (const auto error = readOutputOptions(parser, o)) return usageError(*error);
    // Evidence first: an output is never one of the runs read, nor a file of another kind.
    for (const QString& out : {o.screenshot, o.exports.report.out, o.exports.video.out, o.presentation}) {
        if (out.isEmpty()) continue;
        if (const QString why = faultline::outputRefusal(out, o.positional, parser.isSet("force")); !why.isEmpty()) {
            std::fprintf(stderr, "faultline: %s\n", qPrintable(why));
            return 1;
        }
    }
    return o;
}

// The run file named, or the built-in sample run (simulated on first use); empty, after
// saying why, when the sample cannot be made.
QString runOrSample(const QString& run) {
    if (!run.isEmpty()) return run;
    try {
        return QString::fromStdString(faultline::ensureSampleRun());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "faultline: %s\n", e.what());
        return {};
    }
}

// `--presentation OUT.pdf`: the slides of the run's presentation, without a window.
int writePresentationHeadless(const QString& runPath, const QString& out, int incidents) {
    try {
        auto run = std::make_shared<const faultline::Run>(faultline::readRunFile(runPath.toStdString()));
        std::map<faultline::Nanos, faultline::IncidentNote> notes;
        try {
            notes = faultline::readIncidentNotes(runPath.toStdString());
        } catch (const std::exception&) {
            // Without readable notes the slides carry none, as the presentation does.
        }
        const int pages = faultline::writePresentationPdf(faultline::buildReportContent(run, notes, incidents), out);
        std::printf("wrote %s: %d slides\n", qPrintable(out), pages);
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "faultline: %s\n", e.what());
        return 1;
    }
}

// The modes that write a file and exit: no window the user opened, so Open Recent is left as it
// was, and without a display they draw on Qt's offscreen platform instead of aborting.
bool writesAndExits(const Options& o) {
    return !o.screenshot.isEmpty() || !o.presentation.isEmpty() || faultline::headlessExportAsked(o.exports) || o.benchReplay;
}

// Whether the mode draws the 3D view (with OpenGL): a picture of it, the video, the slides of
// the incidents, the benchmark. The report draws it too but goes without it.
bool draws3D(const Options& o) {
    return (!o.screenshot.isEmpty() && (o.view == "fabric" || o.compare)) || !o.exports.video.out.isEmpty() ||
           !o.presentation.isEmpty() || o.benchReplay;
}

void chooseOffscreenWithoutADisplay(const Options& o) {
    const bool display = !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
    if (writesAndExits(o) && !display && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
}

}  // namespace

int main(int argc, char** argv) {
    const auto parsed = parseCommandLine(argc, argv);
    if (const int* status = std::get_if<int>(&parsed)) return *status;
    const Options& options = std::get<Options>(parsed);

    // VTK renders through Qt's OpenGL context: 3.2 core with depth, no multisampling.
    QSurfaceFormat format;
    format.setRenderableType(QSurfaceFormat::OpenGL);
    format.setVersion(3, 2);
    format.setProfile(QSurfaceFormat::CoreProfile);
    format.setDepthBufferSize(24);
    format.setSamples(0);
    QSurfaceFormat::setDefaultFormat(format);

    chooseOffscreenWithoutADisplay(options);
    QApplication app(argc, argv);
    QApplication::setApplicationName("faultline");
    QApplication::setOrganizationName("Faultline");
    QApplication::setApplicationVersion(faultline::faultlineVersion());
    QGuiApplication::setDesktopFileName(FAULTLINE_APP_ID);  // Wayland finds the icon and name by it
    QApplication::setWindowIcon(faultline::appIcon());
    if (writesAndExits(options)) faultline::setRememberingRecent(false);
    if (writesAndExits(options) && QGuiApplication::platformName() == "offscreen" && !faultline::openGlAvailable()) {
        if (draws3D(options)) {
            std::fprintf(stderr, "faultline: the 3D view needs OpenGL, and there is none without a display (DISPLAY and "
                                 "WAYLAND_DISPLAY are unset): run it in a desktop session or under xvfb-run\n");
            return 1;
        }
        if (!options.exports.report.out.isEmpty() && !options.compare)
            std::fprintf(stderr, "faultline: no OpenGL without a display: the report goes without its 3D pictures of the incidents\n");
    }

    if (options.palette) faultline::setStatePalette(*options.palette);

    if (options.benchReplay && options.compare) return faultline::runCompareReplayBenchmark(options.gpus, options.size);
    if (options.benchReplay)
        return faultline::runReplayBenchmark(options.gpus, options.size, options.closeCamera, options.positional.isEmpty() ? QString() : options.positional[0]);
    if (options.compare && !options.exports.report.out.isEmpty())
        return faultline::writeComparisonReportHeadless(options.positional[0], options.positional[1], options.exports.report);
    if (options.compare) {
        faultline::CompareWindow window;
        if (!options.screenshot.isEmpty())
            faultline::arrangeComparisonScreenshot(window, {options.screenshot, options.size, options.at, options.step});
        window.open(options.positional[0], options.positional[1]);
        if (options.screenshot.isEmpty())
            QObject::connect(&window, &faultline::CompareWindow::comparisonFailed, &window, [](const QString& message) {
                std::fprintf(stderr, "faultline: %s\n", qPrintable(message));
                QApplication::exit(1);
            });
        return QApplication::exec();
    }
    const QString run = options.positional.value(0);
    if (!options.screenshot.isEmpty() && options.view != "fabric")
        return faultline::snapshotPanel(options.view, run, options.screenshot, options.size, options.at, options.exports.scale);
    if (!options.presentation.isEmpty()) {
        const QString path = runOrSample(run);
        return path.isEmpty() ? 1 : writePresentationHeadless(path, options.presentation, options.exports.report.incidents);
    }
    if (faultline::headlessExportAsked(options.exports)) {
        const QString path = runOrSample(run);
        return path.isEmpty() ? 1 : faultline::runHeadlessExport(options.exports, path);
    }

    faultline::MainWindow window;
    if (!options.screenshot.isEmpty())
        faultline::arrangeScreenshot(window, {options.screenshot, options.size, options.at, options.step, options.viewpoint, options.colourBy});
    else
        window.restoreLayout();  // screenshots use the default layout
    window.show();
    if (!options.follow.isEmpty()) {
        std::optional<faultline::PrometheusPullOptions> pull;
        if (!options.prometheus.isEmpty()) {
            try {
                pull.emplace();
                pull->server.url = faultline::checkedServerUrl(options.prometheus.toStdString());
                pull->server.credentials = faultline::readPrometheusCredentials(options.tokenFile.toStdString(), options.basicAuthFile.toStdString(),
                                                                                [](const char* name) { return std::getenv(name); });
            } catch (const std::exception& e) {
                std::fprintf(stderr, "faultline: %s\n", e.what());
                return 1;
            }
        }
        window.followFolder(options.follow, std::move(pull));
    }
    else if (run.isEmpty()) window.openSampleRun();
    else window.openRun(run);
    return QApplication::exec();
}
