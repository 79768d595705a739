#pragma once
// A hang the Flight Recorder dumps show is an incident like any other: each origin is a
// failure (NCCL watchdog timeout: the hung collective is what the watchdog times out on),
// its culprits' GPUs failed and its waiting ranks the ones that report it; the job stopped
// training when the hang began, so the run is down from then to its end, unless a downtime
// the other files show (a console log's timeout, a requeue) already covers that moment, in
// which case the culprits become that failure's suspects.
#include "model/run.h"

#include <string>
#include <vector>

namespace faultline {

// Adds the incident of run.hang (if set and it found an origin) to `run`, keeping failures
// and downtimes in time order.
void addHangIncident(Run& run);

}  // namespace faultline
