// `faultline-cli import --prometheus` as an on-call engineer runs it, against a real Prometheus
// server (Debian's, started here; skipped with the reason where it is not installed): the run
// file it writes, what it prints, and the password it must never print or keep.
#include "model/pulled_sources.h"
#include "model/run_file.h"
#include "file_bytes.h"
#include "cli_command.h"
#include "prometheus_server.h"
#include "test_runs.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

namespace faultline {
namespace {

using test::bytesOf;
using test::runCli;
using Result = test::CommandResult;

std::string isoSeconds(EpochNs t) { return std::to_string(t / 1'000'000'000); }

TEST(CliPrometheus, PullsHostsTelemetryIntoARunWithoutEverShowingThePassword) {
    if (const auto missing = test::prometheusMissing()) GTEST_SKIP() << *missing;
    const test::History& history = test::backfilledHistory({"2d-64gpu-15s", 64, 2 * kDay, 15 * kSecond, false});
    test::PrometheusProcess server(history.blocks, "basic_auth_users:\n  oncall: " + test::bcryptHash("pager-duty-7") + "\n");
    test::ScratchDir dir;
    std::ofstream(dir.file("auth")) << "oncall:pager-duty-7\n";
    const std::string out = dir.file("run.faultline");
    const std::string hosts = history.hosts[0] + "," + history.hosts[1];
    const Result r = runCli("import --prometheus " + server.url() + " --from " + isoSeconds(history.first) + " --to " + isoSeconds(history.last - kHour) +
                            " --hosts " + hosts + ",nobody-here --metrics DCGM_FI_DEV_POWER_USAGE,DCGM_FI_DEV_GPU_TEMP --basic-auth-file " +
                            dir.file("auth") + " -o " + out);
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find(server.url() + "\n  format: prometheus\n"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("1 of the hosts asked for have no series on the server (label Hostname): nobody-here"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("16 GPUs"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("pager-duty-7"), std::string::npos) << r.output;
    EXPECT_EQ(bytesOf(out).find("pager-duty-7"), std::string::npos) << "the run file holds the password";
    const faultline::Run run = readRunFile(out);
    EXPECT_EQ(run.topology.gpus.size(), 16u);
    const std::vector<PulledSource> pulls = readPulledSources(out);
    ASSERT_EQ(pulls.size(), 1u);
    EXPECT_EQ(pulls[0].url, server.url());
    EXPECT_EQ(pulls[0].queries.size(), 2u);

    // The wrong password: refused, exit status 1, the message names where it came from.
    std::ofstream(dir.file("auth")) << "oncall:guess\n";
    const Result refused = runCli("import --prometheus " + server.url() + " --from " + isoSeconds(history.first) + " --to " +
                                  isoSeconds(history.first + kHour) + " --hosts " + hosts + " --basic-auth-file " + dir.file("auth") + " -o " +
                                  dir.file("other.faultline"));
    EXPECT_EQ(refused.status, 1) << refused.output;
    EXPECT_NE(refused.output.find("the server refused the credentials from --basic-auth-file " + dir.file("auth") + " (HTTP 401)"), std::string::npos)
        << refused.output;
    EXPECT_EQ(refused.output.find("guess"), std::string::npos) << refused.output;
}

TEST(CliPrometheus, CredentialsInTheUrlAndPullOptionsWithoutAServerAreUsageErrors) {
    test::ScratchDir dir;
    const Result url = runCli("import --prometheus http://oncall:hunter2@127.0.0.1:1 --from now-1h --to now -o " + dir.file("r.faultline"));
    EXPECT_EQ(url.status, 1) << url.output;
    EXPECT_NE(url.output.find("--basic-auth-file"), std::string::npos) << url.output;
    EXPECT_EQ(url.output.find("hunter2"), std::string::npos) << url.output;
    const Result alone = runCli("import --hosts a,b -o " + dir.file("r.faultline"));
    EXPECT_EQ(alone.status, 2) << alone.output;
    EXPECT_NE(alone.output.find("--hosts belongs to a pull: give --prometheus URL"), std::string::npos) << alone.output;
}

}  // namespace
}  // namespace faultline
