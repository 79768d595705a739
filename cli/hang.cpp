#include "cli/args.h"
#include "cli/commands.h"

#include "importers/flight_recorder_reader.h"
#include "model/error.h"
#include "analysis/hang_analysis.h"
#include "model/json_text.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace faultline::cli {

const CommandSpec& hangSpec() {
    static const CommandSpec spec{
        "hang",
        "DUMP|DIR... [--json]",
        "work out who hung a job from NCCL Flight Recorder dumps",
        "Reads PyTorch NCCL Flight Recorder dumps (the files, or the folder they were written to) and works out which "
        "ranks hung the job: the collective each rank last entered and the ranks the others waited for.",
        {{"--json", "", "", "print the report as JSON"}}};
    return spec;
}

int hangCommand(const CommandArgs& argv) {
    const Args args(argv, hangSpec());
    if (args.positional().empty()) throw UsageError("hang needs Flight Recorder dumps or their folder");
    const HangReport report = analyzeHang(readFlightRecorderDumps(args.positional()));
    const std::string text = args.flag("--json") ? jsonText(hangToJson(report)) : hangToText(report);
    std::fputs(text.c_str(), stdout);
    return 0;
}

}  // namespace faultline::cli
