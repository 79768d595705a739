#include "open_in_window.h"

#include "app/main_window.h"

#include <QSignalSpy>

namespace faultline::test {

bool openAndWait(MainWindow& window, const std::string& path) {
    QSignalSpy shown(&window, &MainWindow::runShown);
    window.openRun(QString::fromStdString(path));
    return shown.count() > 0 || shown.wait(60'000);
}

}  // namespace faultline::test
