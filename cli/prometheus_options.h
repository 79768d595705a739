#pragma once
// `faultline-cli import --prometheus URL ...`: the pull's options as the command line gives
// them, turned into typed values where they enter (remote/prometheus_pull.h). Credentials come
// from --token-file / --basic-auth-file or the environment, never from an option's value.
#include "cli/spec.h"
#include "remote/prometheus_pull.h"

#include <optional>
#include <vector>

namespace faultline::cli {

class Args;

// The options of import that belong to a pull.
const std::vector<OptionSpec>& prometheusOptions();

// nullopt without --prometheus; UsageError for a pull option without it, or a bad value.
// `following` (import --follow): --from alone starts the first pull, --to is refused (a
// followed pull goes up to now).
std::optional<PrometheusPullOptions> readPrometheusOptions(const Args& args, bool following = false);

}  // namespace faultline::cli
