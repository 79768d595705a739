#include "cli/args.h"
#include "cli/commands.h"

#include "importers/pytorch/flight_recorder_reader.h"
#include "model/error.h"
#include "model/output_guard.h"
#include "model/run_file.h"
#include "analysis/hang_analysis.h"
#include "model/json_text.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>

namespace faultline::cli {

namespace {

// The analysis the import stored: one answer for the CLI, the app and the report.
HangReport storedHang(const std::string& path) {
    Run run = readRunFile(path);
    if (!run.hang)
        throw Error(path + ": the run holds no hang analysis: it was imported from no Flight Recorder dumps (import them, or give "
                           "the dumps' folder)");
    return std::move(*run.hang);
}

}  // namespace

const CommandSpec& hangSpec() {
    static const CommandSpec spec{
        "hang",
        "DUMP|DIR...|RUN.faultline [--json]",
        "work out who hung a job from NCCL Flight Recorder dumps",
        "Reads PyTorch NCCL Flight Recorder dumps (the files, or the folder they were written to) and works out which "
        "ranks hung the job: the collective each rank last entered and the ranks the others waited for. Given a run "
        "file imported from such dumps, prints the analysis the import stored, the same the app shows.",
        {{"--json", "", "", "print the report as JSON"}}};
    return spec;
}

int hangCommand(const CommandArgs& argv) {
    const Args args(argv, hangSpec());
    if (args.positional().empty()) throw UsageError("hang needs Flight Recorder dumps or their folder");
    const std::vector<std::string>& inputs = args.positional();
    std::error_code ec;
    const bool runFile = inputs.size() == 1 && std::filesystem::is_regular_file(inputs.front(), ec) && holdsOutputKind(inputs.front(), OutputKind::RunFile);
    const HangReport report = runFile ? storedHang(inputs.front()) : analyzeHang(readFlightRecorderDumps(inputs));
    const std::string text = args.flag("--json") ? jsonText(hangToJson(report)) : hangToText(report);
    std::fputs(text.c_str(), stdout);
    return 0;
}

}  // namespace faultline::cli
