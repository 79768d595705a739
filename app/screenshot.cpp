#include "screenshot.h"

#include "main_window.h"
#include "model/format.h"
#include "model/replay_state.h"
#include "views/fabric_view.h"
#include "views/replay_panel.h"
#include "views/viewpoint_camera.h"

#include <QApplication>
#include <QDateTime>
#include <QDockWidget>
#include <QLayout>
#include <QTimer>
#include <QTimeZone>

#include <cstdio>

namespace faultline {

std::optional<Nanos> parseInstant(const QString& text, const Run& run, QString* error) {
    std::optional<Nanos> t = parseDuration(text.toStdString());
    if (!t) {
        QDateTime wall = QDateTime::fromString(text, Qt::ISODate);
        if (!wall.isValid()) wall = QDateTime::fromString(text, "yyyy-MM-dd HH:mm:ss");
        if (wall.isValid()) {
            if (wall.timeSpec() == Qt::LocalTime) wall.setTimeZone(QTimeZone::utc());  // wall times are UTC
            t = wall.toMSecsSinceEpoch() * kMillisecond - run.info.startEpochNs;
        }
    }
    if (!t) {
        *error = QString("--at expects a time since the run's start (90m, 36h, 2d) or a UTC time "
                         "(2024-03-05T14:02:11Z), not \"%1\"").arg(text);
        return std::nullopt;
    }
    if (*t < 0 || *t > run.info.duration) {
        *error = QString("--at %1 is outside the run, which lasts %2 from %3")
                     .arg(text, QString::fromStdString(formatDuration(run.info.duration)),
                          QString::fromStdString(formatWallTime(run.info.startEpochNs, 0)));
        return std::nullopt;
    }
    return t;
}

std::optional<Viewpoint> savedViewpoint(const QString& runPath, const Run& run, const QString& name, QString* error) {
    std::vector<Viewpoint> all;
    try {
        all = readViewpoints(runPath.toStdString());
    } catch (const std::exception& e) {
        *error = QString::fromStdString(e.what());
        return std::nullopt;
    }
    const Viewpoint* v = findViewpoint(all, name.toStdString());
    if (!v) {
        QStringList names;
        for (const Viewpoint& each : all) names << QString("\"%1\"").arg(QString::fromStdString(each.name));
        *error = QString("%1 has no viewpoint named \"%2\" (%3)")
                     .arg(runPath, name,
                          names.isEmpty() ? QString("it has none: save one in the app with View > Viewpoints > Save Viewpoint")
                                          : "it has " + names.join(", "));
        return std::nullopt;
    }
    if (const auto mismatch = viewpointMismatch(*v, run.topology)) {
        *error = QString::fromStdString(*mismatch);
        return std::nullopt;
    }
    return *v;
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
        Nanos t = 0;
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
        panel->setTime(t);
        QTimer::singleShot(0, &window, [&window, out = request.out] {
            const bool ok = window.grab().save(out);
            if (!ok) std::fprintf(stderr, "faultline: cannot write %s\n", qPrintable(out));
            QApplication::exit(ok ? 0 : 1);
        });
    });
    QObject::connect(&window, &MainWindow::runFailed, &window, fail);
}

}  // namespace faultline
