#pragma once
// Evidence that came from no file: a pull from a Prometheus server (remote/). The run file keeps
// where it came from, never how to log in: the URL without credentials, the queries as sent,
// the span and step asked, and when it was pulled; one JSON array under the meta key "pulls",
// which readers that do not know it pass over, so the schema is unchanged.
#include "run.h"

#include <cstdint>
#include <string>
#include <vector>

namespace faultline {

struct PulledSource {
    std::string kind;  // "prometheus"
    std::string url;   // without user, password or token
    std::vector<std::string> queries;
    std::int64_t fromEpochNs = 0, toEpochNs = 0;
    std::int64_t stepNs = 0;
    std::int64_t pulledAtEpochNs = 0;
    bool operator==(const PulledSource&) const = default;
};

// The sources a run file says were pulled for it; none from a file without them (older files,
// imports of files only). Error naming the file when they cannot be read.
std::vector<PulledSource> readPulledSources(const std::string& path);

std::string pulledSourcesToJson(const std::vector<PulledSource>& pulls);
// Throws Error naming the meta key when the text is not such an array.
std::vector<PulledSource> pulledSourcesFromJson(const std::string& text);

}  // namespace faultline
