#pragma once
// The menus every window of the app shares with the main window, for the comparison and the
// hang windows: File (Open Run, Open Recent, Close Ctrl+W, Quit Ctrl+Q) and Help
// (Documentation, Keyboard Shortcuts, About). A run opened from another window opens in the
// main window (a new one when there is none); a comparison in a window of its own.
#include <functional>

class QMenu;
class QMenuBar;
class QString;
class QWidget;

namespace faultline {

// File > Open Recent in `file`, filled each time it opens (a run opened in another window
// since is listed too): each entry by its name (disambiguated), its full path on hover.
void addRecentMenu(QMenu* file, QWidget* owner, std::function<void(const QString&)> openRun);

// Opens the run in the app's main window, making and showing one when there is none.
void openRunInMainWindow(const QString& path);

// Adds File and Help to `bar` (the menus Open Run, Open Recent, Close, Quit; Documentation,
// Keyboard Shortcuts, About), acting for `window`.
void addSharedMenus(QMenuBar* bar, QWidget* window);

}  // namespace faultline
