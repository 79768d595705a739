#pragma once
// The faultline-cli commands. Each takes the arguments after its name, prints to stdout,
// and returns the exit status; errors are thrown as faultline::Error.
#include <string>
#include <vector>

namespace faultline::cli {

using CommandArgs = std::vector<std::string>;

int simulateCommand(const CommandArgs& args);
int summaryCommand(const CommandArgs& args);

}  // namespace faultline::cli
