#pragma once
// A run's scheduler jobs as `faultline-cli jobs` prints them: the run's own chain first (the
// jobs that trained it, with the downtime each one's end began), then, with `all`, every other
// job and step the files named.
#include "model/run.h"

#include <nlohmann/json_fwd.hpp>

#include <string>

namespace faultline {

std::string jobsToText(const Run& run, bool all);
nlohmann::json jobsToJson(const Run& run, bool all);

}  // namespace faultline
