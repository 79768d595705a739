#include "model/format.h"

#include <gtest/gtest.h>

namespace faultline {
namespace {

TEST(Format, Durations) {
    EXPECT_EQ(formatDuration(850 * kMillisecond), "850 ms");
    EXPECT_EQ(formatDuration(6'200 * kMillisecond), "6.2 s");
    EXPECT_EQ(formatDuration(4 * kMinute + 10 * kSecond), "4 min 10 s");
    EXPECT_EQ(formatDuration(2 * kHour + 5 * kMinute), "2 h 05 min");
    EXPECT_EQ(formatDuration(54 * kDay + 3 * kHour), "54 d 3 h");
    EXPECT_EQ(formatDuration(-90 * kSecond), "-1 min 30 s");
    EXPECT_EQ(formatDuration(0), "0 s");
    EXPECT_EQ(formatDuration(54 * kDay), "54 d");
    EXPECT_EQ(formatDuration(5 * kHour), "5 h");
    EXPECT_EQ(formatDuration(7 * kMinute), "7 min");
    EXPECT_EQ(formatCounted(1, "rack", "racks"), "1 rack");
    EXPECT_EQ(formatCounted(16384, "GPU", "GPUs"), "16,384 GPUs");
    EXPECT_EQ(formatCounted(0, "rack", "racks"), "0 racks");
}

TEST(Format, PercentBytesCounts) {
    EXPECT_EQ(formatPercent(0.9237), "92.4%");
    EXPECT_EQ(formatPercent(0.5, 0), "50%");
    EXPECT_EQ(formatBytes(5'670'000'000'000), "5.7 TB");
    EXPECT_EQ(formatBytes(812), "812 B");
    EXPECT_EQ(formatCount(16'384), "16,384");
    EXPECT_EQ(formatCount(999), "999");
    EXPECT_EQ(formatCount(-1'234'567), "-1,234,567");
}

TEST(Format, WallTime) {
    EXPECT_EQ(formatWallTime(1'709'510'400LL * kSecond, 15 * kHour + 2 * kMinute + 11 * kSecond), "2024-03-04 15:02:11 UTC");
}

TEST(Format, ParseDuration) {
    EXPECT_EQ(parseDuration("90"), 90 * kSecond);
    EXPECT_EQ(parseDuration("90s"), 90 * kSecond);
    EXPECT_EQ(parseDuration("10m"), 10 * kMinute);
    EXPECT_EQ(parseDuration("1.5h"), 90 * kMinute);
    EXPECT_EQ(parseDuration("2d"), 2 * kDay);
    EXPECT_EQ(parseDuration("250ms"), 250 * kMillisecond);
    EXPECT_FALSE(parseDuration("ten minutes"));
    EXPECT_FALSE(parseDuration("10 parsecs"));
    EXPECT_FALSE(parseDuration("-5m"));
}

TEST(Format, ParseCompoundDuration) {
    EXPECT_EQ(parseDuration("1d6h"), kDay + 6 * kHour);
    EXPECT_EQ(parseDuration("1h30m"), 90 * kMinute);
    EXPECT_EQ(parseDuration("1h 30m"), 90 * kMinute);
    EXPECT_EQ(parseDuration("2m30s"), 150 * kSecond);
    EXPECT_EQ(parseDuration("1s250ms"), 1250 * kMillisecond);
    EXPECT_EQ(parseDuration("1d2h3min4s"), kDay + 2 * kHour + 3 * kMinute + 4 * kSecond);
    EXPECT_FALSE(parseDuration("30m1h")) << "parts go from the largest unit down";
    EXPECT_FALSE(parseDuration("1h1h"));
    EXPECT_FALSE(parseDuration("1h30")) << "a bare number is seconds only on its own";
    EXPECT_FALSE(parseDuration("1h-30m"));
    EXPECT_FALSE(parseDuration("inf"));
    EXPECT_FALSE(parseDuration("nanh"));
    EXPECT_FALSE(parseDuration(""));
    EXPECT_FALSE(parseDuration("1d6x"));
}

}  // namespace
}  // namespace faultline
