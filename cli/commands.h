#pragma once
// The faultline-cli commands. Each takes the arguments after its name, prints to stdout,
// and returns the exit status; errors are thrown as faultline::Error (exit status 1) or
// cli::UsageError (2). Each command's spec lists what it accepts, for its parser and --help.
#include "cli/spec.h"

namespace faultline {
struct ImportOptions;
}
namespace faultline::cli {
class Args;
}

#include <string>
#include <vector>

namespace faultline::cli {

using CommandArgs = std::vector<std::string>;

int compareCommand(const CommandArgs& args);
int exportCommand(const CommandArgs& args);
int hangCommand(const CommandArgs& args);
int importCommand(const CommandArgs& args);
int incidentsCommand(const CommandArgs& args);
int jobsCommand(const CommandArgs& args);
int mergeCommand(const CommandArgs& args);
int powerCommand(const CommandArgs& args);
int simulateCommand(const CommandArgs& args);
int stragglersCommand(const CommandArgs& args);
int summaryCommand(const CommandArgs& args);
int telemetryCommand(const CommandArgs& args);
int viewpointsCommand(const CommandArgs& args);
int whatIfCommand(const CommandArgs& args);

const CommandSpec& compareSpec();
const CommandSpec& exportSpec();
const CommandSpec& hangSpec();
const CommandSpec& importSpec();
const CommandSpec& incidentsSpec();
const CommandSpec& jobsSpec();
const CommandSpec& mergeSpec();
const CommandSpec& powerSpec();
const CommandSpec& simulateSpec();
const CommandSpec& stragglersSpec();
const CommandSpec& summarySpec();
const CommandSpec& telemetrySpec();
const CommandSpec& viewpointsSpec();
const CommandSpec& whatIfSpec();

// The option both long commands take: nothing on the terminal but errors.
// Which Slurm jobs make up the run (import, and merge of a sharded import).
inline const OptionSpec kJobOption{"--job", "", "IDS",
                                   "the Slurm jobs that trained the run, comma-separated (each one's requeues and array tasks too); "
                                   "default: the jobs the training logs name and every job of the same name"};
inline const OptionSpec kJobNameOption{"--job-name", "", "NAME", "the run is every job of this name"};
inline const OptionSpec kAllowDisjointOption{"--allow-disjoint", "", "",
                                             "merge files whose time spans lie more than 2 days apart into one run "
                                             "(refused otherwise, with each file's span)"};
inline const OptionSpec kQuietOption{"--quiet", "-q", "", "print nothing but errors: no progress line, no report"};

// --job and --job-name into the import options.
void readRunChainOptions(const Args& args, ImportOptions& options);

// A command as faultline-cli dispatches it.
struct Command {
    const CommandSpec& (*spec)();
    int (*run)(const CommandArgs&);
};

// Every command, in the order `faultline-cli --help` lists them. The tests walk this list, so
// a new command is in the help, the manual page and the completion checks from the start.
const std::vector<Command>& commands();

}  // namespace faultline::cli
