#pragma once
// faultline-cli run as a user runs it from a shell, for the suites that define FAULTLINE_CLI
// (the binary's path): its exit status and what it printed.
#include "test_runs.h"

#include <string>

namespace faultline::test {

// What it printed on stdout and stderr together (stdout alone when `withStderr` is false).
inline CommandResult runCli(const std::string& args, bool withStderr = true) {
    return runCommand(std::string(FAULTLINE_CLI) + " " + args, withStderr);
}

// Stdout alone: for output read as data (JSON, CSV, the incident chain).
inline CommandResult runCliStdout(const std::string& args) { return runCli(args, false); }

}  // namespace faultline::test
