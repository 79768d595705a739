#pragma once
// `faultline --screenshot OUT.png|OUT.svg --view timeline|charts|incidents [--at TIME] RUN`:
// renders one panel on its own at an instant and saves it (SVG by extension), for reports. (The fabric view, the
// default, goes through the main window: see screenshot.h.)
#include "model/time.h"

#include <QSize>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

class QWidget;

namespace faultline {

struct LoadedRun;

inline const QStringList kPanelViews = {"timeline", "charts", "incidents", "present"};

// The panel `view` names (one of kPanelViews) on the run at `at` (none: the run's start, the
// timeline shown whole), as snapshotPanel draws it: for the tests that read it as it is drawn.
std::unique_ptr<QWidget> makeSnapshotPanel(const QString& view, const std::shared_ptr<const LoadedRun>& loaded, std::optional<Nanos> at);

// The size the panel is drawn at when `asked` is asked for: larger where the panel cannot be
// laid out in it whole (the charts at 1600x1000 once lost their power chart's foot).
QSize snapshotSize(const QWidget& panel, QSize asked);

// Returns the process exit status; errors are printed.
int snapshotPanel(const QString& view, const QString& runPath, const QString& out, const QSize& size, const QString& at,
                  double scale = 1.0);

}  // namespace faultline
