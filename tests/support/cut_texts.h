#pragma once
// Text a user cannot read whole, as the screenshot tests look for it.
#include <QStringList>

class QWidget;

namespace faultline::test {
// In the visible parts of `window`: chart titles, axis labels, legend entries and bar names Qt
// Charts cut short with "..."; labels (a tile's above all) wider, or taller when they wrap,
// than the room they are given; buttons narrower than their text; table headers and cells
// whose text Qt elides; the status bar's message wider than the bar. Each as "object name:
// text" (the class name where the widget has no object name).
QStringList cutTexts(const QWidget& window);
}  // namespace faultline::test
