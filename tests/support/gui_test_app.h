#pragma once
#include <QString>
#include <QWidget>

#include <cstdlib>

class QApplication;

namespace faultline::test {
// The test process's QApplication, created on first use.
QApplication& guiApp();

// A picture of `widget` saved as NAME.png in the folder FAULTLINE_TEST_SHOTS names, when it
// names one: for looking at what a test saw.
inline void maybeSave(QWidget& widget, const char* name) {
    if (const char* dir = std::getenv("FAULTLINE_TEST_SHOTS")) widget.grab().save(QString("%1/%2.png").arg(dir, name));
}
}  // namespace faultline::test
