#pragma once
// `faultline --screenshot OUT.png [--at TIME | --step N] [--viewpoint NAME] [--size WxH] RUN`: opens the run,
// shows the fabric view at that instant, saves the window as a PNG and quits.
#include "exports/run_instant.h"

#include <QSize>
#include <QString>

#include <optional>

namespace faultline {

class MainWindow;

struct ScreenshotRequest {
    QString out;
    QSize size;
    QString at;                        // empty: the run's start
    std::optional<std::int64_t> step;  // the first time the run completed this step
    QString viewpoint = {};            // a viewpoint saved in the run's review; empty: the whole cluster
};

// Arranges for the window to save itself as requested once its run is shown, then exit.
void arrangeScreenshot(MainWindow& window, const ScreenshotRequest& request);

}  // namespace faultline
