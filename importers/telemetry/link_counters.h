#pragma once
// Cable failures in port counters, as Prometheus keeps them: node_exporter's infiniband
// collector on each host (node_infiniband_link_downed_total{device="mlx5_5",port="1"}) and
// infiniband-exporter's view of the whole fabric (infiniband_linkdownedcounter_total{
// local_name="...",remote_name="..."}, one series per end of each cable). LinkDownedCounter
// counts the times a port gave up recovering its link and took it down: each rise is a cable
// that failed, dated by the first sample that reads the higher count. Only a counter's change
// points are kept, so memory grows with the failures, not with the scrapes.
#include "importers/events/imported_link_counters.h"
#include "importers/telemetry/telemetry_labels.h"

#include "model/run.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace faultline {

struct ImportedEvents;

// The cable a link-down counter's series is about; nullopt for any other series, or one
// whose labels name no end (node_exporter's host is its `instance`, port dropped, as for GPUs).
std::optional<LinkLocator> linkDownCounter(std::string_view metric, const Labels& labels);


// The cable `link` names in `topology` (both its ends, or the one cable of a NIC); the NIC
// alone when the topology has no cable from it (a topology made up from the logs); nullopt
// when the topology lacks the near end.
std::optional<ComponentRef> cableOf(const Topology& topology, const LinkLocator& link);

// Adds a failure for each cable the counters saw go down (ImportedFailure::link names it). A
// counter is only read at each scrape: a kernel's "Link down" on the same host between the
// scrape before the rise and the rise's (give or take kSameEventWindow) is the same event, so
// that record gains the cable and keeps its own, exact time.
void addLinkDownFailures(ImportedEvents& events);

}  // namespace faultline
