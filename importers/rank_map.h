#pragma once
// The --rank-map file: where each rank ran, for traces that do not say. One rank a line,
// "RANK HOST [LOCAL_GPU]", separated by spaces, tabs or commas; '#' starts a comment; a first
// line that does not start with a number is a header.
#include "importers/events/imported_events.h"

#include <string>
#include <vector>

namespace faultline {

std::vector<RankPlacement> readRankMap(const std::string& path);

}  // namespace faultline
