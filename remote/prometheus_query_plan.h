#pragma once
// What to ask a Prometheus server for, before anything is asked: the step, the span cut into
// slices no longer than the server's points limit, the hosts cut into batches, and each
// query's PromQL. Pure functions: the client sends what they say.
#include "importers/events/epoch.h"
#include "model/time.h"

#include <cstdint>
#include <string>
#include <vector>

namespace faultline {

// Prometheus refuses a range query that would give a series more than 11,000 points
// ("exceeded maximum resolution of 11,000 points per timeseries").
inline constexpr std::int64_t kMaxPointsPerSeries = 11'000;

// The step for a span when none is given: dcgm-exporter's usual 15 s while the span takes at
// most four queries a series (44,000 points, 7.6 days), else the finest of 30 s, 1 min, 2 min,
// 5 min, 10 min, 15 min, 30 min, 1 h, ... that does, so a 54-day run is pulled at 2 min.
Nanos chooseStep(EpochNs from, EpochNs to);
inline constexpr Nanos kFinestPullStep = 15 * kSecond;  // what chooseStep gives a span of days

struct TimeSlice {
    EpochNs from = 0, to = 0;  // both included; a sample at `to` is not asked again by the next slice
};
// [from, to] cut into slices of at most `maxPoints` points at `step`, each starting one step
// after the last one ended, so that no instant is asked twice.
std::vector<TimeSlice> splitSpan(EpochNs from, EpochNs to, Nanos step, std::int64_t maxPoints = kMaxPointsPerSeries);

// The hosts in batches of at most `perBatch` (all of them in one when perBatch is 0); one
// empty batch (every host) when no host is named.
std::vector<std::vector<std::string>> hostBatches(const std::vector<std::string>& hosts, std::size_t perBatch);

// `metric{label=~"h1|h2"}`: the series of those hosts; the regex escapes the names, and a
// scrape target's port is allowed after an `instance` ("10.0.0.5:9400"). The metric alone
// for no hosts. The metric must be a Prometheus metric name (Error otherwise).
std::string rangeQuery(const std::string& metric, const std::string& hostLabel, const std::vector<std::string>& hosts);
// The regular expression (RE2, as the server matches it) of rangeQuery's host selector.
std::string hostRegex(const std::string& hostLabel, const std::vector<std::string>& hosts);

// "1700000000.123": seconds since 1970 as the API takes them, to the millisecond.
std::string apiSeconds(EpochNs t);
// "15s", "2m", "1.5s": a step as the API takes it.
std::string apiDuration(Nanos step);

}  // namespace faultline
