#pragma once
// A run's scheduler jobs as `faultline-cli jobs` prints them: the run's own chain first (the
// jobs that trained it, with the downtime each one's end began), then, with `all`, every other
// job and step the files named.
#include "model/run.h"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>
#include <vector>

namespace faultline {

// One listed job, as both the command and the app's Jobs panel show it.
struct JobRow {
    std::int32_t job = 0;        // index into Run::jobs
    std::string id;              // with its restart count: "1234 (r1)"; a step indented
    std::string name, state, exitCode, start, end;  // times as wall-clock text, "-" when unknown
    std::size_t nodes = 0;
    std::int32_t gpus = 0;
    std::string then;            // what followed its end: a downtime's cause, "planned stop", or ""
    std::optional<Nanos> startTime;  // run time of its start
    bool inRun = false;
};

// The jobs listed: the run's own, or with `all` every job and step, in the run's order.
std::vector<JobRow> jobRows(const Run& run, bool all);

std::string jobsToText(const Run& run, bool all);
nlohmann::json jobsToJson(const Run& run, bool all);

}  // namespace faultline
