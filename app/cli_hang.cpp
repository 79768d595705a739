#include "cli_args.h"
#include "cli_commands.h"

#include "importers/flight_recorder_reader.h"
#include "model/error.h"
#include "analysis/hang_analysis.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace faultline::cli {

int hangCommand(const CommandArgs& argv) {
    const Args args(argv, {}, {"--json"});
    if (args.positional().empty())
        throw Error("hang takes Flight Recorder dumps or their folder: faultline-cli hang DUMP|DIR... [--json]");
    const HangReport report = analyzeHang(readFlightRecorderDumps(args.positional()));
    const std::string text = args.flag("--json") ? hangToJson(report).dump(2) + "\n" : hangToText(report);
    std::fputs(text.c_str(), stdout);
    return 0;
}

}  // namespace faultline::cli
