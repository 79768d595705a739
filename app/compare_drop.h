#pragma once
// A run file dropped on a window with Ctrl held is compared with the open run; without Ctrl
// the drop goes on to whatever else takes it (File > Import's drop).
#include <QString>

#include <functional>

class QWidget;

namespace faultline {

void installCompareDrop(QWidget* window, std::function<void(const QString&)> compare);

}  // namespace faultline
