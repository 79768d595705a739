// The output guard every writer goes through: an output is never an input (however the path
// reaches it), never a FIFO, folder, device or link, and replaces only a file of its own kind
// unless forced. The CLI's writers are run through it in tests/cli/evidence_test.cpp.
#include "test_runs.h"

#include "model/error.h"
#include "model/incident_notes.h"
#include "model/output_guard.h"
#include "model/partial_file.h"
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

TEST(OutputGuard, TheReviewOfAnInputRunIsNeverWrittenEvenForced) {
    ScratchDir dir;
    const std::string run = dir.file("run.faultline");
    writeRunFile(test::tinyRun(), run);
    // Not there yet: written, it would be read as the run's review and refused.
    for (const bool force : {false, true}) {
        const std::string why = refusal(run + "-review", OutputKind::Json, {run}, force);
        EXPECT_NE(why.find("is the review of " + run), std::string::npos) << why;
        EXPECT_EQ(why.find("--force"), std::string::npos) << "nothing to force: " << why;
    }
    IncidentNotesStore(run).save({7, "precious reviewer note", std::nullopt, {}, 0});
    for (const OutputKind kind : {OutputKind::Json, OutputKind::RunFile, OutputKind::Html, OutputKind::Png})
        for (const bool force : {false, true}) {
            EXPECT_NE(refusal(run + "-review", kind, {run}, force).find("is the review of"), std::string::npos);
            EXPECT_NE(refusal(dir.file("./run.faultline-review"), kind, {dir.file("sub/../run.faultline")}, force).find("is the review of"),
                      std::string::npos);
        }
    // Any review file, of a run not read by this command too.
    fs::copy_file(run + "-review", dir.file("other.json"));
    const std::string why = refusal(dir.file("other.json"), OutputKind::Json, {}, true);
    EXPECT_NE(why.find("is a Faultline review file"), std::string::npos) << why;
    EXPECT_EQ(why.find("--force"), std::string::npos) << why;
    fs::create_symlink(run + "-review", dir.file("link.json"));
    EXPECT_NE(refusal(dir.file("link.json"), OutputKind::Json, {}, true).find("review file"), std::string::npos);
    EXPECT_EQ(readIncidentNotes(run).at(7).notes, "precious reviewer note");
}

TEST(OutputGuard, DevicesLinksToThemAndSystemPathsAreRefusedEvenForcedWithoutSuggestingForce) {
    ScratchDir dir;
    fs::create_symlink("/dev/null", dir.file("null.json"));
    ASSERT_EQ(::mkfifo(dir.file("pipe").c_str(), 0644), 0);
    fs::create_symlink(dir.file("pipe"), dir.file("pipe.csv"));
    for (const std::string& target : {std::string("/dev/stdout"), std::string("/dev/null"), std::string("/proc/self/fd/1"),
                                      std::string("/dev/faultline-new.json"), dir.file("null.json"), dir.file("pipe.csv")})
        for (const bool force : {false, true}) {
            const std::string why = refusal(target, OutputKind::Json, {}, force);
            EXPECT_FALSE(why.empty()) << target;
            EXPECT_EQ(why.find("--force"), std::string::npos) << why;
        }
    EXPECT_NE(refusal(dir.file("null.json"), OutputKind::Json, {}, true).find("a file of the system"), std::string::npos);
    EXPECT_NE(refusal(dir.file("pipe.csv"), OutputKind::Csv, {}, true).find("which is a FIFO"), std::string::npos);
    // The last guard of every writer refuses them too, whatever a caller checked.
    for (const std::string& target : {dir.file("null.json"), dir.file("pipe.csv")})
        EXPECT_THROW(writeThroughPartial(target, [](const std::string& partial) { writeText(partial, "{}"); }), Error) << target;
    EXPECT_TRUE(fs::is_symlink(dir.file("null.json")));
    EXPECT_TRUE(fs::is_fifo(dir.file("pipe")));
    // A link to a regular file is still replaced (not written through) when forced.
    writeText(dir.file("victim.txt"), "victim\n");
    fs::create_symlink(dir.file("victim.txt"), dir.file("planted.json"));
    EXPECT_EQ(refusal(dir.file("planted.json"), OutputKind::Json, {}, true), "");
}

}  // namespace
}  // namespace faultline
