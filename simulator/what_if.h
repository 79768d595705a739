#pragma once
// What if: the same run's failures, at the same moments on the same hardware, met by another
// recovery policy (checkpoint interval, save time, detection, restart, reload). Training is
// replayed around them, so the run written shows what the policy would have lost and saved.
#include "model/run.h"

#include <optional>
#include <string>

namespace faultline {

struct RecoveryPolicy {
    Nanos checkpointInterval = 10 * kMinute;  // training time between saves
    // Unset: each incident keeps what the run measured (the run's mean save where it saved).
    std::optional<Nanos> saveTime;
    std::optional<Nanos> detection;
    std::optional<Nanos> restart;
    std::optional<Nanos> reload;
};

// "checkpoint every 5m, save 2s, restart 2m": the policy as a run's name says it.
std::string describePolicy(const RecoveryPolicy& policy);

// Throws Error when the run has no downtimes to replay (a run of failure logs alone says
// neither when the job stopped nor how long it was down).
Run replayWithPolicy(const Run& run, const RecoveryPolicy& policy);

}  // namespace faultline
