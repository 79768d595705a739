#pragma once
// The faultline-cli commands. Each takes the arguments after its name, prints to stdout,
// and returns the exit status; errors are thrown as faultline::Error (exit status 1) or
// cli::UsageError (2). Each command's spec lists what it accepts, for its parser and --help.
#include "cli_spec.h"

#include <string>
#include <vector>

namespace faultline::cli {

using CommandArgs = std::vector<std::string>;

int exportCommand(const CommandArgs& args);
int hangCommand(const CommandArgs& args);
int importCommand(const CommandArgs& args);
int incidentsCommand(const CommandArgs& args);
int mergeCommand(const CommandArgs& args);
int simulateCommand(const CommandArgs& args);
int stragglersCommand(const CommandArgs& args);
int summaryCommand(const CommandArgs& args);

const CommandSpec& exportSpec();
const CommandSpec& hangSpec();
const CommandSpec& importSpec();
const CommandSpec& incidentsSpec();
const CommandSpec& mergeSpec();
const CommandSpec& simulateSpec();
const CommandSpec& stragglersSpec();
const CommandSpec& summarySpec();

// The option both long commands take: nothing on the terminal but errors.
inline const OptionSpec kQuietOption{"--quiet", "-q", "", "print nothing but errors: no progress line, no report"};

}  // namespace faultline::cli
