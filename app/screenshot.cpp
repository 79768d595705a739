#include "screenshot.h"

#include "analysis/opening_instant.h"
#include "exports/image_file.h"
#include "main_window.h"
#include "model/error.h"
#include "model/format.h"
#include "model/metric_text.h"
#include "model/replay_state.h"
#include "views/fabric/fabric_view.h"
#include "views/fabric/job_colouring.h"
#include "views/replay_panel.h"
#include "views/fabric/viewpoint_camera.h"

#include <QApplication>
#include <QDockWidget>
#include <QLayout>
#include <QStatusBar>
#include <QTimer>

#include <cstdio>

namespace faultline {

void saveWindowAndQuit(QWidget& window, const QString& out) {
    try {
        saveImageFile(window.grab().toImage(), out);
        QApplication::exit(0);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "faultline: %s\n", e.what());
        QApplication::exit(1);
    }
}

void arrangeScreenshot(MainWindow& window, const ScreenshotRequest& request) {
    // The picture is the fabric view: the docks (summary, incidents, charts) stay out of it.
    // Hidden before the resize, whose size their minimum sizes would otherwise bound.
    for (QDockWidget* dock : window.findChildren<QDockWidget*>()) dock->hide();
    window.layout()->activate();  // forget the minimum size the docks asked for
    window.resize(request.size);
    auto fail = [](const QString& message) {
        std::fprintf(stderr, "faultline: %s\n", qPrintable(message));
        QApplication::exit(1);
    };
    QObject::connect(&window, &MainWindow::runShown, &window, [&window, request, fail] {
        ReplayPanel* panel = window.replayPanel();
        const Run& run = *panel->fabricView()->run();
        // Where the window opened (a short run's first symptom, else 0), unless asked otherwise.
        Nanos t = openingTime(run, window.currentRun()->incidents);
        if (request.step) {
            const auto at = panel->fabricView()->replay()->stepTime(*request.step);
            if (!at) return fail(QString("the run never completed step %1").arg(*request.step));
            t = *at;
        } else if (!request.at.isEmpty()) {
            QString error;
            const auto at = parseInstant(request.at, run, &error);
            if (!at) return fail(error);
            t = *at;
        }
        if (!request.viewpoint.isEmpty()) {
            QString error;
            const auto viewpoint = savedViewpoint(window.currentRun()->path, run, request.viewpoint, &error);
            if (!viewpoint) return fail(error);
            goToViewpoint(*panel->fabricView(), *viewpoint, 0);
        }
        if (!request.colourBy.isEmpty()) {
            try {
                panel->fabricView()->setColourBy(colourByNamed(run, request.colourBy.toStdString()));
            } catch (const Error& e) {
                return fail(QString::fromStdString(e.what()));
            }
        }
        panel->setTime(t);
        // A picture shows where the camera's flight to the opening incident ends, not its start.
        panel->fabricView()->landFlight();
        // "Opened /tmp/..." says where the file was, not what the run shows: no part of a picture.
        window.statusBar()->clearMessage();
        QTimer::singleShot(0, &window, [&window, out = request.out] { saveWindowAndQuit(window, out); });
    });
    QObject::connect(&window, &MainWindow::runFailed, &window, fail);
}

}  // namespace faultline
