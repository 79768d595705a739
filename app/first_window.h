#pragma once
// Where the main window opens before the user has arranged it: most of the screen, centred.
#include <QRect>

class QMainWindow;

namespace faultline {

// The share of the screen's free area (less taskbars) that the first window takes.
inline constexpr double kFirstWindowShare = 0.8;

QRect firstWindowGeometry(const QRect& available);
// Sizes and centres the window on its screen, and shares the space out between the 3D view
// and the docks so that the 3D view gets most of it.
void placeFirstWindow(QMainWindow& window);
// The docks take what they need to be read and no more; the 3D view the rest (at the first
// showing, and for View > Reset Layout).
void shareOutDocks(QMainWindow& window);
// When the window shrinks the docks give way first: none wider than a third of the window
// nor taller than a quarter of it, so the 3D view keeps the largest area.
void keepDocksSmallerThanThe3DView(QMainWindow& window);
// The docks' sizes came from the user's saved layout: leave them as they are when shown.
void keepRestoredDocks(QMainWindow& window);

}  // namespace faultline
