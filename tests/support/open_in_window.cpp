#include "open_in_window.h"

#include "model/run_file.h"

#include <QSignalSpy>

namespace faultline::test {

bool openAndWait(MainWindow& window, const std::string& path) {
    QSignalSpy shown(&window, &MainWindow::runShown);
    window.openRun(QString::fromStdString(path));
    return shown.count() > 0 || shown.wait(60'000);
}

WindowOnRun::WindowOnRun(const Run& run, QSize size, const std::string& fileName) : path(dir.file(fileName)) {
    writeRunFile(run, path);
    open(size);
}

WindowOnRun::WindowOnRun(std::string runFile, QSize size) : path(std::move(runFile)) { open(size); }

void WindowOnRun::open(QSize size) {
    if (size.isValid()) window.resize(size);
    window.show();
    shown = openAndWait(window, path);
}

}  // namespace faultline::test
