#include "cli/args.h"
#include "analysis/stored_figures.h"
#include "cli/commands.h"
#include "cli/progress.h"

#include "importers/importer.h"
#include "model/json_text.h"
#include "model/run_file.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace faultline::cli {

const CommandSpec& mergeSpec() {
    static const CommandSpec spec{
        "merge",
        "SHARD... -o RUN.faultline [OPTIONS]",
        "join the shards of a sharded import into one run file",
        "Reads every shard written by 'faultline-cli import --shard I/N' for one import (in any order) and writes the run "
        "a single import of all their inputs would give: collectives matched across shards, one topology and rank map. "
        "Refuses shards of different imports and names any missing shard. packaging/slurm/faultline-import.sbatch runs "
        "the shards as a Slurm job array and this merge as a job that depends on it.",
        {
            {"--output", "-o", "RUN.faultline", "the run file to write (required)"},
            kForceOption,
            {"--rank-map", "", "FILE", "lines of \"rank host [local_gpu]\" for traces that do not say where a rank ran"},
            {"--name", "", "NAME", "the run's name (default: as the shards' import named it)"},
            kJobOption,
            kJobNameOption,
            kAllowDisjointOption,
            {"--json", "", "", "print the import report as JSON"},
            kQuietOption,
        }};
    return spec;
}

int mergeCommand(const CommandArgs& argv) {
    const Args args(argv, mergeSpec());
    const auto output = args.value("--output");
    if (args.positional().empty()) throw UsageError("merge needs the shard files to join");
    if (!output) throw UsageError("merge needs an output file: -o RUN.faultline");
    args.output("--output", OutputKind::RunFile, args.positional());
    ImportOptions options;
    options.rankMapPath = args.value("--rank-map").value_or("");
    options.runName = args.value("--name").value_or("");
    options.allowDisjoint = args.flag("--allow-disjoint");
    readRunChainOptions(args, options);
    const bool quiet = args.flag("--quiet");
    ProgressLine progress("faultline-cli merge", progressWanted(quiet));
    progress.setStage("merging " + std::to_string(args.positional().size()) + " shards");
    ImportResult result = mergeShards(args.positional(), options);
    writeRunFileWithFigures(result.run, *output, {}, &result.stragglers);
    result.summary.output = *output;
    progress.finish();
    if (quiet) return kExitOk;
    const std::string text = args.flag("--json") ? jsonText(importSummaryToJson(result.summary)) : importSummaryToText(result.summary);
    std::fputs(text.c_str(), stdout);
    return kExitOk;
}

}  // namespace faultline::cli
