#pragma once
// `faultline --screenshot OUT.png [--at TIME | --step N] [--viewpoint NAME] [--colour-by METRIC] [--size WxH] RUN`: opens the run,
// shows the fabric view at that instant, saves the window as a PNG and quits.
#include "exports/run_instant.h"

#include <QSize>
#include <QString>

class QWidget;

#include <optional>

namespace faultline {

class MainWindow;

struct ScreenshotRequest {
    QString out;
    QSize size;
    QString at;                        // empty: where the run opens (openingTime)
    std::optional<std::int64_t> step;  // the first time the run completed this step
    QString viewpoint = {};            // a viewpoint saved in the run's review; empty: the whole cluster
    QString colourBy = {};             // a metric the 3D view is coloured by (View > Colour By); empty: GPU state
};

// Saves `window` as it looks now into `out` and ends the app: 0 when written, 1 (after saying
// why on stderr) when not. Shared by the screenshots of the main and comparison windows.
void saveWindowAndQuit(QWidget& window, const QString& out);

// Arranges for the window to save itself as requested once its run is shown, then exit.
void arrangeScreenshot(MainWindow& window, const ScreenshotRequest& request);

}  // namespace faultline
