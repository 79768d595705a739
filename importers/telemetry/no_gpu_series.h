#pragma once
// Series that name no GPU (a node exporter's node_cpu_seconds_total, an exporter's own go_*
// and process_*): skipped, never made into GPUs or hosts, and counted per metric so that the
// import report says in one line what was passed over.
#include "importers/events/string_interner.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace faultline {

class NoGpuSeries {
public:
    // One more series of `metric` names no GPU.
    void add(std::string_view metric);
    std::int64_t series() const { return m_series; }
    std::size_t metrics() const { return m_metrics.size(); }
    // "N series of M metrics name no GPU: skipped (the metrics with the most series, ...)";
    // nullopt when there were none.
    std::optional<std::string> note() const;

private:
    StringInterner m_metrics;
    std::vector<std::int64_t> m_counts;  // series per metric id
    std::int64_t m_series = 0;
};

}  // namespace faultline
