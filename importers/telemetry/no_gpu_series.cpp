#include "importers/telemetry/no_gpu_series.h"

#include <algorithm>
#include <numeric>

namespace faultline {

namespace {

// The metrics a note names: enough to tell what kind of scrape it was.
constexpr std::size_t kNamedMetrics = 5;

std::string grouped(std::int64_t n) {
    const std::string digits = std::to_string(n);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

}  // namespace

void NoGpuSeries::add(std::string_view metric) {
    bool added = false;
    const std::int32_t id = m_metrics.intern(metric, &added);
    if (added) m_counts.push_back(0);
    ++m_counts[static_cast<std::size_t>(id)];
    ++m_series;
}

std::optional<std::string> NoGpuSeries::note() const {
    if (m_series == 0) return std::nullopt;
    // The metrics with the most series first; of equal counts, the first seen.
    std::vector<std::int32_t> order(m_counts.size());
    std::iota(order.begin(), order.end(), 0);
    const std::size_t named = std::min(kNamedMetrics, order.size());
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(named), order.end(), [&](std::int32_t a, std::int32_t b) {
        const auto ca = m_counts[static_cast<std::size_t>(a)], cb = m_counts[static_cast<std::size_t>(b)];
        return ca != cb ? ca > cb : a < b;
    });
    std::string text = grouped(m_series) + " series of " + grouped(static_cast<std::int64_t>(m_metrics.size())) + (m_metrics.size() == 1 ? " metric" : " metrics") +
                       (m_series == 1 ? " names" : " name") + " no GPU: skipped (";
    for (std::size_t k = 0; k < named; ++k) text += (k ? ", " : "") + std::string(m_metrics.at(order[k]));
    return text + (order.size() > named ? ", ...)" : ")");
}

}  // namespace faultline
