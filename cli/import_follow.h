#pragma once
// `faultline-cli import --follow DIR -o RUN`: keeps the run file current while a job writes its
// folder, until SIGINT or SIGTERM ends following with a last look (importers/folder_follower.h).
#include "importers/events/import_context.h"
#include "remote/prometheus_pull.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace faultline::cli {

struct FollowSettings {
    std::vector<std::string> inputs;
    std::string output;
    std::int64_t pollNs = 2'000'000'000;  // looks at least this often where no change is told (NFS)
    bool quiet = false;
    // After a change, a look waits for the folder to be quiet this long, or at most maxDelayNs
    // while it keeps changing (cli/follow_settle.h): the app's settle (app/job_follower.cpp).
    std::int64_t settleNs = 250'000'000;
    std::int64_t maxDelayNs = 2'000'000'000;
    // --prometheus: each look pulls the metrics up to now too (remote/prometheus_follow.h).
    std::optional<PrometheusPullOptions> pull;
};

// Returns the exit code; Error from the last look (the run file then stays as the look before wrote it).
int followImport(const FollowSettings& settings, const ImportOptions& options);

}  // namespace faultline::cli
