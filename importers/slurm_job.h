#pragma once
// What sacct's text and JSON outputs share: which job states interrupt training, and how a
// job becomes an imported job and (if it ended badly) a failure.
#include "import_context.h"

#include <string_view>

namespace faultline {

// FAILED, NODE_FAIL, TIMEOUT, CANCELLED, REQUEUED, OUT_OF_MEMORY, BOOT_FAIL, PREEMPTED, DEADLINE.
bool isInterruptingJobState(std::string_view state);

// Adds the job to ctx.events (and a failure when its state interrupted it), and counts it.
void addSlurmJob(ImportedJob job, ImportContext& ctx);

}  // namespace faultline
