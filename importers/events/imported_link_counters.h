#pragma once
// InfiniBand link-down counters as the telemetry readers collect them: each series' change
// points, so memory grows with the failures, not with the scrapes (telemetry/link_counters.h
// reads them and turns each rise into a cable failure).
#include "importers/events/epoch.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace faultline {

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

}  // namespace faultline
