#pragma once
// Text a user cannot read whole, as the screenshot tests look for it.
#include <QStringList>

class QWidget;

namespace faultline::test {
// Chart titles, axis labels, legend entries and bar names Qt Charts cut short with "...", and
// tile labels wider (or taller) than the room they are given, in the window's visible charts
// and tiles; each as "object name: text".
QStringList cutTexts(const QWidget& window);
}  // namespace faultline::test
