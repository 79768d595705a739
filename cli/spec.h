#pragma once
// What each faultline-cli command accepts, written once: the parser takes its options from
// here and `--help`, the usage line and the manual page's option lists say the same.
#include "model/error.h"

#include <string>
#include <vector>

namespace faultline::cli {

// The exit statuses, as documented in --help and faultline-cli(1).
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;

// A command called the wrong way (unknown option, missing argument, malformed value): exit
// status 2 with the usage line, where a failure on good arguments is 1.
class UsageError : public Error {
public:
    using Error::Error;
};

struct OptionSpec {
    std::string name;         // "--seed"
    std::string shortName;    // "-o", or empty
    std::string value;        // what it takes ("N", "FILE"); empty for a flag
    std::string help;
};

struct CommandSpec {
    std::string name;         // "simulate"
    std::string synopsis;     // what follows "faultline-cli simulate " in the usage line
    std::string summary;      // one line, for the command list
    std::string description;  // for --help: one paragraph a line, each wrapped
    std::vector<OptionSpec> options;  // without --help, which every command has
};

// The option of every command that writes a file: replace an existing file of another kind.
inline const OptionSpec kForceOption{"--force", "", "",
                                     "replace an existing output file that is not of the kind written (never an input)"};

// "usage: faultline-cli simulate --preset NAME -o RUN.faultline [OPTIONS]"
std::string usageLine(const CommandSpec& spec);
// The usage line, the description, every option with what it does, and the exit statuses.
std::string helpText(const CommandSpec& spec);
inline constexpr const char* kExitStatusText =
    "exit status:\n  0  success\n  1  failure (an input that cannot be read, a run file that cannot be written)\n"
    "  2  usage error (unknown option, missing or malformed argument)\n";

}  // namespace faultline::cli
