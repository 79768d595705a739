// `faultline-cli import --follow DIR --prometheus URL` (issue 40): the folder is followed and
// each look pulls the metrics up to now from a real Prometheus server (Debian's, started here;
// skipped with the reason where it is not installed), merged with what was pulled before. A
// server that goes away is told once and asked again; following goes on and keeps what it had.
#include "model/pulled_sources.h"
#include "model/run_file.h"
#include "prometheus_server.h"
#include "cli_follower.h"
#include "growing_files.h"
#include "test_runs.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <set>
#include <thread>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace faultline {
namespace {

namespace fs = std::filesystem;
using test::ScratchDir;

using test::append;
using test::textOf;

std::size_t matchesOf(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

// faultline-cli following with a pull, its output in a file, running beside the test.
using test::waitFor;

// The GPUs with power samples in the run file, and the epoch span those samples cover.
struct PulledPower {
    std::set<std::int32_t> gpus;
    EpochNs first = 0, last = 0;
    std::size_t pulls = 0;
};

PulledPower pulledPower(const std::string& path) {
    PulledPower out;
    if (!fs::exists(path)) return out;
    const Run run = readRunFile(path);
    out.pulls = readPulledSources(path).size();
    const auto power = run.telemetry.metricIndex("DCGM_FI_DEV_POWER_USAGE");
    if (!power) return out;
    for (const TelemetryRawSeries& s : run.telemetry.rawSeries()) {
        if (s.metric != *power || s.times.empty()) continue;
        out.gpus.insert(s.gpu);
        const EpochNs first = run.info.startEpochNs + s.times.front(), last = run.info.startEpochNs + s.times.back();
        if (out.first == 0 || first < out.first) out.first = first;
        out.last = std::max(out.last, last);
    }
    return out;
}

std::vector<std::string> followArgs(const std::string& job, const std::string& run, const std::string& url, const test::History& history) {
    return {"import", "--follow", job, "-o", run, "--poll", "200ms", "--prometheus", url, "--hosts", history.hosts[0] + "," + history.hosts[1],
            "--metrics", "DCGM_FI_DEV_POWER_USAGE,DCGM_FI_DEV_GPU_TEMP"};
}

TEST(FollowPrometheusCli, TheFirstLookPullsTheSpanFromTheFilesFirstEventUpToNow) {
    if (const auto missing = test::prometheusMissing()) GTEST_SKIP() << *missing;
    const test::History& history = test::backfilledHistory({"2d-64gpu-15s", 64, 2 * kDay, 15 * kSecond, false});
    test::PrometheusProcess server(history.blocks);
    ScratchDir dir;
    const fs::path job = dir.path() / "job";
    fs::create_directories(job);
    const EpochNs xidAt = history.first + kHour;
    append((job / "syslog").string(), test::xidLineAt(xidAt, history.hosts[0]));
    const std::string run = dir.file("live.faultline");
    const std::string out = dir.file("follow.out");
    test::CliFollower follower(followArgs(job.string(), run, server.url(), history), out);
    ASSERT_TRUE(waitFor([&] { return matchesOf(textOf(out), " updated (") >= 1; })) << textOf(out);

    // The first run written holds the two hosts' 16 GPUs from the Xid line (no --from) to the
    // history's end, where the server's samples stop.
    const PulledPower first = pulledPower(run);
    EXPECT_EQ(first.gpus.size(), 16u) << textOf(out);
    EXPECT_EQ(first.pulls, 1u);
    EXPECT_GE(first.first, xidAt);
    EXPECT_LE(first.first, xidAt + kHour) << "the pull starts at the files' first event";
    EXPECT_GE(first.last, history.last - kHour) << "the pull reaches the history's end";
    const std::vector<PulledSource> pulls = readPulledSources(run);
    ASSERT_EQ(pulls.size(), 1u);
    EXPECT_EQ(pulls[0].url, server.url());
    EXPECT_EQ(pulls[0].fromEpochNs, xidAt);
    EXPECT_EQ(pulls[0].queries.size(), 2u);
    EXPECT_EQ(textOf(out).find("failed"), std::string::npos) << textOf(out);

    EXPECT_EQ(follower.stop(), 0) << textOf(out);
    EXPECT_NE(textOf(out).find("following ended"), std::string::npos) << textOf(out);
    EXPECT_EQ(pulledPower(run).gpus.size(), 16u);
}

TEST(FollowPrometheusCli, AServerStoppedAndRestartedMidFollowIsToldOnceAndLosesNothing) {
    if (const auto missing = test::prometheusMissing()) GTEST_SKIP() << *missing;
    const test::History& history = test::backfilledHistory({"2d-64gpu-15s", 64, 2 * kDay, 15 * kSecond, false});
    test::PrometheusProcess server(history.blocks);
    ScratchDir dir;
    const fs::path job = dir.path() / "job";
    fs::create_directories(job);
    const std::string log = (job / "syslog").string();
    append(log, test::xidLineAt(history.first + kHour, history.hosts[0]));
    const std::string run = dir.file("live.faultline");
    const std::string out = dir.file("follow.out");
    test::CliFollower follower(followArgs(job.string(), run, server.url(), history), out);
    ASSERT_TRUE(waitFor([&] { return pulledPower(run).gpus.size() == 16u; })) << textOf(out);

    // The server goes away: the failure is told once however many looks ask again, the
    // incidents written meanwhile still arrive, and what was pulled stays in the run.
    server.stop();
    const std::string failed = "pulling from " + server.url() + " failed";
    ASSERT_TRUE(waitFor([&] { return textOf(out).find(failed) != std::string::npos; })) << textOf(out);
    append(log, test::xidLineAt(history.first + 2 * kHour, history.hosts[1]));
    ASSERT_TRUE(waitFor([&] { return matchesOf(textOf(out), "new incident at") == 2u; })) << textOf(out);
    append(log, test::xidLineAt(history.first + 3 * kHour, history.hosts[0]));
    ASSERT_TRUE(waitFor([&] { return matchesOf(textOf(out), "new incident at") == 3u; })) << textOf(out);
    EXPECT_EQ(matchesOf(textOf(out), failed), 1u) << textOf(out);
    EXPECT_NE(textOf(out).find(failed + ": cannot reach the Prometheus server"), std::string::npos) << textOf(out);
    EXPECT_EQ(pulledPower(run).gpus.size(), 16u) << "the run written during the outage lost what was pulled";

    // Back on the same port: the next look's pull answers again.
    server.restart();
    ASSERT_TRUE(waitFor([&] { return textOf(out).find("pulling from " + server.url() + " again") != std::string::npos; })) << textOf(out);
    EXPECT_EQ(follower.stop(), 0) << textOf(out);
    const PulledPower last = pulledPower(run);
    EXPECT_EQ(last.gpus.size(), 16u) << textOf(out);
    EXPECT_EQ(last.pulls, 1u) << "every pull is one source, spanning them all";
    EXPECT_GE(last.last, history.last - kHour);
    EXPECT_EQ(matchesOf(textOf(out), failed), 1u) << textOf(out);
}

// The server is down when following begins: the files are followed without it, and its
// metrics arrive at the first look after it comes up.
TEST(FollowPrometheusCli, MetricsArriveOnceAServerDownAtTheStartComesUp) {
    if (const auto missing = test::prometheusMissing()) GTEST_SKIP() << *missing;
    const test::History& history = test::backfilledHistory({"2d-64gpu-15s", 64, 2 * kDay, 15 * kSecond, false});
    test::PrometheusProcess server(history.blocks);
    server.stop();
    ScratchDir dir;
    const fs::path job = dir.path() / "job";
    fs::create_directories(job);
    append((job / "syslog").string(), test::xidLineAt(history.first + kHour, history.hosts[0]));
    const std::string run = dir.file("live.faultline");
    const std::string out = dir.file("follow.out");
    test::CliFollower follower(followArgs(job.string(), run, server.url(), history), out);
    ASSERT_TRUE(waitFor([&] { return matchesOf(textOf(out), "new incident at") == 1u; })) << textOf(out);
    EXPECT_NE(textOf(out).find("pulling from " + server.url() + " failed"), std::string::npos) << textOf(out);
    EXPECT_EQ(pulledPower(run).gpus.size(), 0u);

    server.restart();
    ASSERT_TRUE(waitFor([&] { return pulledPower(run).gpus.size() == 16u; })) << textOf(out);
    EXPECT_EQ(follower.stop(), 0) << textOf(out);
    EXPECT_EQ(pulledPower(run).pulls, 1u);
}

TEST(FollowPrometheusCli, AFollowedPullGoesUpToNowSoToIsRefused) {
    ScratchDir dir;
    fs::create_directories(dir.path() / "job");
    const test::CommandResult r = test::runCommand(std::string(FAULTLINE_CLI) + " import --follow " + dir.file("job") +
                                                   " --prometheus http://127.0.0.1:1 --from now-1h --to now -o " + dir.file("r.faultline"));
    EXPECT_EQ(r.status, 2) << r.output;
    EXPECT_NE(r.output.find("--to cannot be given with --follow"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace faultline
