// The output guard every writer goes through: an output is never an input (however the path
// reaches it), never a FIFO, folder, device or link, and replaces only a file of its own kind
// unless forced. The CLI's writers are run through it in tests/cli/evidence_test.cpp.
#include "test_runs.h"

#include "model/error.h"
#include "model/output_guard.h"
#include "model/run_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sys/stat.h>

namespace faultline {
namespace {

namespace fs = std::filesystem;
using test::ScratchDir;

void writeText(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

// What the guard says about `target`, or "" when it may be written.
std::string refusal(const std::string& target, OutputKind kind, const std::vector<std::string>& inputs, bool force = false) {
    try {
        checkOutput(target, kind, inputs, force);
        return "";
    } catch (const Error& e) {
        return e.what();
    }
}

TEST(OutputGuard, AnInputIsRefusedHoweverThePathReachesIt) {
    ScratchDir dir;
    const std::string run = dir.file("run.faultline");
    writeRunFile(test::tinyRun(), run);
    fs::create_directory(dir.path() / "sub");
    fs::create_symlink(run, dir.file("link.faultline"));
    fs::create_hard_link(run, dir.file("hard.faultline"));
    for (const std::string& target : {run, dir.file("sub/../run.faultline"), dir.file("link.faultline"), dir.file("hard.faultline")})
        EXPECT_NE(refusal(target, OutputKind::RunFile, {run}, true).find("of this command: writing it would destroy"), std::string::npos) << target;
    // A file inside a folder given as input is an input too.
    writeText(dir.file("sub/k.log"), "log\n");
    EXPECT_NE(refusal(dir.file("sub/k.log"), OutputKind::RunFile, {(dir.path() / "sub").string()}, true).find("input"), std::string::npos);
}

TEST(OutputGuard, OnlyAFileOfItsOwnKindIsReplacedUnlessForced) {
    ScratchDir dir;
    const std::string run = dir.file("old.faultline"), notes = dir.file("notes.txt"), empty = dir.file("empty.faultline");
    writeRunFile(test::tinyRun(), run);
    writeText(notes, "my notes\n");
    writeText(empty, "");
    EXPECT_EQ(refusal(run, OutputKind::RunFile, {}), "");
    EXPECT_EQ(refusal(empty, OutputKind::RunFile, {}), "");  // nothing in it to lose
    EXPECT_EQ(refusal(dir.file("new.faultline"), OutputKind::RunFile, {}), "");
    EXPECT_NE(refusal(notes, OutputKind::RunFile, {}).find("is not a Faultline run file"), std::string::npos);
    EXPECT_NE(refusal(run, OutputKind::Png, {}).find("is not a PNG picture"), std::string::npos);
    EXPECT_EQ(refusal(notes, OutputKind::RunFile, {}, true), "");
    fs::permissions(run, fs::perms::owner_read | fs::perms::group_read);
    EXPECT_NE(refusal(run, OutputKind::RunFile, {}).find("read-only"), std::string::npos);
}

TEST(OutputGuard, FifosFoldersAndLinksAreNeverWrittenThrough) {
    ScratchDir dir;
    ASSERT_EQ(::mkfifo(dir.file("out.fifo").c_str(), 0644), 0);
    EXPECT_NE(refusal(dir.file("out.fifo"), OutputKind::RunFile, {}, true).find("is a FIFO"), std::string::npos);
    EXPECT_NE(refusal(dir.path().string(), OutputKind::RunFile, {}, true).find("is a folder"), std::string::npos);
    writeText(dir.file("victim.txt"), "victim\n");
    fs::create_symlink(dir.file("victim.txt"), dir.file("planted.csv"));
    EXPECT_NE(refusal(dir.file("planted.csv"), OutputKind::Csv, {}).find("symbolic link"), std::string::npos);
    EXPECT_NE(refusal("/dev/null", OutputKind::RunFile, {}, true).find("character device"), std::string::npos);
}

}  // namespace
}  // namespace faultline
