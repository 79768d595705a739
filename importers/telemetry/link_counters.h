#pragma once
// Cable failures in port counters, as Prometheus keeps them: node_exporter's infiniband
// collector on each host (node_infiniband_link_downed_total{device="mlx5_5",port="1"}) and
// infiniband-exporter's view of the whole fabric (infiniband_linkdownedcounter_total{
// local_name="...",remote_name="..."}, one series per end of each cable). LinkDownedCounter
// counts the times a port gave up recovering its link and took it down: each rise is a cable
// that failed, dated by the first sample that reads the higher count. Only a counter's change
// points are kept, so memory grows with the failures, not with the scrapes.
#include "telemetry_labels.h"

#include "model/run.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace faultline {

struct ImportedEvents;

// The importers keep one id per series read: a GPU metric's (>= 0), a link counter's at or
// below this (kLinkSeries - its id in ImportedLinkCounters); -1 and -2 are theirs to use.
inline constexpr std::int32_t kLinkSeries = -3;

// One end of a cable as a counter names it: a host's NIC, or a switch.
struct LinkEndName {
    std::string host;
    std::int32_t nic = -1;
    std::string switchName;

    bool empty() const { return host.empty() && switchName.empty(); }
    std::string text() const;  // "a08-p1-dgx-04-c01 mlx5_5", or the switch's name
};

// A cable: the end whose counter it is, and the other end where the exporter knows it.
struct LinkLocator {
    LinkEndName near;
    LinkEndName far;
};

// The cable a link-down counter's series is about; nullopt for any other series, or one
// whose labels name no end (node_exporter's host is its `instance`, port dropped, as for GPUs).
std::optional<LinkLocator> linkDownCounter(std::string_view metric, const Labels& labels);

class ImportedLinkCounters {
public:
    // The series of `metric` on `link` read from `path`, made on first use.
    std::int32_t series(const LinkLocator& link, std::string_view metric, const std::string& path);
    // A sample read at `line` of the file (0: the file says no line).
    void add(std::int32_t series, EpochNs time, double value, std::int64_t line);
    // Another file's counters (files are read apart and merged in input order).
    void append(ImportedLinkCounters&& other);
    std::int64_t samples() const { return m_samples; }
    bool empty() const { return m_series.empty(); }
    EpochNs earliest() const { return m_earliest; }  // of every sample read; 0 when none
    EpochNs latest() const { return m_latest; }

    struct LinkDown {
        EpochNs time = 0;   // the first sample that read the higher count
        EpochNs since = 0;  // the last that read the lower one: the link went down in between
        LinkLocator link;
        std::string metric;
        double before = 0, after = 0;
        std::string source;  // "file:line" of the sample that read the higher count
    };
    // Every rise of every counter, in time order. A fall is a reset (the host rebooted, or
    // the counters were cleared): the next rise counts from the new value.
    std::vector<LinkDown> linkDowns() const;

private:
    struct ChangePoint {
        EpochNs time = 0;
        EpochNs previousSample = 0;  // the series' sample before this one (its own time when none)
        double value = 0;
        std::int64_t line = 0;
    };
    struct Series {
        LinkLocator link;
        std::string metric;
        std::int32_t file = 0;            // index into m_files
        std::vector<ChangePoint> points;  // the first sample, then each that changed the value
        EpochNs lastSample = 0;
    };
    std::int32_t fileIndex(const std::string& path);

    std::vector<Series> m_series;
    std::unordered_map<std::string, std::int32_t> m_index;
    std::vector<std::string> m_files;
    std::int64_t m_samples = 0;
    EpochNs m_earliest = 0, m_latest = 0;
};

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
