#include "cli_args.h"
#include "cli_commands.h"
#include "cli_progress.h"

#include "importers/formats.h"
#include "importers/importer.h"
#include "importers/text_parse.h"
#include "model/error.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace faultline::cli {

const CommandSpec& importSpec() {
    static const CommandSpec spec{
        "import",
        "FILE|DIR... -o RUN.faultline [OPTIONS]",
        "read the files a cluster wrote into one run file",
        "Reads files and folders as the cluster wrote them (Kineto traces, NCCL Flight Recorder dumps, kernel logs with "
        "Xid lines, sacct, Megatron and torchtitan logs, Slurm topology.conf, ibnetdiscover, ...), detects each file's "
        "format, places events on the topology and writes one run file. Prints per file the format, counts per kind, "
        "time span and ranks. Nothing is written unless every file was read.\n"
        "formats: " + formatNames(),
        {
            {"--output", "-o", "RUN.faultline", "the run file to write (required)"},
            {"--format", "", "NAME", "read every file in this format instead of detecting each file's"},
            {"--rank-map", "", "FILE", "lines of \"rank host [local_gpu]\" for traces that do not say where a rank ran"},
            {"--name", "", "NAME", "the run's name (default: from the files)"},
            {"--host", "", "NAME", "the host of kernel logs that do not name one (dmesg)"},
            {"--boot-time", "", "ISO", "when the host booted, for raw /dev/kmsg times (2025-01-21T00:00:00Z)"},
            {"--year", "", "YYYY", "the year of syslog dates, which carry none (default: this year)"},
            {"--sacct-fields", "", "LIST", "the columns of sacct output written with --noheader, as given to sacct --format"},
            {"--job", "", "IDS", "the Slurm jobs that trained the run, comma-separated (each one's requeues and array tasks too); "
                                 "default: the jobs the training logs name and every job of the same name"},
            {"--job-name", "", "NAME", "the run is every job of this name"},
            {"--json", "", "", "print the import report as JSON"},
            kQuietOption,
        }};
    return spec;
}

int importCommand(const CommandArgs& argv) {
    const Args args(argv, importSpec());
    const auto output = args.value("--output");
    if (args.positional().empty()) throw UsageError("import needs files or folders to read");
    if (!output) throw UsageError("import needs an output file: -o RUN.faultline");
    ImportOptions options;
    options.format = args.value("--format").value_or("");
    options.rankMapPath = args.value("--rank-map").value_or("");
    options.runName = args.value("--name").value_or("");
    options.host = args.value("--host").value_or("");
    options.sacctFields = args.value("--sacct-fields").value_or("");
    options.jobName = args.value("--job-name").value_or("");
    if (auto jobs = args.value("--job")) {
        std::string id;
        for (char c : *jobs + ",") {
            if (c != ',') {
                id += c;
            } else if (!id.empty()) {
                options.jobIds.push_back(id);
                id.clear();
            }
        }
        if (options.jobIds.empty()) throw UsageError("--job expects Slurm job ids such as 1234 or 1234,1240");
    }
    if (auto boot = args.value("--boot-time")) {
        const auto t = parseIsoTime(*boot);
        if (!t) throw UsageError("--boot-time expects an ISO time such as 2025-01-21T00:00:00Z, not \"" + *boot + "\"");
        options.bootTime = *t;
    }
    if (auto year = args.integer("--year")) {
        if (*year < 1970 || *year > 9999) throw UsageError("--year expects a year such as 2025");
        options.year = static_cast<int>(*year);
    }
    const bool quiet = args.flag("--quiet");
    ProgressLine progress("faultline-cli import", progressWanted(quiet));
    progress.setStage("importing " + std::to_string(args.positional().size()) + (args.positional().size() == 1 ? " input" : " inputs"));
    const ImportSummary summary =
        importToRunFile(args.positional(), *output, options, [&](double fraction) { progress.setFraction(fraction); });
    progress.finish();
    if (quiet) return kExitOk;
    const std::string text = args.flag("--json") ? importSummaryToJson(summary).dump(2) + "\n" : importSummaryToText(summary);
    std::fputs(text.c_str(), stdout);
    return kExitOk;
}

}  // namespace faultline::cli
