#pragma once
// Rows put in time order, rows of equal time kept in the order given (as std::stable_sort).
// Millions of rows (a run's rank steps: every rank's steps, file after file) are sorted by
// their times' digits, 16 bits a pass over the span of times they hold: three or four passes
// that read and write each row, where a comparison sort mispredicts a branch at nearly every
// comparison. Sorted rows cost one look.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace faultline {

template <class T, class TimeOf>
void stableSortByTime(std::vector<T>& rows, TimeOf timeOf) {
    auto earlier = [&](const T& a, const T& b) { return timeOf(a) < timeOf(b); };
    if (std::is_sorted(rows.begin(), rows.end(), earlier)) return;
    constexpr std::size_t kFewRows = 1 << 16;  // below this a comparison sort is as fast
    if (rows.size() < kFewRows) {
        std::stable_sort(rows.begin(), rows.end(), earlier);
        return;
    }
    std::int64_t first = timeOf(rows.front()), last = first;
    for (const T& row : rows) {
        first = std::min<std::int64_t>(first, timeOf(row));
        last = std::max<std::int64_t>(last, timeOf(row));
    }
    const std::uint64_t span = static_cast<std::uint64_t>(last) - static_cast<std::uint64_t>(first);
    constexpr int kBits = 16;
    constexpr std::size_t kDigits = std::size_t{1} << kBits;
    auto digitOf = [&](const T& row, int shift) {
        return static_cast<std::size_t>(((static_cast<std::uint64_t>(timeOf(row)) - static_cast<std::uint64_t>(first)) >> shift) & (kDigits - 1));
    };
    std::vector<T> sorted(rows.size());
    std::vector<std::size_t> next(kDigits);
    for (int shift = 0; shift < 64 && (span >> shift) != 0; shift += kBits) {
        std::fill(next.begin(), next.end(), 0);
        for (const T& row : rows) ++next[digitOf(row, shift)];
        std::size_t at = 0;
        for (std::size_t& n : next) at += std::exchange(n, at);
        for (T& row : rows) sorted[next[digitOf(row, shift)]++] = std::move(row);
        rows.swap(sorted);
    }
}

}  // namespace faultline
