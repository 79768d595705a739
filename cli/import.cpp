#include "cli/args.h"
#include "cli/commands.h"
#include "cli/import_follow.h"
#include "cli/progress.h"
#include "cli/prometheus_options.h"

#include "importers/formats.h"
#include "importers/importer.h"
#include "importers/text/text_parse.h"
#include "model/error.h"
#include "model/json_text.h"
#include "analysis/stored_figures.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace faultline::cli {

void readRunChainOptions(const Args& args, ImportOptions& options) {
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
}

namespace {

CommandSpec withPullOptions(CommandSpec spec) {
    const auto& pull = prometheusOptions();
    spec.options.insert(spec.options.end() - 2, pull.begin(), pull.end());
    return spec;
}

}  // namespace

const CommandSpec& importSpec() {
    static const CommandSpec spec = withPullOptions({
        "import",
        "[FILE|DIR...] [--prometheus URL --from TIME --to TIME] -o RUN.faultline [OPTIONS]",
        "read the files a cluster wrote into one run file",
        "Reads files and folders as the cluster wrote them (Kineto traces, NCCL Flight Recorder dumps, kernel logs with "
        "Xid lines, sacct, Megatron and torchtitan logs, Slurm topology.conf, ibnetdiscover, ...), detects each file's "
        "format, places events on the topology and writes one run file. Prints per file the format, counts per kind, "
        "time span and ranks. With --prometheus, GPU telemetry is pulled from a Prometheus server too (query_range per metric and "
        "batch of hosts, credentials from a file or the environment) and the run keeps the URL and queries it came from. "
        "Nothing is written unless every file was read.\n"
        "formats: " + formatNames(),
        {
            {"--output", "-o", "RUN.faultline", "the run file to write (required)"},
            kForceOption,
            {"--format", "", "NAME", "read every file in this format instead of detecting each file's"},
            {"--rank-map", "", "FILE", "lines of \"rank host [local_gpu]\" for traces that do not say where a rank ran"},
            {"--name", "", "NAME", "the run's name (default: the training job's name and id, else the folder the files are in)"},
            {"--host", "", "NAME", "the host of files that do not name one: kernel logs (dmesg), nvidia-smi and dmon logs"},
            {"--boot-time", "", "ISO", "when the host booted, for raw /dev/kmsg times (2025-01-21T00:00:00Z)"},
            {"--year", "", "YYYY", "the year of syslog dates, which carry none (default: this year)"},
            {"--sacct-fields", "", "LIST", "the columns of sacct output written with --noheader, as given to sacct --format"},
            {"--query-gpu", "", "LIST", "the fields of an nvidia-smi --query-gpu log written with noheader, as given to --query-gpu"},
            {"--world-size", "", "N", "the job's ranks, when no banner says: the silent ranks of a timeout are named among them"},
            {"--max-series", "", "N", "the most telemetry series (one per GPU and metric) the import holds (default 500,000)"},
            kAllowDisjointOption,
            {"--follow", "", "DIR", "follow a running job's folder: keep the run file current as files grow or arrive, until Ctrl+C or SIGTERM; with --prometheus, pull the metrics up to now at each look too"},
            {"--poll", "", "DURATION", "with --follow: look at the folder at least this often where changes are not told (network file systems; default 2s)"},
            {"--settle", "", "DURATION", "with --follow: after a change, look once the folder has been quiet this long (default 250ms; 0 looks at once); a folder written without pause is still looked at every 2 s"},
            {"--shard", "", "I/N", "read only every N-th input from the I-th (1-based) and write an import shard to merge later"},
            kJobOption,
            kJobNameOption,
            {"--json", "", "", "print the import report as JSON"},
            kQuietOption,
        }});
    return spec;
}

namespace {

// "3/8" -> {2, 8}: the 0-based shard and the number of shards.
std::pair<int, int> parseShard(const std::string& text) {
    const std::size_t slash = text.find('/');
    const auto i = slash == std::string::npos ? std::nullopt : parseInt(std::string_view(text).substr(0, slash));
    const auto n = slash == std::string::npos ? std::nullopt : parseInt(std::string_view(text).substr(slash + 1));
    if (!i || !n || *n < 1 || *n > 1'000'000 || *i < 1 || *i > *n)
        throw UsageError("--shard expects I/N with 1 <= I <= N, such as 3/8, not \"" + text + "\"");
    return {static_cast<int>(*i - 1), static_cast<int>(*n)};
}

}  // namespace

int importCommand(const CommandArgs& argv) {
    const Args args(argv, importSpec());
    const auto output = args.value("--output");
    const auto follow = args.value("--follow");
    std::optional<PrometheusPullOptions> pull = readPrometheusOptions(args, follow.has_value());
    if (args.positional().empty() && !pull && !follow) throw UsageError("import needs files or folders to read, or a server to pull from (--prometheus URL)");
    if (!output) throw UsageError("import needs an output file: -o RUN.faultline");
    if (pull && args.value("--shard")) throw UsageError("--prometheus cannot be sharded: pull in the merge's import, or alone");
    if (follow && (args.value("--shard") || args.flag("--json")))
        throw UsageError("--follow reads a folder as it grows: it cannot be combined with --shard or --json");
    std::vector<std::string> inputs = args.positional();
    if (follow) inputs.push_back(*follow);
    if (auto rankMap = args.value("--rank-map")) inputs.push_back(*rankMap);
    args.output("--output", args.value("--shard") ? OutputKind::ShardFile : OutputKind::RunFile, inputs);
    ImportOptions options;
    options.format = args.value("--format").value_or("");
    options.rankMapPath = args.value("--rank-map").value_or("");
    options.runName = args.value("--name").value_or("");
    options.host = args.value("--host").value_or("");
    options.sacctFields = args.value("--sacct-fields").value_or("");
    options.queryGpuFields = args.value("--query-gpu").value_or("");
    options.allowDisjoint = args.flag("--allow-disjoint");
    if (auto cap = args.integer("--max-series")) {
        if (*cap < 1) throw UsageError("--max-series expects a positive number of series, not " + std::to_string(*cap));
        options.maxSeries = static_cast<std::size_t>(*cap);
    }
    readRunChainOptions(args, options);
    if (auto boot = args.value("--boot-time")) {
        const auto t = parseIsoTime(*boot);
        if (!t) throw UsageError("--boot-time expects an ISO time such as 2025-01-21T00:00:00Z, not \"" + *boot + "\"");
        options.bootTime = *t;
    }
    if (auto year = args.integer("--year")) {
        if (*year < 1970 || *year > 9999) throw UsageError("--year expects a year such as 2025");
        options.year = static_cast<int>(*year);
    }
    if (auto world = args.integer("--world-size")) {
        if (*world < 1 || *world > 800'000) throw UsageError("--world-size expects the job's number of ranks, 1 to 800000");
        options.worldSize = static_cast<std::int32_t>(*world);
    }
    const bool quiet = args.flag("--quiet");
    if (follow) {
        FollowSettings settings;
        settings.inputs = args.positional();
        settings.output = *output;
        settings.pollNs = args.duration("--poll").value_or(settings.pollNs);
        settings.quiet = quiet;
        if (auto settleNs = args.duration("--settle", true)) {
            if (*settleNs < 0 || *settleNs > settings.maxDelayNs) throw UsageError("--settle expects a duration from 0 to 2s");
            settings.settleNs = *settleNs;
        }
        settings.inputs.push_back(*follow);
        settings.pull = std::move(pull);
        return followImport(settings, options);
    }
    ProgressLine progress("faultline-cli import", progressWanted(quiet));
    progress.setStage(pull && args.positional().empty() ? "pulling from " + pull->server.url
                                                        : "importing " + std::to_string(args.positional().size()) + (args.positional().size() == 1 ? " input" : " inputs"));
    if (auto shardText = args.value("--shard")) {
        const auto [index, count] = parseShard(*shardText);
        const ImportShard shard = importShard(args.positional(), options, index, count, [&](double fraction) { progress.setFraction(fraction); });
        writeShardFile(shard, *output);
        progress.finish();
        if (quiet) return kExitOk;
        ImportSummary summary;
        for (const ShardedFile& f : shard.files) summary.files.push_back(f.report);
        summary.output = *output;
        std::printf("shard %d of %d: %zu of %zu input files\n", index + 1, count, shard.files.size(), shard.inputs);
        std::fputs((args.flag("--json") ? jsonText(importSummaryToJson(summary)) : importSummaryToText(summary)).c_str(), stdout);
        return kExitOk;
    }
    ImportSummary summary;
    if (pull) {
        ImportResult result = importWithPrometheus(args.positional(), options, std::move(*pull), [&](double fraction) { progress.setFraction(fraction); });
        writeRunFileWithFigures(result.run, *output, result.pulls, &result.stragglers);
        summary = std::move(result.summary);
        summary.output = *output;
    } else {
        summary = importToRunFile(args.positional(), *output, options, [&](double fraction) { progress.setFraction(fraction); });
    }
    progress.finish();
    if (quiet) return kExitOk;
    const std::string text = args.flag("--json") ? jsonText(importSummaryToJson(summary)) : importSummaryToText(summary);
    std::fputs(text.c_str(), stdout);
    return kExitOk;
}

}  // namespace faultline::cli
