#include "cli_args.h"
#include "cli_commands.h"

#include "importers/importer.h"
#include "importers/text_parse.h"
#include "model/error.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace faultline::cli {

int importCommand(const CommandArgs& argv) {
    const Args args(argv, {"-o", "--output", "--format", "--rank-map", "--name", "--host", "--boot-time", "--year", "--sacct-fields"}, {"--json"});
    const auto output = args.value("-o") ? args.value("-o") : args.value("--output");
    if (args.positional().empty() || !output)
        throw Error("import takes files or folders and an output: faultline-cli import FILE|DIR... -o RUN.faultline");
    ImportOptions options;
    options.format = args.value("--format").value_or("");
    options.rankMapPath = args.value("--rank-map").value_or("");
    options.runName = args.value("--name").value_or("");
    options.host = args.value("--host").value_or("");
    options.sacctFields = args.value("--sacct-fields").value_or("");
    if (auto boot = args.value("--boot-time")) {
        const auto t = parseIsoTime(*boot);
        if (!t) throw Error("--boot-time expects an ISO time such as 2025-01-21T00:00:00Z, not \"" + *boot + "\"");
        options.bootTime = *t;
    }
    if (auto year = args.integer("--year")) {
        if (*year < 1970 || *year > 9999) throw Error("--year expects a year such as 2025");
        options.year = static_cast<int>(*year);
    }
    const ImportSummary summary = importToRunFile(args.positional(), *output, options);
    const std::string text = args.flag("--json") ? importSummaryToJson(summary).dump(2) + "\n" : importSummaryToText(summary);
    std::fputs(text.c_str(), stdout);
    return 0;
}

}  // namespace faultline::cli
