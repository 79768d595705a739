#include "slurm_job.h"

#include "import_report.h"

#include <array>

namespace faultline {

bool isInterruptingJobState(std::string_view state) {
    static constexpr std::array<std::string_view, 9> kStates = {"FAILED",    "NODE_FAIL",     "TIMEOUT",
                                                                "CANCELLED", "REQUEUED",      "OUT_OF_MEMORY",
                                                                "BOOT_FAIL", "PREEMPTED",     "DEADLINE"};
    for (std::string_view s : kStates)
        if (state == s) return true;
    return false;
}

void addSlurmJob(ImportedJob job, ImportContext& ctx) {
    ctx.report.count("jobs");
    if (job.start > 0) ctx.report.seen(job.start);
    if (job.end > 0) ctx.report.seen(job.end);
    if (isInterruptingJobState(job.state)) {
        ImportedFailure f;
        // The job stopped at its end time; a job still listed without one stopped when it started.
        f.time = job.end > 0 ? job.end : job.start;
        // sacct says how a job ended, not what broke: the taxonomy maps the state as far as it goes.
        f.cause = rootCauseForSlurmState(job.state).value_or(RootCause::Unknown);
        f.hosts = job.nodes;
        std::string nodes;
        for (std::size_t i = 0; i < job.nodes.size() && i < 8; ++i) nodes += (i ? "," : "") + job.nodes[i];
        if (job.nodes.size() > 8) nodes += ",... (" + std::to_string(job.nodes.size()) + " nodes)";
        f.detail = "Slurm job " + job.id + (job.name.empty() ? "" : " (" + job.name + ")") + " " + job.state +
                   (nodes.empty() ? "" : " on " + nodes) + " at " + formatEpochNs(f.time);
        if (f.time > 0) {
            ctx.events.failures.push_back(std::move(f));
            ctx.report.count("failures");
        }
        ctx.report.count("jobs " + job.state);
    }
    ctx.events.jobs.push_back(std::move(job));
}

}  // namespace faultline
