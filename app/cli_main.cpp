// faultline-cli: the command-line face of Faultline, over the same core as the app.
#include "cli_commands.h"

#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

namespace {

struct Command {
    const char* name;
    int (*run)(const faultline::cli::CommandArgs&);
    const char* usage;
};

constexpr Command kCommands[] = {
    {"import", faultline::cli::importCommand,
     "import FILE|DIR... -o RUN.faultline [--format NAME] [--rank-map FILE] [--json]\n"
     "           [--name NAME] [--host NAME] [--boot-time ISO] [--year YYYY] [--sacct-fields LIST]"},
    {"simulate", faultline::cli::simulateCommand,
     "simulate --preset llama3-405b|tiny [--seed N] -o RUN.faultline\n"
     "           [--gpus N] [--days D] [--checkpoint-interval 10m] [--step-time 6s]\n"
     "           [--failures-per-day F] [--planned-per-day P] [--stragglers-per-day S]\n"
     "           [--trace-ranks N --trace-steps S --trace-at TIME]"},
    {"summary", faultline::cli::summaryCommand, "summary RUN.faultline [--json]"},
    {"incidents", faultline::cli::incidentsCommand, "incidents RUN.faultline [--id N] [--json]"},
    {"stragglers", faultline::cli::stragglersCommand, "stragglers RUN.faultline [--limit N] [--json]"},
    {"hang", faultline::cli::hangCommand, "hang DUMP|DIR... [--json]   (PyTorch NCCL Flight Recorder dumps)"},
};

void printUsage(std::FILE* to) {
    std::fputs("usage: faultline-cli COMMAND [ARGS]\n\ncommands:\n", to);
    for (const Command& c : kCommands) std::fprintf(to, "  %s\n", c.usage);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
        printUsage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    for (const Command& c : kCommands) {
        if (std::strcmp(argv[1], c.name) != 0) continue;
        try {
            return c.run(std::vector<std::string>(argv + 2, argv + argc));
        } catch (const std::exception& e) {
            std::fprintf(stderr, "faultline-cli %s: %s\n", c.name, e.what());
            return 1;
        }
    }
    std::fprintf(stderr, "faultline-cli: unknown command \"%s\"\n\n", argv[1]);
    printUsage(stderr);
    return 2;
}
