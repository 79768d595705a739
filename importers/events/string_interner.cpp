#include "importers/events/string_interner.h"

#include <functional>

namespace faultline {

std::string_view StringInterner::at(std::int32_t id) const {
    const auto i = static_cast<std::size_t>(id);
    const std::size_t begin = i == 0 ? 0 : m_ends[i - 1];
    return std::string_view(m_text).substr(begin, m_ends[i] - begin);
}

std::size_t StringInterner::slotOf(std::string_view s, std::size_t hash) const {
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t slot = hash & mask;; slot = (slot + 1) & mask)
        if (m_slots[slot] < 0 || at(m_slots[slot]) == s) return slot;
}

void StringInterner::grow() {
    std::vector<std::int32_t> slots(m_slots.empty() ? 64 : m_slots.size() * 2, -1);
    m_slots.swap(slots);
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t id = 0; id < m_ends.size(); ++id) {
        std::size_t slot = std::hash<std::string_view>{}(at(static_cast<std::int32_t>(id))) & mask;
        while (m_slots[slot] >= 0) slot = (slot + 1) & mask;
        m_slots[slot] = static_cast<std::int32_t>(id);
    }
}

std::optional<std::int32_t> StringInterner::find(std::string_view s) const {
    if (m_slots.empty()) return std::nullopt;
    const std::int32_t id = m_slots[slotOf(s, std::hash<std::string_view>{}(s))];
    if (id < 0) return std::nullopt;
    return id;
}

std::int32_t StringInterner::intern(std::string_view s, bool* added) {
    // At most half full: a probe stays short.
    if ((m_ends.size() + 1) * 2 > m_slots.size()) grow();
    const std::size_t slot = slotOf(s, std::hash<std::string_view>{}(s));
    if (added) *added = m_slots[slot] < 0;
    if (m_slots[slot] >= 0) return m_slots[slot];
    m_text.append(s);
    m_ends.push_back(m_text.size());
    return m_slots[slot] = static_cast<std::int32_t>(m_ends.size() - 1);
}

}  // namespace faultline
