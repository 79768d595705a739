#pragma once
class QApplication;

namespace faultline::test {
// The test process's QApplication, created on first use.
QApplication& guiApp();
}  // namespace faultline::test
