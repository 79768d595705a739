// What hostile or damaged run files and interrupted writes found: absurd times refused with
// one message, no `.partial-*` left behind, messages that name the user's file.
#include "test_runs.h"

#include "analysis/summary.h"
#include "model/error.h"
#include "model/partial_file.h"
#include "model/run_file.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace faultline {
namespace {

using test::ScratchDir;
using test::tinyRun;

void runSql(const std::string& path, const std::string& sql) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
    sqlite3_close(db);
}

std::string errorReading(const std::string& path) {
    try {
        readRunFile(path);
    } catch (const Error& e) {
        return e.what();
    }
    ADD_FAILURE() << path << " was read";
    return {};
}

class AbsurdTimes : public ::testing::TestWithParam<std::pair<const char*, const char*>> {};

TEST_P(AbsurdTimes, AreRefusedWithOneMessage) {
    ScratchDir dir;
    const std::string path = dir.file("run.faultline");
    writeRunFile(tinyRun(), path);
    runSql(path, GetParam().first);
    const std::string message = errorReading(path);
    EXPECT_EQ(message.rfind(path + " is corrupt: ", 0), 0u) << message;
    EXPECT_NE(message.find(GetParam().second), std::string::npos) << message;
}

INSTANTIATE_TEST_SUITE_P(
    RunFile, AbsurdTimes,
    ::testing::Values(std::make_pair("UPDATE meta SET value = 9223372036854775000 WHERE key = 'duration_ns'", "longer than ten years"),
                      std::make_pair("UPDATE meta SET value = -5 WHERE key = 'duration_ns'", "duration is negative"),
                      std::make_pair("UPDATE checkpoints SET end_ns = begin_ns - 1 WHERE id = (SELECT min(id) FROM checkpoints)",
                                     "ends before it begins"),
                      std::make_pair("UPDATE checkpoints SET begin_ns = -9000000000000000000 WHERE id = (SELECT min(id) FROM checkpoints)",
                                     "checkpoint 0"),
                      std::make_pair("UPDATE steps SET duration_ns = -1 WHERE id = (SELECT min(id) FROM steps)", "negative or absurd"),
                      std::make_pair("UPDATE meta SET value = 9223372036854775000 WHERE key = 'start_epoch_ns'", "starts after 2242")));

TEST(RunFile, TheLongestAllowedRunSummarisesWithoutOverflow) {
    // Ten years, the most a run file may hold: the figures must still come out finite.
    faultline::Run run = tinyRun();
    run.info.duration = 10LL * 365 * 24 * 3600 * kSecond;
    const RunSummary s = summarize(run);
    EXPECT_EQ(s.duration, run.info.duration);
    EXPECT_GT(s.ettr, 0.0);
    EXPECT_LE(s.ettr, 1.0);
    EXPECT_GE(s.mtbf, 0);
    EXPECT_NE(summaryToText(s).find("3650 d"), std::string::npos) << summaryToText(s);
}

TEST(PartialFile, StaleLeftoversOfGoneWritersAreRemoved) {
    ScratchDir dir;
    const std::string target = dir.file("run.faultline");
    // A writer killed with SIGKILL leaves its file; pid 999999999 runs nowhere (pid_max is lower).
    const std::string stale = target + ".partial-999999999";
    std::ofstream(stale) << "half a run";
    // A writer that is still running (this test's parent) keeps its file.
    const std::string live = target + ".partial-" + std::to_string(::getppid());
    std::ofstream(live) << "being written";
    writeRunFile(tinyRun(), target);
    EXPECT_FALSE(std::filesystem::exists(stale));
    EXPECT_TRUE(std::filesystem::exists(live));
    EXPECT_TRUE(std::filesystem::exists(target));
    readRunFile(target);
}

TEST(PartialFile, TerminationRemovesTheFileBeingWritten) {
    for (int sig : {SIGTERM, SIGINT}) {
        ScratchDir dir;
        const std::string target = dir.file("run.faultline");
        const pid_t child = ::fork();
        ASSERT_GE(child, 0);
        if (child == 0) {
            PartialFile partial(target);
            std::ofstream(partial.path()) << "half a run";
            ::raise(sig);  // Ctrl-C or kill, mid-write
            ::_exit(0);
        }
        int status = 0;
        ASSERT_EQ(::waitpid(child, &status, 0), child);
        EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << "signal " << sig;
        EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "signal " << sig << ": something was left in " << dir.path();
    }
}

TEST(PartialFile, FailedWritesNameTheRunFileNotTheTemporaryOne) {
    ScratchDir dir;
    const std::string target = dir.file("run.faultline");
    std::filesystem::create_directory(target);  // a folder is in the way
    std::ofstream(target + "/keep") << "x";
    std::string message;
    try {
        writeRunFile(tinyRun(), target);
    } catch (const Error& e) {
        message = e.what();
    }
    EXPECT_NE(message.find(target), std::string::npos) << message;
    EXPECT_EQ(message.find(".partial-"), std::string::npos) << message;
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), std::filesystem::directory_iterator()), 1);
}

TEST(RunFile, AnUnreadableFileSaysSoNotEmpty) {
    if (::geteuid() == 0) GTEST_SKIP() << "running as root, which reads every file whatever its permissions";
    ScratchDir dir;
    const std::string path = dir.file("run.faultline");
    writeRunFile(tinyRun(), path);
    ::chmod(path.c_str(), 0);
    const std::string message = errorReading(path);
    EXPECT_NE(message.find("cannot read " + path), std::string::npos) << message;
    EXPECT_NE(message.find("Permission denied"), std::string::npos) << message;
}

}  // namespace
}  // namespace faultline
