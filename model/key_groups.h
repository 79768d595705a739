#pragma once
// Items grouped by an integer key in one pass: the distinct keys in ascending order and, for
// each, the indices of its items in the order given. One hash lookup per item (none while the
// key repeats, as it does in time-ordered rows), not a tree node per item: millions of rank
// steps are grouped by step and by rank in tens of milliseconds.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <unordered_map>
#include <vector>

namespace faultline {

struct KeyGroups {
    std::vector<std::int64_t> keys;       // ascending
    std::vector<std::uint32_t> groupOf;   // of each item: an index into keys
    std::vector<std::size_t> offsets;     // group g holds items[offsets[g], offsets[g + 1])
    std::vector<std::uint32_t> items;     // indices, group after group

    std::size_t size() const { return keys.size(); }
    std::size_t count(std::size_t g) const { return offsets[g + 1] - offsets[g]; }
    std::span<const std::uint32_t> group(std::size_t g) const { return {items.data() + offsets[g], count(g)}; }
};

// keyOf(i) for i in [0, count) gives item i's key; count is below 2^32.
template <class KeyOf>
KeyGroups groupByKey(std::size_t count, KeyOf keyOf) {
    if (count > std::numeric_limits<std::uint32_t>::max()) throw std::length_error("groupByKey: more than 2^32 items");
    KeyGroups out;
    std::unordered_map<std::int64_t, std::uint32_t> idOfKey;
    std::vector<std::uint32_t>& idOfItem = out.groupOf;
    idOfItem.resize(count);
    std::int64_t lastKey = 0;
    std::uint32_t lastId = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const std::int64_t key = keyOf(i);
        if (i == 0 || key != lastKey) {
            lastKey = key;
            lastId = idOfKey.try_emplace(key, static_cast<std::uint32_t>(out.keys.size())).first->second;
            if (lastId == out.keys.size()) out.keys.push_back(key);
        }
        idOfItem[i] = lastId;
    }
    // Ids in order of first sight, renumbered in key order.
    std::vector<std::uint32_t> byKey(out.keys.size());
    for (std::uint32_t id = 0; id < byKey.size(); ++id) byKey[id] = id;
    std::sort(byKey.begin(), byKey.end(), [&](std::uint32_t a, std::uint32_t b) { return out.keys[a] < out.keys[b]; });
    std::vector<std::uint32_t> groupOfId(byKey.size());
    for (std::uint32_t g = 0; g < byKey.size(); ++g) groupOfId[byKey[g]] = g;
    std::sort(out.keys.begin(), out.keys.end());
    for (std::uint32_t& id : out.groupOf) id = groupOfId[id];

    out.offsets.assign(out.keys.size() + 1, 0);
    for (const std::uint32_t g : out.groupOf) ++out.offsets[g + 1];
    for (std::size_t g = 0; g < out.keys.size(); ++g) out.offsets[g + 1] += out.offsets[g];
    std::vector<std::size_t> next(out.offsets.begin(), out.offsets.end() - 1);
    out.items.resize(count);
    for (std::size_t i = 0; i < count; ++i) out.items[next[out.groupOf[i]]++] = static_cast<std::uint32_t>(i);
    return out;
}

}  // namespace faultline
