// `faultline-cli import --follow DIR -o RUN` while a job writes DIR (issue 40): each incident is
// told once, in order, as its line is written; SIGTERM ends following cleanly; the run file
// then equals a one-shot import of the finished folder, and other commands read it meanwhile.
#include "cli_follower.h"
#include "growing_files.h"
#include "test_runs.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <filesystem>
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
using test::xidLine;

// faultline-cli with its output in a file, running beside the test.
using test::waitFor;

std::size_t countOf(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

TEST(FollowCli, EachIncidentArrivesOnceInOrderAndTheFinalRunFileIsTheOneShotImport) {
    ScratchDir dir;
    const fs::path job = dir.path() / "job";
    fs::create_directories(job);
    const std::string log = (job / "syslog").string();
    const std::string run = dir.file("live.faultline");
    const std::string out = dir.file("follow.out");
    test::CliFollower follower({"import", "--follow", job.string(), "-o", run, "--poll", "200ms"}, out);
    ASSERT_TRUE(waitFor([&] { return textOf(out).find("following ") != std::string::npos; })) << textOf(out);

    for (int i = 0; i < 4; ++i) {
        // Half a line first: the follower waits for its end before it tells the incident.
        const std::string line = xidLine(10 + i, 1 + i);
        append(log, line.substr(0, 30));
        append(log, line.substr(30));
        ASSERT_TRUE(waitFor([&] { return countOf(textOf(out), "new incident at") == static_cast<std::size_t>(i + 1); })) << textOf(out);
        // Another command reads the run file while it is followed.
        const test::CommandResult incidents = test::runCommand(std::string(FAULTLINE_CLI) + " incidents " + run);
        EXPECT_EQ(incidents.status, 0) << incidents.output;
    }
    // A rotation, and a new rank's log added beside.
    fs::rename(log, log + ".1");
    append(log, xidLine(20, 5));
    append((job / "node06.log").string(), xidLine(21, 6));
    ASSERT_TRUE(waitFor([&] { return countOf(textOf(out), "new incident at") == 6u; })) << textOf(out);

    EXPECT_EQ(follower.stop(), 0) << textOf(out);
    const std::string told = textOf(out);
    EXPECT_NE(told.find("following ended"), std::string::npos) << told;
    EXPECT_EQ(countOf(told, "new incident at"), 6u) << told;
    // In the order the lines were written.
    std::size_t previous = 0;
    for (const char* when : {"04:10:10", "04:11:10", "04:12:10", "04:13:10", "04:20:10", "04:21:10"}) {
        const std::size_t at = told.find(std::string("new incident at 2025-01-21 ") + when);
        ASSERT_NE(at, std::string::npos) << when << "\n" << told;
        EXPECT_GE(at, previous) << when;
        previous = at;
    }

    const std::string oneShot = dir.file("once.faultline");
    ASSERT_EQ(test::runCommand(std::string(FAULTLINE_CLI) + " import " + job.string() + " -o " + oneShot + " --quiet").status, 0);
    const test::CommandResult followed = test::runCommand(std::string(FAULTLINE_CLI) + " incidents --json " + run, false);
    const test::CommandResult once = test::runCommand(std::string(FAULTLINE_CLI) + " incidents --json " + oneShot, false);
    ASSERT_EQ(followed.status, 0);
    EXPECT_EQ(followed.output, once.output);
    const test::CommandResult followedSummary = test::runCommand(std::string(FAULTLINE_CLI) + " summary " + run, false);
    const test::CommandResult onceSummary = test::runCommand(std::string(FAULTLINE_CLI) + " summary " + oneShot, false);
    EXPECT_EQ(followedSummary.output, onceSummary.output);
}

// The folders the follower's listing walked are the ones it watches (the folder is walked once
// a look): a folder that appears after following began is watched from the look that lists it,
// so that what is appended in it is told by the kernel, not found by the poll a minute later.
TEST(FollowCli, AFolderAddedWhileFollowingIsWatchedFromTheLookThatListsIt) {
    ScratchDir dir;
    const fs::path job = dir.path() / "job";
    fs::create_directories(job);
    const std::string run = dir.file("live.faultline");
    const std::string out = dir.file("follow.out");
    test::CliFollower follower({"import", "--follow", job.string(), "-o", run, "--poll", "1h"}, out);
    ASSERT_TRUE(waitFor([&] { return textOf(out).find("following ") != std::string::npos; })) << textOf(out);
    // A node's folder made whole beside the job and moved in: the job's folder tells of it.
    const fs::path made = dir.path() / "node07";
    fs::create_directories(made);
    append((made / "syslog").string(), xidLine(10, 7));
    fs::rename(made, job / "node07");
    // Far below the poll (one look an hour, a wait of a minute at most): only a watch tells.
    const auto patience = std::chrono::seconds(30);
    ASSERT_TRUE(waitFor([&] { return countOf(textOf(out), "new incident at") == 1u; }, patience)) << textOf(out);
    append((job / "node07" / "syslog").string(), xidLine(11, 8));
    ASSERT_TRUE(waitFor([&] { return countOf(textOf(out), "new incident at") == 2u; }, patience)) << textOf(out);
    EXPECT_NE(textOf(out).find("new incident at 2025-01-21 04:11:10"), std::string::npos) << textOf(out);
    EXPECT_EQ(follower.stop(), 0) << textOf(out);
}

TEST(FollowCli, FollowingRefusesWhatCannotFollow) {
    ScratchDir dir;
    fs::create_directories(dir.path() / "job");
    const test::CommandResult json = test::runCommand(std::string(FAULTLINE_CLI) + " import --follow " + dir.file("job") + " -o " + dir.file("r.faultline") + " --json");
    EXPECT_EQ(json.status, 2) << json.output;
    EXPECT_NE(json.output.find("--follow reads a folder as it grows"), std::string::npos) << json.output;
    const test::CommandResult inside = test::runCommand(std::string(FAULTLINE_CLI) + " import --follow " + dir.file("job") + " -o " + dir.file("job/r.faultline"));
    EXPECT_EQ(inside.status, 1) << inside.output;
    EXPECT_NE(inside.output.find("cannot be written inside the folder it follows"), std::string::npos) << inside.output;
    // A settle past the longest delay would never let the folder settle.
    const test::CommandResult settle = test::runCommand(std::string(FAULTLINE_CLI) + " import --follow " + dir.file("job") + " -o " + dir.file("r.faultline") + " --settle 3s");
    EXPECT_EQ(settle.status, 2) << settle.output;
    EXPECT_NE(settle.output.find("--settle expects a duration from 0 to 2s"), std::string::npos) << settle.output;
}

}  // namespace
}  // namespace faultline
