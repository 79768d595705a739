#pragma once
// Opening a run file in the main window, as most GUI tests begin.
#include <string>

namespace faultline {
class MainWindow;
}

namespace faultline::test {
// Opens the run file in the window and waits until it is shown (a generous deadline: the
// machine may be busy); false when it never was.
bool openAndWait(MainWindow& window, const std::string& path);
}  // namespace faultline::test
