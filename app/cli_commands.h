#pragma once
// The faultline-cli commands. Each takes the arguments after its name, prints to stdout,
// and returns the exit status; errors are thrown as faultline::Error.
#include <string>
#include <vector>

namespace faultline::cli {

using CommandArgs = std::vector<std::string>;

int hangCommand(const CommandArgs& args);
int importCommand(const CommandArgs& args);
int incidentsCommand(const CommandArgs& args);
int simulateCommand(const CommandArgs& args);
int stragglersCommand(const CommandArgs& args);
int summaryCommand(const CommandArgs& args);

}  // namespace faultline::cli
