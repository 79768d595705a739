#pragma once
// Distinct strings held once, each named by a small id (its order of first sight). A million
// series' names cost their bytes and about 16 more each, where a std::string in a hash map's
// node costs well over 100: telemetry keeps the names of what it imports in these.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace faultline {

class StringInterner {
public:
    // The id of `s`, added when it is new (`added` says whether it was).
    std::int32_t intern(std::string_view s, bool* added = nullptr);
    std::optional<std::int32_t> find(std::string_view s) const;
    std::string_view at(std::int32_t id) const;
    std::size_t size() const { return m_ends.size(); }
    // Bytes held: the text, its ends and the table.
    std::size_t bytes() const { return m_text.capacity() + m_ends.capacity() * sizeof(std::size_t) + m_slots.capacity() * sizeof(std::int32_t); }

private:
    // The slot holding `s`, or the empty one where it would go.
    std::size_t slotOf(std::string_view s, std::size_t hash) const;
    void grow();

    std::string m_text;               // every string, one after another
    std::vector<std::size_t> m_ends;  // where each ends in m_text
    std::vector<std::int32_t> m_slots;  // open addressing, a power of two; -1 empty
};

}  // namespace faultline
