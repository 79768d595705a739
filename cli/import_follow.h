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
    // --prometheus: each look pulls the metrics up to now too (remote/prometheus_follow.h).
    std::optional<PrometheusPullOptions> pull;
};

// Returns the exit code; Error from the last look (the run file then stays as the look before wrote it).
int followImport(const FollowSettings& settings, const ImportOptions& options);

}  // namespace faultline::cli
