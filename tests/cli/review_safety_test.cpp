// What a reviewer wrote is never destroyed and no file claims to be whole when it is not
// (issue 39): --force never replaces a run's review, a device or a link to one; a write that
// fails (a full disk, here an injected file size limit) leaves the older file as it was, no
// partial file, and says which file and why, with exit status 1. The shapes of
// ../shared/repro/round4/force-overwrites-review-sidecar.sh and force-replaces-dev-stdout.sh.
#include "file_bytes.h"
#include "cli_command.h"
#include "test_runs.h"
#include "write_faults.h"

#include "model/incident_notes.h"
#include "model/run_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace faultline {
namespace {

using test::bytesOf;
using test::runCli;
namespace fs = std::filesystem;
using test::ScratchDir;

std::string xidJournal() { return std::string(FAULTLINE_MODEL_TESTDATA) + "/repro/xid_journal.log"; }

bool hasPartial(const fs::path& folder) {
    for (const auto& entry : fs::recursive_directory_iterator(folder))
        if (entry.path().filename().string().find(".partial-") != std::string::npos) return true;
    return false;
}

TEST(ReviewSafety, NoCliWriterReplacesTheReviewOfTheRunItReadsEvenForced) {
    ScratchDir dir;
    const std::string run = dir.file("run.faultline"), review = run + "-review", shard = dir.file("s1.faultline");
    ASSERT_EQ(runCli("simulate --preset tiny --days 1 -q -o " + run).status, 0);
    ASSERT_EQ(runCli("import " + xidJournal() + " --shard 1/1 -q -o " + shard).status, 0);
    IncidentNotesStore(run).save({readRunFile(run).failures.front().time, "precious reviewer note", std::nullopt, {}, 0});
    const std::string before = bytesOf(review);
    for (const std::string force : {"", " --force"}) {
        for (const std::string& command : {"export " + run + " --perfetto " + review, "whatif " + run + " --checkpoint-interval 30m -o " + review,
                                           "import " + xidJournal() + " -q -o " + review, "merge " + shard + " -q -o " + review,
                                           "simulate --preset tiny --days 1 -q -o " + review}) {
            const test::CommandResult r = runCli(command + force);
            EXPECT_EQ(r.status, 1) << command << force << "\n" << r.output;
            EXPECT_NE(r.output.find("review"), std::string::npos) << command << force << "\n" << r.output;
            EXPECT_EQ(r.output.find("give --force"), std::string::npos) << command << force << "\n" << r.output;
        }
    }
    EXPECT_EQ(bytesOf(review), before);
    const test::CommandResult incidents = runCli("incidents " + run + " --json");
    EXPECT_EQ(incidents.status, 0) << incidents.output;
    EXPECT_NE(incidents.output.find("precious reviewer note"), std::string::npos);
}

TEST(ReviewSafety, TheReviewOfTheRunReadIsRefusedBeforeItExists) {
    ScratchDir dir;
    const std::string run = dir.file("run.faultline");
    ASSERT_EQ(runCli("simulate --preset tiny --days 1 -q -o " + run).status, 0);
    const test::CommandResult r = runCli("export " + run + " --perfetto " + run + "-review --force");
    EXPECT_EQ(r.status, 1) << r.output;
    EXPECT_NE(r.output.find("is the review of"), std::string::npos) << r.output;
    EXPECT_FALSE(fs::exists(run + "-review"));
    EXPECT_EQ(runCli("incidents " + run).status, 0);
}

TEST(ReviewSafety, ForceNeverReplacesADeviceALinkToOneOrASystemPath) {
    ScratchDir dir;
    const std::string log = dir.file("k.log");
    fs::copy_file(xidJournal(), log);
    // Links in the scratch folder stand for /dev/stdout: should the guard ever let one
    // through, only the scratch link is replaced, never the system's.
    fs::create_symlink("/proc/self/fd/1", dir.file("stdout.faultline"));
    fs::create_symlink("/dev/null", dir.file("null.faultline"));
    for (const std::string& target : {dir.file("stdout.faultline"), dir.file("null.faultline"), std::string("/proc/self/faultline.faultline")})
        for (const std::string force : {"", " --force"}) {
            const test::CommandResult r = runCli("import " + log + " -q -o " + target + force);
            EXPECT_EQ(r.status, 1) << target << force << "\n" << r.output;
            EXPECT_EQ(r.output.find("--force"), std::string::npos) << "nothing to force: " << r.output;
        }
    EXPECT_TRUE(fs::is_symlink(dir.file("stdout.faultline")));
    EXPECT_TRUE(fs::is_symlink(dir.file("null.faultline")));
    EXPECT_EQ(fs::read_symlink(dir.file("null.faultline")), "/dev/null");
}

// Each CLI writer with its writes refused past a few KB (RLIMIT_FSIZE, as a full disk refuses
// them): rc 1, the message names the file and the cause, the older file stays as it was.
TEST(ReviewSafety, AFailedWriteLeavesTheOlderFileAndSaysWhy) {
    ScratchDir dir;
    const std::string run = dir.file("run.faultline");
    ASSERT_EQ(runCli("simulate --preset tiny --days 1 -q -o " + run).status, 0);
    IncidentNotesStore(run).save({readRunFile(run).failures.front().time, std::string(20000, 'n'), std::nullopt, {}, 0});  // a long CSV
    const std::string oldTrace = dir.file("old.json"), oldRun = dir.file("old.faultline"), csv = dir.file("csv");
    ASSERT_EQ(runCli("export " + run + " --perfetto " + oldTrace + " -q").status, 0);
    ASSERT_EQ(runCli("whatif " + run + " --checkpoint-interval 30m -o " + oldRun).status, 0);
    ASSERT_EQ(runCli("export " + run + " --csv " + csv + " -q").status, 0);
    const std::string traceBytes = bytesOf(oldTrace), runBytes = bytesOf(oldRun), csvBytes = bytesOf(csv + "/incidents.csv");
    const std::string limited = test::fileSizeLimitPrefix() + FAULTLINE_CLI + " ";
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"export " + run + " --perfetto " + oldTrace + " --force", oldTrace},
        {"whatif " + run + " --checkpoint-interval 30m --force -o " + oldRun, oldRun},
        {"import " + xidJournal() + " -q --force -o " + oldRun, oldRun},
        {"simulate --preset tiny --days 1 -q --force -o " + oldRun, oldRun},
        {"export " + run + " --csv " + csv + " --force", csv + "/incidents.csv"},
    };
    for (const auto& [command, target] : cases) {
        const test::CommandResult r = test::runCommand("sh -c '" + limited + command + "'");
        EXPECT_EQ(r.status, 1) << command << "\n" << r.output;
        EXPECT_NE(r.output.find(target), std::string::npos) << command << "\n" << r.output;
        // SQLite says why where it kept the errno; a full disk it always names (below).
        EXPECT_TRUE(r.output.find("file too large") != std::string::npos || r.output.find("disk I/O error") != std::string::npos)
            << command << "\n" << r.output;
        EXPECT_EQ(r.output.find("wrote "), std::string::npos) << command << "\n" << r.output;
    }
    EXPECT_EQ(bytesOf(oldTrace), traceBytes);
    EXPECT_EQ(bytesOf(oldRun), runBytes);
    EXPECT_EQ(bytesOf(csv + "/incidents.csv"), csvBytes);
    EXPECT_FALSE(hasPartial(dir.path()));
}

TEST(ReviewSafety, AFullDiskIsNamedNoSpaceLeftOnDevice) {
    ScratchDir dir;
    test::FullDisk disk(dir.path() / "full", 4 << 20);
    if (!disk.available()) GTEST_SKIP() << "needs root to mount a small tmpfs";
    const std::string run = dir.file("run.faultline");
    ASSERT_EQ(runCli("simulate --preset tiny --days 1 -q -o " + run).status, 0);
    fs::create_directory(disk.file("csv"));
    disk.fill();
    for (const std::string& command : {"export " + run + " --perfetto " + disk.file("t.json"), "whatif " + run + " --checkpoint-interval 30m -o " + disk.file("w.faultline"),
                                       "export " + run + " --csv " + disk.file("csv")}) {
        const test::CommandResult r = runCli(command);
        EXPECT_EQ(r.status, 1) << command << "\n" << r.output;
        EXPECT_NE(r.output.find("no space left on device"), std::string::npos) << command << "\n" << r.output;
    }
    EXPECT_FALSE(fs::exists(disk.file("t.json")));
    EXPECT_FALSE(fs::exists(disk.file("w.faultline")));
    EXPECT_FALSE(hasPartial(dir.path() / "full"));
}

}  // namespace
}  // namespace faultline
