#pragma once
// The InfiniBand port counters a cluster's Prometheus kept of the cables that failed under a
// simulated run: node_exporter's infiniband collector on each host whose NIC lost its link
// (`node_infiniband_link_downed_total{device="mlx5_N",port="1",instance="HOST:9100"}`, one
// series per NIC), scraped every minute from ten minutes before each such failure to ten
// after. LinkDownedCounter rises by one at the scrape after the link went down.
#include "model/run.h"

#include <cstdint>
#include <map>
#include <string>

namespace faultline {

// Prometheus text exposition (timestamps in ms), by host index; hosts without a failed
// cable have none.
std::map<std::int32_t, std::string> linkDownCounterScrapes(const Run& run);

}  // namespace faultline
