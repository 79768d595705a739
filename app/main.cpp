// faultline: the desktop app. With no argument it opens the built-in sample run.
#include "bench_replay.h"
#include "main_window.h"
#include "panel_snapshot.h"
#include "screenshot.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QSurfaceFormat>

#include <cstdio>

int main(int argc, char** argv) {
    // VTK renders through Qt's OpenGL context: 3.2 core with depth, no multisampling.
    QSurfaceFormat format;
    format.setRenderableType(QSurfaceFormat::OpenGL);
    format.setVersion(3, 2);
    format.setProfile(QSurfaceFormat::CoreProfile);
    format.setDepthBufferSize(24);
    format.setSamples(0);
    QSurfaceFormat::setDefaultFormat(format);

    QApplication app(argc, argv);
    QApplication::setApplicationName("faultline");
    QApplication::setOrganizationName("Faultline");
    QApplication::setApplicationVersion(FAULTLINE_VERSION);

    QCommandLineParser parser;
    parser.setApplicationDescription("Replays and explains large-cluster training runs.");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument("run", "A run file (*.faultline); the sample run when none is given.", "[RUN]");
    const QCommandLineOption screenshot("screenshot", "Render the window into OUT.png and exit.", "OUT.png");
    const QCommandLineOption size("size", "Window size for --screenshot (default 1600x1000).", "WxH", "1600x1000");
    const QCommandLineOption at("at", "The instant for --screenshot: time since the start (36h) or UTC time.", "TIME");
    const QCommandLineOption step("step", "The instant for --screenshot: when training step N completed.", "N");
    const QCommandLineOption benchReplay("bench-replay", "Replay a simulated run in the fabric view; print fps.");
    const QCommandLineOption gpus("gpus", "GPUs in the --bench-replay run (default 24576).", "N", "24576");
    const QCommandLineOption view("view", "The panel for --screenshot: fabric (default), timeline, charts or incidents.", "PANEL",
                                  "fabric");
    parser.addOptions({screenshot, size, at, step, benchReplay, gpus, view});
    parser.process(app);

    const QStringList wh = parser.value(size).split('x');
    const QSize requested = wh.size() == 2 ? QSize(wh[0].toInt(), wh[1].toInt()) : QSize();
    if (!requested.isValid() || requested.isEmpty()) {
        std::fprintf(stderr, "faultline: --size expects WIDTHxHEIGHT, such as 1600x1000\n");
        return 2;
    }
    if (parser.isSet(benchReplay)) {
        bool ok = false;
        const int n = parser.value(gpus).toInt(&ok);
        if (!ok || n < 8) {
            std::fprintf(stderr, "faultline: --gpus expects a count of at least 8\n");
            return 2;
        }
        return faultline::runReplayBenchmark(n, requested);
    }

    if (parser.isSet(screenshot) && parser.value(view) != "fabric") {
        if (!faultline::kPanelViews.contains(parser.value(view))) {
            std::fprintf(stderr, "faultline: --view expects fabric, timeline, charts or incidents\n");
            return 2;
        }
        return faultline::snapshotPanel(parser.value(view), parser.positionalArguments().value(0), parser.value(screenshot), requested,
                                        parser.value(at));
    }

    faultline::MainWindow window;
    if (parser.isSet(screenshot)) {
        faultline::ScreenshotRequest request{parser.value(screenshot), requested, parser.value(at), std::nullopt};
        if (parser.isSet(step)) {
            bool ok = false;
            request.step = parser.value(step).toLongLong(&ok);
            if (!ok || *request.step < 0) {
                std::fprintf(stderr, "faultline: --step expects a training step number\n");
                return 2;
            }
        }
        if (parser.isSet(at) && parser.isSet(step)) {
            std::fprintf(stderr, "faultline: give --at or --step, not both\n");
            return 2;
        }
        faultline::arrangeScreenshot(window, request);
    }
    if (!parser.isSet(screenshot)) window.restoreLayout();  // screenshots use the default layout
    window.show();
    if (parser.positionalArguments().isEmpty()) window.openSampleRun();
    else window.openRun(parser.positionalArguments().constFirst());
    return QApplication::exec();
}
