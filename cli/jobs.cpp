#include "cli/args.h"
#include "cli/commands.h"

#include "analysis/jobs_report.h"
#include "model/run_file.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace faultline::cli {

const CommandSpec& jobsSpec() {
    static const CommandSpec spec{
        "jobs",
        "RUN.faultline [--all] [--json]",
        "list the scheduler jobs that trained a run",
        "Lists the jobs that trained an imported run, in start order: id (with its restart count), name, state, exit code, "
        "start, end, nodes, GPUs, and what followed its end (the downtime's cause, or a planned stop).",
        {{"--all", "", "", "also list the steps and every other job the files named"},
         {"--json", "", "", "print the jobs as JSON"}}};
    return spec;
}

int jobsCommand(const CommandArgs& argv) {
    const Args args(argv, jobsSpec());
    if (args.positional().size() != 1) throw UsageError("jobs takes one run file");
    const Run run = readRunFile(args.positional().front());
    const bool all = args.flag("--all");
    const std::string text = args.flag("--json") ? jobsToJson(run, all).dump(2) + "\n" : jobsToText(run, all);
    std::fputs(text.c_str(), stdout);
    return 0;
}

}  // namespace faultline::cli
