// Pulls from a real Prometheus server (Debian's `prometheus`, started here on 127.0.0.1 with a
// history backfilled by promtool from the simulator's telemetry: 2 days of 64 GPUs every
// 15 s), checked against what was written; and what goes wrong with a real server: a metric it
// lacks, a span it has nothing in, a span over its points limit, a stopped server, a busy one,
// a wrong password through its own --web.config.file basic auth, a request past --timeout.
#include "importers/events/import_context.h"
#include "model/error.h"
#include "model/pulled_sources.h"
#include "model/run_file.h"
#include "remote/prometheus_pull.h"
#include "remote/prometheus_query_plan.h"

#include "prometheus_server.h"
#include "test_runs.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

namespace faultline {
namespace {

using namespace std::chrono_literals;

const test::HistorySpec kHistory{"2d-64gpu-15s", 64, 2 * kDay, 15 * kSecond, false};

class PrometheusServerTest : public ::testing::Test {
protected:
    void SetUp() override {
        if (const auto missing = test::prometheusMissing()) GTEST_SKIP() << *missing;
        history = &test::backfilledHistory(kHistory);
    }

    void start(const std::string& webConfig = "") { server = std::make_unique<test::PrometheusProcess>(history->blocks, webConfig); }

    // A pull of the whole history, waits recorded instead of slept.
    PrometheusPullOptions pullOptions() {
        PrometheusPullOptions o;
        o.server.url = server->url();
        o.from = history->first;
        o.to = history->last;
        o.step = history->interval;
        o.hosts = history->hosts;
        o.metrics = history->metrics;
        o.sleeper = [this](std::chrono::milliseconds wait) { waits.push_back(wait); };
        o.parallelQueries = 1;  // the waits are recorded in the order one query meets them
        o.clock = [] { return EpochNs{1'800'000'000'000'000'000}; };
        return o;
    }

    std::string errorOf(const PrometheusPullOptions& o) {
        try {
            pullPrometheus(o);
        } catch (const Error& e) {
            return e.what();
        }
        return "";
    }

    const test::History* history = nullptr;
    std::unique_ptr<test::PrometheusProcess> server;
    std::vector<std::chrono::milliseconds> waits;
};

// The GPU of the history a series names, by host and index as dcgm-exporter labels it.
std::int32_t historyGpu(const test::History& h, const TelemetryGpu& s) {
    const Topology& t = h.run->topology;
    for (std::int32_t g = 0; g < h.gpus; ++g) {
        const Gpu& gpu = t.gpus[static_cast<std::size_t>(g)];
        if (t.hosts[static_cast<std::size_t>(gpu.host)].name == s.host && gpu.index == s.index) return g;
    }
    return -1;
}

TEST_F(PrometheusServerTest, EverySampleComesBackAsTheSimulatorWroteIt) {
    start();
    PrometheusPullOptions asked = pullOptions();
    asked.parallelQueries = 4;  // as a user pulls: queries asked at once, no step given
    asked.step = 0;             // so the samples are read as stored (remote read)
    const PrometheusPull pull = pullPrometheus(asked);
    ASSERT_FALSE(pull.source.report.notes.empty());
    EXPECT_NE(pull.source.report.notes.front().find("the samples as stored (remote read)"), std::string::npos) << pull.source.report.notes.front();
    const ImportedTelemetry& t = pull.source.events.telemetry;
    ASSERT_EQ(t.series().size(), static_cast<std::size_t>(history->gpus) * history->metrics.size());
    EXPECT_EQ(t.samples(), history->samples * history->gpus * static_cast<std::int64_t>(history->metrics.size()));
    EXPECT_GT(history->samples, kMaxPointsPerSeries) << "the history must pass the points limit, so that the pull has to split it";
    for (const ImportedSeries& s : t.series()) {
        const TelemetryGpu& named = t.gpu(s.gpu);
        const std::string metric(t.metric(s.metric));
        const std::int32_t g = historyGpu(*history, named);
        ASSERT_GE(g, 0) << named.host << " gpu " << named.index;
        const std::vector<std::pair<EpochNs, float>> samples = t.rawSamples(s);
        ASSERT_EQ(samples.size(), static_cast<std::size_t>(history->samples)) << metric << " of GPU " << g;
        for (std::int64_t k = 0; k < history->samples; ++k) {
            ASSERT_EQ(samples[static_cast<std::size_t>(k)].first, history->sampleTime(k)) << metric << " of GPU " << g << " sample " << k;
            ASSERT_EQ(samples[static_cast<std::size_t>(k)].second, static_cast<float>(test::historyValue(*history, metric, g, k)))
                << metric << " of GPU " << g << " sample " << k;
        }
    }
    EXPECT_TRUE(pull.hostsWithoutSeries.empty());
    EXPECT_TRUE(waits.empty());
}

TEST_F(PrometheusServerTest, QueriesAskedAtOnceGiveTheRunQueriesAskedInTurnGive) {
    start();
    PrometheusPullOptions oneByOne = pullOptions();
    oneByOne.hostsPerQuery = 1;  // many queries, so that several are in flight at once
    PrometheusPullOptions atOnce = oneByOne;
    atOnce.parallelQueries = 6;
    const PrometheusPull a = pullPrometheus(oneByOne);
    const PrometheusPull b = pullPrometheus(atOnce);
    EXPECT_EQ(a.pulled.queries, b.pulled.queries);
    ASSERT_EQ(a.source.events.telemetry.series().size(), b.source.events.telemetry.series().size());
    const ImportedTelemetry& ta = a.source.events.telemetry;
    const ImportedTelemetry& tb = b.source.events.telemetry;
    for (std::size_t i = 0; i < ta.series().size(); ++i) {
        const ImportedSeries& x = ta.series()[i];
        const ImportedSeries& y = tb.series()[i];
        EXPECT_EQ(ta.metric(x.metric), tb.metric(y.metric));
        EXPECT_EQ(ta.gpu(x.gpu).host, tb.gpu(y.gpu).host);
        EXPECT_EQ(ta.gpu(x.gpu).index, tb.gpu(y.gpu).index);
        EXPECT_EQ(ta.rawSamples(x), tb.rawSamples(y));
    }
    EXPECT_EQ(a.source.report.counts, b.source.report.counts);
}

TEST_F(PrometheusServerTest, AServerWithoutRemoteReadIsAskedByQueryRangeForTheSameRun) {
    start();
    PrometheusPullOptions stored = pullOptions();
    stored.step = 0;
    PrometheusPullOptions proxied = stored;
    // A proxy in front of the server that only passes the query API on.
    proxied.http = [](const HttpRequest& r, const std::atomic<bool>* cancel) {
        if (r.url.ends_with("/api/v1/read")) return HttpResponse{404, "404 page not found", "", false, false, false, false};
        return httpPost(r, cancel);
    };
    const PrometheusPull a = pullPrometheus(stored);
    const PrometheusPull b = pullPrometheus(proxied);
    EXPECT_NE(b.source.report.notes.front().find("at a 15s step"), std::string::npos) << b.source.report.notes.front();
    ASSERT_EQ(a.source.events.telemetry.series().size(), b.source.events.telemetry.series().size());
    for (std::size_t i = 0; i < a.source.events.telemetry.series().size(); ++i)
        EXPECT_EQ(a.source.events.telemetry.rawSamples(a.source.events.telemetry.series()[i]), b.source.events.telemetry.rawSamples(b.source.events.telemetry.series()[i]));
    EXPECT_EQ(a.source.report.counts.at("telemetry samples"), b.source.report.counts.at("telemetry samples"));
}

TEST_F(PrometheusServerTest, ASpanOverThePointsLimitIsRefusedByTheServerAndSplitByTheClient) {
    start();
    PrometheusServer where;
    where.url = server->url();
    PrometheusClient client(where);
    try {
        client.queryRange("DCGM_FI_DEV_POWER_USAGE", history->first, history->last, history->interval);
        FAIL() << "the server answered a query over its points limit";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("11,000 points"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find(server->url()), std::string::npos) << e.what();
    }
    PrometheusPullOptions o = pullOptions();
    o.metrics = {"DCGM_FI_DEV_POWER_USAGE"};
    o.hostsPerQuery = 3;  // 8 hosts: batches of 3, 3 and 2
    const PrometheusPull pull = pullPrometheus(o);
    EXPECT_EQ(pull.source.report.counts.at("queries"), 3 * 2);
    EXPECT_EQ(pull.pulled.queries.size(), 3u);
    EXPECT_EQ(pull.source.events.telemetry.samples(), history->samples * history->gpus);
}

TEST_F(PrometheusServerTest, AMetricTheServerLacksAndASpanWithoutDataAreReported) {
    start();
    PrometheusPullOptions o = pullOptions();
    o.metrics = {"DCGM_FI_DEV_POWER_USAGE", "DCGM_FI_DEV_NO_SUCH_METRIC"};
    o.hosts.push_back("ghost-host");
    const PrometheusPull pull = pullPrometheus(o);
    const auto& warnings = pull.source.report.warnings;
    auto warned = [&](const std::string& text) {
        return std::any_of(warnings.begin(), warnings.end(), [&](const std::string& w) { return w.find(text) != std::string::npos; });
    };
    EXPECT_TRUE(warned("no series of DCGM_FI_DEV_NO_SUCH_METRIC")) << ::testing::PrintToString(warnings);
    EXPECT_TRUE(warned("have no series on the server (label Hostname): ghost-host")) << ::testing::PrintToString(warnings);
    EXPECT_EQ(pull.hostsWithoutSeries, std::vector<std::string>{"ghost-host"});

    o.from = history->first - 30 * kDay;
    o.to = history->first - 29 * kDay;
    const PrometheusPull empty = pullPrometheus(o);
    EXPECT_EQ(empty.source.events.telemetry.samples(), 0);
    EXPECT_NE(std::find(empty.source.report.warnings.begin(), empty.source.report.warnings.end(), "the server returned no samples for this span"),
              empty.source.report.warnings.end());
    // A pull that is all the import has, and got nothing, writes no empty run.
    try {
        importWithPrometheus({}, {}, o);
        FAIL() << "an import of nothing was built";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find(server->url() + ": nothing to import: the server returned no samples of DCGM_FI_DEV_POWER_USAGE"), std::string::npos)
            << e.what();
    }
}

TEST_F(PrometheusServerTest, AStoppedServerIsRetriedWithBackOffThenNamed) {
    start();
    server->stop();
    const std::string message = errorOf(pullOptions());
    EXPECT_NE(message.find(server->url() + ": cannot reach the Prometheus server"), std::string::npos) << message;
    EXPECT_NE(message.find("(5 attempts)"), std::string::npos) << message;
    EXPECT_EQ(waits, (std::vector<std::chrono::milliseconds>{500ms, 1000ms, 2000ms, 4000ms}));
}

TEST_F(PrometheusServerTest, ABusyServerIsAskedAgainAndTheAnswerKept) {
    start();
    PrometheusPullOptions o = pullOptions();
    o.metrics = {"DCGM_FI_DEV_GPU_TEMP"};
    int calls = 0;
    // The server's own answers, but the first two replaced by what an overloaded one says.
    o.http = [&](const HttpRequest& r, const std::atomic<bool>* cancel) {
        HttpResponse real = httpPost(r, cancel);
        if (++calls <= 2) {
            real.status = 503;
            real.body = R"({"status":"error","errorType":"unavailable","error":"too many queries"})";
        }
        return real;
    };
    const PrometheusPull pull = pullPrometheus(o);
    EXPECT_EQ(pull.retries, 2);
    EXPECT_EQ(waits, (std::vector<std::chrono::milliseconds>{500ms, 1000ms}));
    EXPECT_EQ(pull.source.events.telemetry.samples(), history->samples * history->gpus);
}

TEST_F(PrometheusServerTest, ARequestPastTheTimeoutIsRetriedThenSaysSo) {
    start();
    PrometheusPullOptions o = pullOptions();
    o.server.timeoutSeconds = 0.001;  // no server answers 11,000 points a series in a millisecond
    o.retry.attempts = 2;
    const std::string message = errorOf(o);
    EXPECT_NE(message.find("no answer within --timeout"), std::string::npos) << message;
    EXPECT_NE(message.find(server->url()), std::string::npos) << message;
    EXPECT_EQ(waits.size(), 1u);
}

TEST_F(PrometheusServerTest, BasicAuthWrongPasswordIsRefusedAndTheRightOneReadsTheRun) {
    start("basic_auth_users:\n  faultline: " + test::bcryptHash("right-horse-battery") + "\n");
    PrometheusPullOptions o = pullOptions();
    o.metrics = {"DCGM_FI_DEV_POWER_USAGE"};
    o.server.credentials = {PrometheusCredentials::Kind::Basic, "faultline:wrong-staple", "--basic-auth-file /secrets/prom"};
    const std::string refused = errorOf(o);
    EXPECT_NE(refused.find(server->url() + ": the server refused the credentials from --basic-auth-file /secrets/prom (HTTP 401)"), std::string::npos)
        << refused;
    EXPECT_EQ(refused.find("wrong-staple"), std::string::npos) << refused;
    EXPECT_TRUE(waits.empty()) << "refused credentials are not retried";

    // The right password: the run keeps where its telemetry came from, and nothing of the login.
    o.server.credentials.secret = "faultline:right-horse-battery";
    ImportOptions importOptions;
    importOptions.runName = "pulled";
    const ImportResult result = importWithPrometheus({}, importOptions, o);
    test::ScratchDir dir;
    writeRunFile(result.run, dir.file("run.faultline"), {}, result.pulls);
    const faultline::Run back = readRunFile(dir.file("run.faultline"));
    const std::vector<PulledSource> pulls = readPulledSources(dir.file("run.faultline"));
    ASSERT_EQ(pulls.size(), 1u);
    const PulledSource& p = pulls[0];
    EXPECT_EQ(p.kind, "prometheus");
    EXPECT_EQ(p.url, server->url());
    EXPECT_EQ(p.fromEpochNs, history->first);
    EXPECT_EQ(p.toEpochNs, history->last);
    EXPECT_EQ(p.stepNs, 15 * kSecond);
    EXPECT_EQ(p.pulledAtEpochNs, 1'800'000'000'000'000'000);
    ASSERT_EQ(p.queries.size(), 1u);
    EXPECT_EQ(p.queries[0].rfind("DCGM_FI_DEV_POWER_USAGE{Hostname=~\"(", 0), 0u) << p.queries[0];
    EXPECT_EQ(back.topology.gpus.size(), static_cast<std::size_t>(history->gpus));
    ASSERT_EQ(back.telemetry.metrics, std::vector<std::string>{"DCGM_FI_DEV_POWER_USAGE"});
    std::ifstream in(dir.file("run.faultline"), std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(bytes.find("right-horse-battery"), std::string::npos) << "the run file holds the password";
    EXPECT_NE(bytes.find(server->url()), std::string::npos);
}

TEST_F(PrometheusServerTest, CancelStopsThePullBetweenQueries) {
    start();
    std::atomic<bool> cancel{false};
    int queries = 0;
    EXPECT_THROW(pullPrometheus(pullOptions(), [&](double) { if (++queries == 1) cancel = true; }, &cancel), ImportCancelled);
    EXPECT_EQ(queries, 1);
}

}  // namespace
}  // namespace faultline
