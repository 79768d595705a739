#include "cli/follow_settle.h"

#include <algorithm>

namespace faultline::cli {

FollowSettle::FollowSettle(std::int64_t settleNs, std::int64_t maxDelayNs)
    : m_settle(std::max<std::int64_t>(0, settleNs)), m_maxDelay(std::max(m_settle, maxDelayNs)) {}

void FollowSettle::changed(std::int64_t nowNs) {
    if (!m_firstChange) m_firstChange = nowNs;
    m_lastChange = nowNs;
}

void FollowSettle::looked() { m_firstChange.reset(); }

std::optional<std::int64_t> FollowSettle::dueIn(std::int64_t nowNs) const {
    if (!m_firstChange) return std::nullopt;
    const std::int64_t due = std::min(m_lastChange + m_settle, *m_firstChange + m_maxDelay);
    return std::max<std::int64_t>(0, due - nowNs);
}

}  // namespace faultline::cli
