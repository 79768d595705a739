#pragma once
// The instants a pull is given as, on the command line and in the dialog: an ISO time
// ("2025-01-21T04:00:00Z"), seconds since 1970 ("1737432000"), "now", or "now-2d" (Grafana's
// spelling, durations as model/format.h reads them).
#include "importers/events/epoch.h"

#include <optional>
#include <string_view>

namespace faultline {

std::optional<EpochNs> parsePullTime(std::string_view text, EpochNs now);

}  // namespace faultline
