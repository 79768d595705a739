#include "cli_args.h"
#include "cli_commands.h"

#include "model/error.h"
#include "model/run_file.h"
#include "analysis/summary.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace faultline::cli {

int summaryCommand(const CommandArgs& argv) {
    const Args args(argv, {}, {"--json"});
    if (args.positional().size() != 1) throw Error("summary takes one run file: faultline-cli summary RUN.faultline [--json]");
    const RunSummary summary = summarize(readRunFile(args.positional().front()));
    const std::string text = args.flag("--json") ? summaryToJson(summary).dump(2) + "\n" : summaryToText(summary);
    std::fputs(text.c_str(), stdout);
    return 0;
}

}  // namespace faultline::cli
