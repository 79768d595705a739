#include "test_runs.h"

#include "model/error.h"
#include "model/incident_notes.h"
#include "model/review_file.h"
#include "model/run_file.h"
#include "model/sqlite_db.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <cstdlib>
#include <sys/wait.h>
#include <unistd.h>

namespace faultline {
namespace {

using test::ScratchDir;

TEST(IncidentNotes, SavedNotesSurviveReopeningAndLeaveTheRunAsItWas) {
    ScratchDir dir;
    const std::string path = dir.file("run.faultline");
    writeRunFile(test::tinyRun(), path);
    const Nanos begin = test::tinyRun().downtimes.at(2).begin;
    {
        IncidentNotesStore store(path);
        store.save({begin, "Replaced the HGX board; second HBM failure on this host.", RootCause::GpuHbm3Memory,
                    {"hbm", "repeat offender"}, 0});
    }
    IncidentNotesStore reopened(path);
    const auto notes = reopened.load();
    ASSERT_EQ(notes.size(), 1u);
    const IncidentNote& n = notes.at(begin);
    EXPECT_EQ(n.notes, "Replaced the HGX board; second HBM failure on this host.");
    EXPECT_EQ(n.confirmedCause, RootCause::GpuHbm3Memory);
    EXPECT_EQ(n.tags, (std::vector<std::string>{"hbm", "repeat offender"}));
    EXPECT_GT(n.updatedEpochNs, 0);
    // The imported data reads back unchanged, and the run file itself was never written.
    const faultline::Run run = readRunFile(path);
    EXPECT_EQ(run.downtimes.size(), test::tinyRun().downtimes.size());
    EXPECT_EQ(run.steps.size(), test::tinyRun().steps.size());
}

TEST(IncidentNotes, EmptyNoteIsRemoved) {
    ScratchDir dir;
    const std::string path = dir.file("run.faultline");
    writeRunFile(test::tinyRun(), path);
    IncidentNotesStore store(path);
    store.save({42, "draft", std::nullopt, {}, 0});
    ASSERT_EQ(store.load().size(), 1u);
    store.save({42, "  ", std::nullopt, {}, 0});
    EXPECT_TRUE(store.load().empty());
}

TEST(IncidentNotes, NoteSurvivesACrashRightAfterSaving) {
    ScratchDir dir;
    const std::string path = dir.file("run.faultline");
    writeRunFile(test::tinyRun(), path);
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        IncidentNotesStore store(path);
        store.save({7, "written just before the crash", RootCause::Nic, {}, 0});
        _exit(9);  // no destructors, no clean close: as a crash leaves it
    }
    int status = 0;
    waitpid(child, &status, 0);
    EXPECT_EQ(IncidentNotesStore(path).load().at(7).notes, "written just before the crash");
}

TEST(IncidentNotes, OnlyRunFilesTakeNotes) {
    ScratchDir dir;
    std::ofstream(dir.file("notes.txt")) << "hello";
    EXPECT_THROW(IncidentNotesStore(dir.file("notes.txt")), Error);
}

TEST(IncidentNotes, SavingNotesLeavesTheRunFileByteForByteAndWritesTheReviewBesideIt) {
    ScratchDir dir;
    const std::string path = dir.file("run.faultline");
    writeRunFile(test::tinyRun(), path);
    const std::string before = test::fileChecksum(path);
    IncidentNotesStore store(path);
    EXPECT_EQ(store.reviewPath(), path + "-review");
    EXPECT_FALSE(std::filesystem::exists(path + "-review")) << "opening for notes must write nothing";
    store.save({42, "Replaced the NIC.", RootCause::Nic, {"nic"}, 0});
    EXPECT_TRUE(std::filesystem::exists(path + "-review"));
    EXPECT_EQ(test::fileChecksum(path), before);
    EXPECT_TRUE(readRunFileNotes(path).empty());
    EXPECT_EQ(readIncidentNotes(path).at(42).notes, "Replaced the NIC.");
    for (const auto& entry : std::filesystem::directory_iterator(dir.path()))
        EXPECT_EQ(entry.path().filename().string().find(".partial-"), std::string::npos) << entry.path();
}

TEST(IncidentNotes, WriteProtectedRunFileTakesNotesBesideIt) {
    ScratchDir dir;
    const std::string path = dir.file("run.faultline");
    writeRunFile(test::tinyRun(), path);
    std::filesystem::permissions(path, std::filesystem::perms::owner_read | std::filesystem::perms::group_read);
    const std::string before = test::fileChecksum(path);
    IncidentNotesStore store(path);
    store.save({42, "noted", std::nullopt, {}, 0});
    EXPECT_EQ(readIncidentNotes(path).at(42).notes, "noted");
    EXPECT_EQ(test::fileChecksum(path), before);
    try {
        saveReviewIntoRunFile(path);
        ADD_FAILURE() << "a write-protected run file was written";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("write-protected"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find(path + "-review"), std::string::npos) << e.what();
    }
    EXPECT_EQ(test::fileChecksum(path), before);
}

TEST(IncidentNotes, WriteProtectedFolderKeepsTheReviewInTheUserDataFolder) {
    ScratchDir dir;
    const std::filesystem::path runs = dir.path() / "evidence";
    std::filesystem::create_directories(runs);
    const std::string path = (runs / "run.faultline").string();
    writeRunFile(test::tinyRun(), path);
    std::filesystem::permissions(runs, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
    const std::string data = dir.file("xdg");
    ::setenv("XDG_DATA_HOME", data.c_str(), 1);
    const std::string review = reviewFilePath(path);
    EXPECT_EQ(review.rfind(data + "/faultline/reviews/run.faultline-", 0), 0u) << review;
    IncidentNotesStore(path).save({5, "kept elsewhere", std::nullopt, {"x"}, 0});
    EXPECT_TRUE(std::filesystem::exists(review));
    EXPECT_EQ(readIncidentNotes(path).at(5).tags, std::vector<std::string>{"x"});
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(runs), std::filesystem::directory_iterator()), 1);
    ::unsetenv("XDG_DATA_HOME");
    std::filesystem::permissions(runs, std::filesystem::perms::owner_all);
}

TEST(IncidentNotes, SaveReviewIntoRunFileOnlyWhenAsked) {
    ScratchDir dir;
    const std::string path = dir.file("run.faultline");
    writeRunFile(test::tinyRun(), path);
    IncidentNotesStore store(path);
    store.save({11, "first", RootCause::FaultyGpu, {}, 0});
    store.save({12, "second", std::nullopt, {"a", "b"}, 0});
    ASSERT_TRUE(readRunFileNotes(path).empty());
    saveReviewIntoRunFile(path);
    EXPECT_FALSE(std::filesystem::exists(path + "-review"));
    const auto inRun = readRunFileNotes(path);
    ASSERT_EQ(inRun.size(), 2u);
    EXPECT_EQ(inRun.at(11).confirmedCause, RootCause::FaultyGpu);
    EXPECT_EQ(inRun.at(12).tags, (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(readRunFile(path).downtimes.size(), test::tinyRun().downtimes.size());
    // Further notes go to a review again, seeded from the run file's, which stays as saved.
    const std::string saved = test::fileChecksum(path);
    store.save({11, "", std::nullopt, {}, 0});
    EXPECT_EQ(readIncidentNotes(path).size(), 1u);
    EXPECT_EQ(readIncidentNotes(path).count(12), 1u);
    EXPECT_EQ(test::fileChecksum(path), saved);
}

TEST(IncidentNotes, AReviewFileOfAnotherKindIsRefused) {
    ScratchDir dir;
    const std::string path = dir.file("run.faultline");
    writeRunFile(test::tinyRun(), path);
    writeRunFile(test::tinyRun(), path + "-review");  // a run file where the review should be
    try {
        readIncidentNotes(path);
        ADD_FAILURE() << "read a run file as a review";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("is not a Faultline review file"), std::string::npos) << e.what();
    }
}

TEST(IncidentNotes, Tags) {
    EXPECT_EQ(splitTags(" hbm, ,repeat offender ,"), (std::vector<std::string>{"hbm", "repeat offender"}));
    EXPECT_EQ(joinTags({"a", "b c"}), "a, b c");
    EXPECT_TRUE(splitTags("").empty());
}

}  // namespace
}  // namespace faultline

namespace faultline {
namespace {

TEST(ReviewFile, ANewerFormatIsRefusedNeverMisreadNorOverwritten) {
    test::ScratchDir dir;
    const std::string run = dir.file("run.faultline");
    writeRunFile(test::tinyRun(), run);
    const Nanos begin = test::tinyRun().downtimes.front().begin;
    IncidentNotesStore store(run);
    store.save({begin, "first look", std::nullopt, {}, 0});
    {
        SqliteDb db(store.reviewPath(), SqliteDb::Mode::ReadWrite);
        db.exec("PRAGMA user_version=" + std::to_string(kReviewFileSchemaVersion + 1));
    }
    std::ifstream in(store.reviewPath(), std::ios::binary);
    const std::string before((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    try {
        readIncidentNotes(run);
        FAIL() << "a review of a newer format was read";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("written by a newer Faultline"), std::string::npos) << e.what();
    }
    EXPECT_THROW(store.save({begin, "second look", std::nullopt, {}, 0}), Error);
    std::ifstream again(store.reviewPath(), std::ios::binary);
    EXPECT_EQ(std::string((std::istreambuf_iterator<char>(again)), std::istreambuf_iterator<char>()), before);
}

TEST(IncidentNotes, AHugeNoteIsShownCutWithWhatIsLeft) {
    const std::string huge(40 * 1024 * 1024, 'x');
    const std::string shown = noteExcerpt(huge);
    EXPECT_LT(shown.size(), kNoteShownBytes + 100);
    EXPECT_NE(shown.find("more bytes in the review file"), std::string::npos);
    EXPECT_EQ(noteExcerpt("short"), "short");
    // Never cut inside a UTF-8 character.
    const std::string accents = std::string(kNoteShownBytes - 1, 'a') + "\xC3\xA9tait";
    EXPECT_EQ(noteExcerpt(accents).substr(kNoteShownBytes - 1, 1), "\n");
}

}  // namespace
}  // namespace faultline
