#pragma once
// A run file opened in the main window, as most GUI tests begin.
#include "app/main_window.h"
#include "gui_test_app.h"
#include "test_runs.h"

#include <QSize>

#include <string>

namespace faultline {
struct Run;
}

namespace faultline::test {

// Opens the run file in the window and waits until it is shown (a generous deadline: the
// machine may be busy); false when it never was.
bool openAndWait(MainWindow& window, const std::string& path);

// A main window on a run: the run written to a run file of its own, `fileName` in a scratch
// folder (or a run file already written), the window resized to `size` (left at its own size
// when none is given), shown, and the file opened in it. Begin with ASSERT_TRUE(w.shown).
class WindowOnRun {
public:
    explicit WindowOnRun(const Run& run, QSize size = QSize(), const std::string& fileName = "run.faultline");
    explicit WindowOnRun(std::string runFile, QSize size = QSize());
    WindowOnRun(const WindowOnRun&) = delete;
    WindowOnRun& operator=(const WindowOnRun&) = delete;

    QApplication& app = guiApp();  // before any widget
    ScratchDir dir;
    std::string path;
    MainWindow window;
    bool shown = false;  // the run was shown before the deadline

private:
    void open(QSize size);
};

}  // namespace faultline::test
