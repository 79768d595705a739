// Rows grouped by a key and sorted by time (model/key_groups.h, model/time_sort.h): what a
// run's millions of rank steps go through at every import and every look of a followed job.
#include "model/key_groups.h"
#include "model/time_sort.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace faultline {
namespace {

struct Row {
    std::int32_t rank = 0;
    std::int64_t time = 0;
    bool operator==(const Row&) const = default;
};

// Every rank's rows in time order, rank after rank, as a folder of one log per rank gives them;
// a few share a time with another rank's.
std::vector<Row> rankAfterRank(int ranks, int rowsPerRank, std::int64_t first, std::int64_t step, std::uint64_t seed) {
    std::mt19937_64 random(seed);
    std::vector<Row> rows;
    for (int r = 0; r < ranks; ++r) {
        std::int64_t t = first;
        for (int i = 0; i < rowsPerRank; ++i) {
            t += step + static_cast<std::int64_t>(random() % 3 == 0 ? 0 : random() % static_cast<std::uint64_t>(step));
            rows.push_back({r, t});
        }
    }
    return rows;
}

void expectSortedAsStableSort(std::vector<Row> rows) {
    std::vector<Row> expected = rows;
    std::stable_sort(expected.begin(), expected.end(), [](const Row& a, const Row& b) { return a.time < b.time; });
    stableSortByTime(rows, [](const Row& r) { return r.time; });
    ASSERT_EQ(rows.size(), expected.size());
    EXPECT_TRUE(rows == expected);
}

TEST(RowOrder, RowsSortByTimeAsAStableSortSortsThemWhateverTheirSpan) {
    // A second of steps in nanoseconds, 54 days, and times before the epoch: a digit pass
    // for every 16 bits of the span, and none past it.
    expectSortedAsStableSort(rankAfterRank(256, 400, 1'700'000'000'000'000'000, 1'000'000, 1));
    expectSortedAsStableSort(rankAfterRank(128, 800, 0, 54LL * 86'400'000'000'000 / 800, 2));
    expectSortedAsStableSort(rankAfterRank(100, 1000, -5'000'000'000, 7, 3));
    // Few rows, rows all at one time, sorted rows, and rows in reverse.
    expectSortedAsStableSort(rankAfterRank(3, 10, 0, 100, 4));
    expectSortedAsStableSort(std::vector<Row>(100'000, Row{5, 42}));
    std::vector<Row> sorted = rankAfterRank(1, 100'000, 0, 10, 5);
    expectSortedAsStableSort(sorted);
    std::reverse(sorted.begin(), sorted.end());
    expectSortedAsStableSort(sorted);
    expectSortedAsStableSort({});
}

TEST(RowOrder, RowsGroupByKeyInKeyOrderEachGroupInTheOrderGiven) {
    const std::vector<Row> rows = rankAfterRank(50, 30, 0, 10, 6);
    std::vector<Row> shuffled = rows;
    std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937_64(7));
    for (Row& r : shuffled) r.rank = r.rank * 1'000'003 - 25'000'000;  // sparse, and below zero
    const KeyGroups groups = groupByKey(shuffled.size(), [&](std::size_t i) { return shuffled[i].rank; });
    ASSERT_EQ(groups.size(), 50u);
    EXPECT_TRUE(std::is_sorted(groups.keys.begin(), groups.keys.end()));
    ASSERT_EQ(groups.items.size(), shuffled.size());
    ASSERT_EQ(groups.groupOf.size(), shuffled.size());
    std::size_t seen = 0;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        const auto group = groups.group(g);
        EXPECT_TRUE(std::is_sorted(group.begin(), group.end()));  // the order given
        for (const std::uint32_t i : group) {
            EXPECT_EQ(shuffled[i].rank, groups.keys[g]);
            EXPECT_EQ(groups.groupOf[i], g);
            ++seen;
        }
        EXPECT_EQ(groups.count(g), 30u);
    }
    EXPECT_EQ(seen, shuffled.size());
    EXPECT_EQ(groupByKey(0, [](std::size_t) { return std::int64_t{0}; }).size(), 0u);
}

}  // namespace
}  // namespace faultline
