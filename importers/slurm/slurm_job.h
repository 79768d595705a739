#pragma once
// What sacct's text and JSON outputs share: which job states interrupt training, and how a
// job becomes an imported job and (if it ended badly) a failure.
#include "importers/events/import_context.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace faultline {

// FAILED, NODE_FAIL, TIMEOUT, CANCELLED, REQUEUED, OUT_OF_MEMORY, BOOT_FAIL, PREEMPTED, DEADLINE.
bool isInterruptingJobState(std::string_view state);

// GPUs in a TRES list: "billing=96,cpu=96,gres/gpu=8,mem=1T,node=1" -> 8 (gres/gpu:h100=8
// counts too); 0 when it names none.
std::int32_t gpusInTres(std::string_view tres);

// From one `sacct --json` job object: submit time, exit code, restart count, reason and
// allocated GPUs, in the spellings of Slurm 21.08 to 24.x.
void readSacctJsonDetails(const nlohmann::json& job, ImportedJob& out);

// The job ids a submit line's dependency names: "sbatch --dependency=afterok:12:13,afterany:14+5
// run.sh" -> 12, 13, 14 (also "-d LIST", "--dependency LIST", '?' between alternatives);
// "singleton" names none. Empty when the line has no dependency.
std::vector<std::string> dependenciesInSubmitLine(std::string_view submitLine);

// Adds the job to ctx.events (and a failure when its state interrupted it), and counts it.
void addSlurmJob(ImportedJob job, ImportContext& ctx);

}  // namespace faultline
