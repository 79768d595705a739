// The pulls made while a folder is followed (remote/prometheus_follow.h), against a real
// Prometheus server with a backfilled history and an injected clock standing in for "now":
// pulled in increments look after look, the telemetry is the same as one pull of the whole
// span (no sample asked twice, none skipped), by remote read and by query_range alike; a look
// before the next instant is due pulls nothing, and a failed pull keeps what was pulled.
#include "model/error.h"
#include "remote/prometheus_follow.h"

#include "prometheus_server.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

namespace faultline {
namespace {

using Sample = std::tuple<std::string, std::string, EpochNs, float>;  // GPU, metric, time, value

std::vector<Sample> samplesOf(const ImportedTelemetry& t) {
    std::vector<Sample> out;
    for (const ImportedSeries& s : t.series())
        for (const auto& [time, value] : t.rawSamples(s)) {
            const TelemetryGpu& g = t.gpu(s.gpu);
            out.emplace_back(g.host + "/" + g.uuid + "/" + std::to_string(g.index), std::string(t.metric(s.metric)), time, value);
        }
    std::sort(out.begin(), out.end());
    return out;
}

class PrometheusFollowTest : public ::testing::TestWithParam<Nanos> {
protected:
    void SetUp() override {
        if (const auto missing = test::prometheusMissing()) GTEST_SKIP() << *missing;
        history = &test::backfilledHistory({"2d-64gpu-15s", 64, 2 * kDay, 15 * kSecond, false});
        server = std::make_unique<test::PrometheusProcess>(history->blocks);
    }

    PrometheusPullOptions options() const {
        PrometheusPullOptions o;
        o.server.url = server->url();
        o.from = history->first;
        o.step = GetParam();  // 0: the samples as stored (remote read); 15 s: query_range
        o.hosts = {history->hosts[0]};
        o.metrics = {"DCGM_FI_DEV_POWER_USAGE"};
        o.sleeper = [](std::chrono::milliseconds) {};
        return o;
    }

    const test::History* history = nullptr;
    std::unique_ptr<test::PrometheusProcess> server;
};

TEST_P(PrometheusFollowTest, PullsInIncrementsGiveWhatOnePullOfTheSpanGives) {
    EpochNs now = history->first + kHour + 7 * kSecond;  // off the sample grid: the next pull must not skip one
    FollowedPull follow(options(), {}, kSecond, nullptr, [&] { return now; });
    ASSERT_TRUE(follow.refresh({}, false));
    now += 500 * kMillisecond;  // sooner than the interval: not asked
    EXPECT_FALSE(follow.refresh({}, false));
    EXPECT_EQ(follow.succeeded(), 1);
    for (int look = 0; look < 5; ++look) {
        now += 10 * kMinute + 3 * kSecond;
        ASSERT_TRUE(follow.refresh({}, false)) << look;
    }
    EXPECT_EQ(follow.succeeded(), 6);

    PrometheusPullOptions once = options();
    once.to = now;
    const PrometheusPull whole = pullPrometheus(once);
    const std::vector<const ShardedFile*> sources = follow.sources();
    ASSERT_EQ(sources.size(), 1u);
    EXPECT_EQ(sources[0]->events.telemetry.samples(), whole.source.events.telemetry.samples());
    EXPECT_EQ(samplesOf(sources[0]->events.telemetry), samplesOf(whole.source.events.telemetry));
    EXPECT_EQ(sources[0]->report.counts.at("telemetry series"), 8);
    EXPECT_EQ(sources[0]->events.telemetry.series().size(), 8u) << "each pull added its series again";

    const std::vector<PulledSource> pulls = follow.pulls();
    ASSERT_EQ(pulls.size(), 1u);
    EXPECT_EQ(pulls[0].url, server->url());
    EXPECT_EQ(pulls[0].fromEpochNs, history->first);
    EXPECT_EQ(pulls[0].toEpochNs, now);
    EXPECT_EQ(pulls[0].pulledAtEpochNs, now);
    EXPECT_EQ(pulls[0].queries.size(), 1u);

    // The server goes away: the pull fails, what was pulled stays, and the span is asked again.
    server->stop();
    now += kMinute;
    EXPECT_THROW(follow.refresh({}, false), Error);
    EXPECT_EQ(follow.sources()[0]->events.telemetry.samples(), whole.source.events.telemetry.samples());
    server->restart();
    EXPECT_TRUE(follow.refresh({}, false));
    EXPECT_EQ(follow.pulls()[0].toEpochNs, now);
    EXPECT_GT(follow.sources()[0]->events.telemetry.samples(), whole.source.events.telemetry.samples());
}

INSTANTIATE_TEST_SUITE_P(RemoteReadAndQueryRange, PrometheusFollowTest, ::testing::Values(Nanos{0}, 15 * kSecond));

}  // namespace
}  // namespace faultline
