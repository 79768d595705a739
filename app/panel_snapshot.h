#pragma once
// `faultline --screenshot OUT.png|OUT.svg --view timeline|charts|incidents [--at TIME] RUN`:
// renders one panel on its own at an instant and saves it (SVG by extension), for reports. (The fabric view, the
// default, goes through the main window: see screenshot.h.)
#include <QSize>
#include <QString>
#include <QStringList>

namespace faultline {

inline const QStringList kPanelViews = {"timeline", "charts", "incidents", "present"};

// Returns the process exit status; errors are printed.
int snapshotPanel(const QString& view, const QString& runPath, const QString& out, const QSize& size, const QString& at,
                  double scale = 1.0);

}  // namespace faultline
