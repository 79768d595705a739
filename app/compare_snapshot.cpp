#include "compare_snapshot.h"

#include "compare_window.h"
#include "screenshot.h"
#include "views/fabric/fabric_view.h"

#include <QApplication>
#include <QTimer>

#include <cstdio>

namespace faultline {

void arrangeComparisonScreenshot(CompareWindow& window, const CompareScreenshotRequest& request) {
    window.resize(request.size);
    auto fail = [](const QString& message) {
        std::fprintf(stderr, "faultline: %s\n", qPrintable(message));
        QApplication::exit(1);
    };
    QObject::connect(&window, &CompareWindow::comparisonShown, &window, [&window, request, fail] {
        const Run& a = *window.comparison()->a;
        Nanos t = 0;
        if (request.step) {
            const auto at = window.viewA()->replay()->stepTime(*request.step);
            if (!at) return fail(QString("run A never completed step %1").arg(*request.step));
            t = *at;
            window.alignBySteps();  // both views at that step
        } else if (!request.at.isEmpty()) {
            QString error;
            const auto at = parseInstant(request.at, a, &error);
            if (!at) return fail(error);
            t = *at;
        }
        window.setClock(window.alignment()->clockForA(t));
        QTimer::singleShot(0, &window, [&window, out = request.out] { saveWindowAndQuit(window, out); });
    });
    QObject::connect(&window, &CompareWindow::comparisonFailed, &window, fail);
}

}  // namespace faultline
