#pragma once
// `faultline --screenshot OUT.png [--at TIME | --step N] [--viewpoint NAME] [--size WxH] RUN`: opens the run,
// shows the fabric view at that instant, saves the window as a PNG and quits.
#include "model/run.h"
#include "model/viewpoints.h"

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

// The instant `--at` names: a time since the run's start ("90m", "1d", "36h") or a UTC wall
// time ("2024-03-05T14:02:11Z", "2024-03-05 14:02:11"). Sets `error` and returns nullopt
// when it names no instant of the run.
std::optional<Nanos> parseInstant(const QString& text, const Run& run, QString* error);

// The camera of the viewpoint saved as `name` in the review of `runPath`, checked against
// `run`'s cluster; sets `error` (naming the run and the viewpoints it has) and returns
// nullopt when there is none of that name or it was saved on another cluster.
std::optional<Viewpoint> savedViewpoint(const QString& runPath, const Run& run, const QString& name, QString* error);

// Arranges for the window to save itself as requested once its run is shown, then exit.
void arrangeScreenshot(MainWindow& window, const ScreenshotRequest& request);

}  // namespace faultline
