// faultline-cli: the command-line face of Faultline, over the same core as the app.
#include "cli/build_info.h"
#include "cli/commands.h"

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

namespace {

using namespace faultline::cli;

constexpr const char* kUsage = "usage: faultline-cli COMMAND [OPTIONS] [ARGS]\n"
                               "       faultline-cli COMMAND --help\n"
                               "       faultline-cli --help | --version\n";

void printHelp() {
    std::fputs(kUsage, stdout);
    std::fputs("\nSimulates, imports and analyses large-cluster training runs (*.faultline run files).\n\ncommands:\n",
               stdout);
    for (const Command& c : commands()) std::printf("  %-12s%s\n", c.spec().name.c_str(), c.spec().summary.c_str());
    std::fputs("\noptions:\n  -h, --help     show this help and exit\n  -v, --version  show the version and the build, and exit\n\n"
               "Run 'faultline-cli COMMAND --help' for a command's options.\n\n",
               stdout);
    std::fputs(kExitStatusText, stdout);
}

bool wantsHelp(const CommandArgs& args) {
    for (const std::string& a : args)
        if (a == "--help" || a == "-h") return true;
    return false;
}

int usageError(const std::string& message, const std::string& usage, const std::string& helpCommand) {
    std::fprintf(stderr, "%s\n%sTry '%s --help' for more information.\n", message.c_str(), usage.c_str(), helpCommand.c_str());
    return kExitUsage;
}

}  // namespace

int main(int argc, char** argv) {
    const CommandArgs args(argv + 1, argv + argc);
    if (args.empty()) return usageError("faultline-cli: no command given", kUsage, "faultline-cli");
    const std::string& first = args.front();
    if (first == "--help" || first == "-h") {
        printHelp();
        return kExitOk;
    }
    if (first == "--version" || first == "-v") {
        std::fputs(faultline::versionText("faultline-cli").c_str(), stdout);
        return kExitOk;
    }
    for (const Command& c : commands()) {
        const CommandSpec& spec = c.spec();
        if (first != spec.name) continue;
        const CommandArgs rest(args.begin() + 1, args.end());
        if (wantsHelp(rest)) {
            std::fputs(helpText(spec).c_str(), stdout);
            return kExitOk;
        }
        try {
            return c.run(rest);
        } catch (const UsageError& e) {
            return usageError("faultline-cli " + spec.name + ": " + e.what(), usageLine(spec), "faultline-cli " + spec.name);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "faultline-cli %s: %s\n", spec.name.c_str(), e.what());
            return kExitFailure;
        }
    }
    if (first.starts_with("-")) return usageError("faultline-cli: unknown option " + first, kUsage, "faultline-cli");
    return usageError("faultline-cli: unknown command \"" + first + "\"", kUsage, "faultline-cli");
}
