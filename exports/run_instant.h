#pragma once
// The instant and the camera a command line names for a picture of a run (--at, --viewpoint),
// read against the run: shared by the screenshot flags and the video export.
#include "model/run.h"
#include "model/viewpoints.h"

#include <QString>

#include <optional>

namespace faultline {

// The instant `--at` names: a time since the run's start ("90m", "1d", "36h") or a UTC wall
// time ("2024-03-05T14:02:11Z", "2024-03-05 14:02:11"). Sets `error` and returns nullopt
// when it names no instant of the run.
std::optional<Nanos> parseInstant(const QString& text, const Run& run, QString* error);

// The camera of the viewpoint saved as `name` in the review of `runPath`, checked against
// `run`'s cluster; sets `error` (naming the run and the viewpoints it has) and returns
// nullopt when there is none of that name or it was saved on another cluster.
std::optional<Viewpoint> savedViewpoint(const QString& runPath, const Run& run, const QString& name, QString* error);

}  // namespace faultline
