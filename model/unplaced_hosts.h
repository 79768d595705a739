#pragma once
// The hosts an import makes for ranks no file places: named so no machine can be ("unplaced
// ranks 0-7": host names have no spaces), gathered in a zone of their own and drawn apart, so
// they are never read as hardware the evidence names. The run file keeps them by that name.
// Topology::gpuName names an unplaced host's GPU by its rank: "rank 12 (host unknown)".
#include "model/topology.h"

#include <string>
#include <string_view>

namespace faultline {

inline constexpr std::string_view kUnplacedHostPrefix = "unplaced ranks ";
inline constexpr std::string_view kUnplacedZoneName = "unplaced ranks (host unknown)";
std::string unplacedHostName(std::int32_t firstRank, std::int32_t lastRank);
bool isUnplacedHost(const Host& host);

}  // namespace faultline
