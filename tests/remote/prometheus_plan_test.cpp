// What the client asks before it asks: the step, the slices under the points limit, the host
// batches and their PromQL, and the times the command line and dialog take.
#include "model/error.h"
#include "remote/prometheus_query_plan.h"
#include "remote/prometheus_remote_read.h"
#include "remote/pull_time.h"

#include <gtest/gtest.h>

#include <set>

namespace faultline {
namespace {

constexpr EpochNs kT0 = 1'737'417'600'000'000'000;  // 2025-01-21T00:00:00Z

TEST(PrometheusPlan, StepIsFifteenSecondsForDaysAndCoarserForAWholeRun) {
    EXPECT_EQ(chooseStep(kT0, kT0 + 2 * kDay), 15 * kSecond);
    EXPECT_EQ(chooseStep(kT0, kT0 + 7 * kDay), 15 * kSecond);
    EXPECT_EQ(chooseStep(kT0, kT0 + 54 * kDay), 2 * kMinute);
    EXPECT_EQ(chooseStep(kT0, kT0 + kHour), 15 * kSecond);
}

TEST(PrometheusPlan, SlicesNeverPassTheServersPointsLimitNorAskAnInstantTwice) {
    const Nanos step = 15 * kSecond;
    const auto slices = splitSpan(kT0, kT0 + 2 * kDay, step);
    // 11,521 points: two queries, the first of exactly 11,000.
    ASSERT_EQ(slices.size(), 2u);
    EXPECT_EQ((slices[0].to - slices[0].from) / step + 1, kMaxPointsPerSeries);
    EXPECT_EQ(slices[1].from, slices[0].to + step);
    EXPECT_EQ(slices[1].to, kT0 + 2 * kDay);
    std::int64_t points = 0;
    for (const TimeSlice& s : slices) points += (s.to - s.from) / step + 1;
    EXPECT_EQ(points, 2 * kDay / step + 1);
    EXPECT_EQ(splitSpan(kT0, kT0 + kHour, step).size(), 1u);
}

TEST(PrometheusPlan, HostsGoInBatchesAndNoHostsMeansOneQueryOfAll) {
    const std::vector<std::string> hosts = {"a", "b", "c", "d", "e"};
    const auto batches = hostBatches(hosts, 2);
    ASSERT_EQ(batches.size(), 3u);
    EXPECT_EQ(batches[2], std::vector<std::string>{"e"});
    ASSERT_EQ(hostBatches({}, 2).size(), 1u);
    EXPECT_TRUE(hostBatches({}, 2)[0].empty());
}

TEST(PrometheusPlan, QueriesSelectHostsByRegexWithNamesEscaped) {
    EXPECT_EQ(rangeQuery("DCGM_FI_DEV_POWER_USAGE", "Hostname", {}), "DCGM_FI_DEV_POWER_USAGE");
    EXPECT_EQ(rangeQuery("DCGM_FI_DEV_POWER_USAGE", "Hostname", {"node01", "node02"}), "DCGM_FI_DEV_POWER_USAGE{Hostname=~\"(node01|node02)\"}");
    // A dot is any character to a regex: node1.x must not match node1ax.
    EXPECT_EQ(rangeQuery("up", "instance", {"node1.x"}), "up{instance=~\"(node1\\\\.x)(:[0-9]+)?\"}");
    EXPECT_THROW(rangeQuery("power usage", "Hostname", {}), Error);
    EXPECT_THROW(rangeQuery("up", "bad label", {"a"}), Error);
}

TEST(PrometheusPlan, TimesAsTheApiTakesThem) {
    EXPECT_EQ(apiSeconds(kT0 + 123'456'789), "1737417600.123");
    EXPECT_EQ(apiDuration(15 * kSecond), "15s");
    EXPECT_EQ(apiDuration(1500 * kMillisecond), "1.500s");
}

TEST(PullTime, IsoUnixSecondsNowAndNowMinus) {
    const EpochNs now = kT0 + kDay;
    EXPECT_EQ(parsePullTime("2025-01-21T00:00:00Z", now), kT0);
    EXPECT_EQ(parsePullTime("1737417600", now), kT0);
    EXPECT_EQ(parsePullTime("now", now), now);
    EXPECT_EQ(parsePullTime("now-2h", now), now - 2 * kHour);
    EXPECT_FALSE(parsePullTime("yesterday", now));
    EXPECT_FALSE(parsePullTime("now-", now));
    EXPECT_FALSE(parsePullTime("2025-01-21T00:00:00Zjunk", now));
}

}  // namespace
}  // namespace faultline

namespace faultline {
namespace {

TEST(RemoteRead, SnappyBlocksComeBackAsTheyWereAndBrokenOnesAreNamed) {
    std::string bytes;
    for (int i = 0; i < 200'000; ++i) bytes += static_cast<char>(i * 7 % 251);
    EXPECT_EQ(snappyUncompress(snappyStore(bytes), "test"), bytes);
    EXPECT_EQ(snappyUncompress(snappyStore(""), "test"), "");
    // A copy (tag 01: 4 bytes from 2 back) after a literal "ab": "ababab".
    const std::string copied = std::string("\x06\x04" "ab", 4) + std::string("\x01\x02", 2);
    EXPECT_EQ(snappyUncompress(copied, "test"), "ababab");
    const std::string broken = snappyStore("hello").substr(0, 4);
    try {
        snappyUncompress(broken, "http://prom:9090: remote read");
        ADD_FAILURE() << "a cut block was read";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("http://prom:9090: remote read: the server's snappy-compressed answer is broken at byte"), std::string::npos) << e.what();
    }
}

TEST(RemoteRead, AResponseThatIsNoReadResponseIsNamedWithItsByte) {
    ImportedTelemetry telemetry;
    FileReport report;
    std::set<std::string> hosts;
    // Field 1 (results), length 50, but only three bytes follow.
    const std::string body = snappyStore(std::string("\x0a\x32" "abc", 5));
    try {
        readRemoteReadResponse(body, "http://prom:9090: remote read of up", telemetry, report, hosts);
        ADD_FAILURE() << "a broken answer was read";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("remote read answer is broken at byte 2"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace faultline
