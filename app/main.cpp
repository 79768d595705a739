// faultline: the desktop app. With no argument it opens the built-in sample run.
#include "main_window.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QSurfaceFormat>
#include <QTimer>

#include <cstdio>

namespace {

// Renders the window once the run is shown, saves it and quits: for reports and tests.
void arrangeScreenshot(faultline::MainWindow& window, const QString& out, const QSize& size) {
    window.resize(size);
    auto save = [&window, out] {
        const bool ok = window.grab().save(out);
        if (!ok) std::fprintf(stderr, "faultline: cannot write %s\n", qPrintable(out));
        QApplication::exit(ok ? 0 : 1);
    };
    QObject::connect(&window, &faultline::MainWindow::runShown, &window, [save] { QTimer::singleShot(0, save); });
    QObject::connect(&window, &faultline::MainWindow::runFailed, &window, [](const QString& message) {
        std::fprintf(stderr, "faultline: %s\n", qPrintable(message));
        QApplication::exit(1);
    });
}

}  // namespace

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
    parser.addOptions({screenshot, size});
    parser.process(app);

    faultline::MainWindow window;
    if (parser.isSet(screenshot)) {
        const QStringList wh = parser.value(size).split('x');
        const QSize requested = wh.size() == 2 ? QSize(wh[0].toInt(), wh[1].toInt()) : QSize();
        if (!requested.isValid() || requested.isEmpty()) {
            std::fprintf(stderr, "faultline: --size expects WIDTHxHEIGHT, such as 1600x1000\n");
            return 2;
        }
        arrangeScreenshot(window, parser.value(screenshot), requested);
    }
    window.show();
    if (parser.positionalArguments().isEmpty()) window.openSampleRun();
    else window.openRun(parser.positionalArguments().constFirst());
    return QApplication::exec();
}
