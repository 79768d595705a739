// Two writers of one review (the same run open in two windows, two reviewers on a shared
// folder, the CLI beside the app) keep every note and viewpoint each of them saved; a save on
// a full disk says so and leaves the review as it was.
#include "saved_camera.h"
#include "test_runs.h"
#include "write_faults.h"

#include "model/error.h"
#include "model/incident_notes.h"
#include "model/review_file.h"
#include "model/run_file.h"
#include "model/sqlite_db.h"
#include "model/viewpoints.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <limits>
#include <thread>
#include <sys/wait.h>
#include <unistd.h>

namespace faultline {
namespace {

using test::ScratchDir;

// `count` notes on incidents first, first + 1...: each save through its own store, as the
// Incidents panel saves a note the moment it is typed.
void saveNotes(const std::string& run, Nanos first, int count, const std::string& writer) {
    IncidentNotesStore store(run);
    for (int i = 0; i < count; ++i) store.save({first + i, writer + " note " + std::to_string(i), std::nullopt, {writer}, 0});
}

TEST(ReviewConcurrency, TwoProcessesSavingFortyNotesEachKeepAllEighty) {
    ScratchDir dir;
    const std::string run = dir.file("run.faultline");
    writeRunFile(test::tinyRun(), run);
    std::vector<pid_t> writers;
    for (const auto& [first, name] : {std::pair<Nanos, const char*>{1000, "writerA"}, {5000, "writerB"}}) {
        const pid_t child = fork();
        ASSERT_GE(child, 0);
        if (child == 0) {
            try {
                saveNotes(run, first, 40, name);
            } catch (const std::exception&) {
                _exit(1);
            }
            _exit(0);
        }
        writers.push_back(child);
    }
    for (const pid_t child : writers) {
        int status = 0;
        ASSERT_EQ(waitpid(child, &status, 0), child);
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "a writer failed to save";
    }
    const auto notes = readIncidentNotes(run);
    EXPECT_EQ(notes.size(), 80u) << "every save succeeded: every note must be in the review";
    for (int i = 0; i < 40; ++i) {
        EXPECT_EQ(notes.count(1000 + i), 1u) << "writerA's note " << i;
        EXPECT_EQ(notes.count(5000 + i), 1u) << "writerB's note " << i;
    }
    // Nothing is left beside the review: no partial file, no lock file.
    for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
        const std::string name = entry.path().filename().string();
        EXPECT_TRUE(name == "run.faultline" || name == "run.faultline-review") << name;
    }
}

TEST(ReviewConcurrency, NotesAndViewpointsSavedAtOnceByTwoWindowsKeepEachOther) {
    ScratchDir dir;
    const std::string run = dir.file("run.faultline");
    writeRunFile(test::tinyRun(), run);
    // Threads with stores of their own: the lock holds between two windows of one app too.
    std::thread notes([&] { saveNotes(run, 100, 30, "panel"); });
    std::thread views([&] {
        ViewpointStore store(run);
        for (int i = 0; i < 30; ++i) store.save(test::savedCamera("view " + std::to_string(i), i));
    });
    notes.join();
    views.join();
    EXPECT_EQ(readIncidentNotes(run).size(), 30u);
    EXPECT_EQ(readViewpoints(run).size(), 30u);
}

TEST(ReviewConcurrency, ANoteDeletedByOneWriterStaysDeletedAndTheNewestWriteOfANoteWins) {
    ScratchDir dir;
    const std::string run = dir.file("run.faultline");
    writeRunFile(test::tinyRun(), run);
    IncidentNotesStore first(run), second(run);
    first.save({1, "kept", std::nullopt, {}, 0});
    first.save({2, "to be deleted", std::nullopt, {}, 0});
    second.save({2, "", std::nullopt, {}, 0});  // the other window deletes it
    first.save({3, "later", std::nullopt, {}, 0});  // and this one's next save does not bring it back
    auto notes = readIncidentNotes(run);
    EXPECT_EQ(notes.count(2), 0u);
    EXPECT_EQ(notes.at(1).notes, "kept");
    // A note stamped by a clock ahead of this machine's: this later write still wins and
    // reads as the newest.
    std::map<Nanos, IncidentNote> ahead = notes;
    ahead[1].updatedEpochNs = std::numeric_limits<std::int64_t>::max() / 2;
    writeReviewFile(run, run + "-review", ahead, {});
    second.save({1, "rewritten", std::nullopt, {}, 0});
    notes = readIncidentNotes(run);
    EXPECT_EQ(notes.at(1).notes, "rewritten");
    EXPECT_GT(notes.at(1).updatedEpochNs, ahead[1].updatedEpochNs);
}

TEST(ReviewConcurrency, NotesSavedWhileTheReviewGoesIntoTheRunFileAreKept) {
    ScratchDir dir;
    const std::string run = dir.file("run.faultline");
    writeRunFile(test::tinyRun(), run);
    saveNotes(run, 1, 5, "before");
    std::thread writer([&] { saveNotes(run, 100, 20, "during"); });
    saveReviewIntoRunFile(run);
    writer.join();
    // Each note is in the run file or in the review begun after it: none is lost.
    EXPECT_EQ(readIncidentNotes(run).size(), 25u);
}

TEST(ReviewConcurrency, ASaveOnAFullDiskSaysSoAndLeavesTheReviewAsItWas) {
    ScratchDir dir;
    test::FullDisk disk(dir.path() / "full", 8 << 20);
    if (!disk.available()) GTEST_SKIP() << "needs root to mount a small tmpfs";
    const std::string run = disk.file("run.faultline");
    writeRunFile(test::oneFailureRun(), run);  // small: the tmpfs holds it twice
    saveNotes(run, 1, 3, "first");
    const std::string before = test::fileChecksum(run + "-review");
    const std::string runBefore = test::fileChecksum(run);
    disk.fill();
    IncidentNotesStore store(run);
    try {
        store.save({50, std::string(200000, 'n'), std::nullopt, {}, 0});
        ADD_FAILURE() << "a save on a full disk must fail";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("no space left on device"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find(run + "-review"), std::string::npos) << e.what();
    }
    EXPECT_EQ(test::fileChecksum(run + "-review"), before);
    EXPECT_EQ(readIncidentNotes(run).size(), 3u);
    // File > Save Review into Run File: the same words, never "Input/output error".
    try {
        saveReviewIntoRunFile(run);
        ADD_FAILURE() << "saving the review into the run on a full disk must fail";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("no space left on device"), std::string::npos) << e.what();
        EXPECT_EQ(std::string(e.what()).find("Input/output error"), std::string::npos) << e.what();
    }
    EXPECT_EQ(test::fileChecksum(run), runBefore);
    EXPECT_EQ(test::fileChecksum(run + "-review"), before);
    for (const auto& entry : std::filesystem::directory_iterator(disk.file("")))
        EXPECT_EQ(entry.path().filename().string().find(".partial-"), std::string::npos) << entry.path();
}

TEST(ReviewConcurrency, ASaveWhoseWritesAreRefusedNamesTheReviewAndTheCause) {
    ScratchDir dir;
    const std::string run = dir.file("run.faultline");
    writeRunFile(test::tinyRun(), run);
    saveNotes(run, 1, 2, "first");
    const std::string before = test::fileChecksum(run + "-review");
    IncidentNotesStore store(run);
    {
        const test::FileSizeLimit limit(16 * 1024);
        try {
            store.save({50, std::string(100000, 'n'), std::nullopt, {}, 0});
            ADD_FAILURE() << "a save past the file size limit must fail";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find(run + "-review"), std::string::npos) << e.what();
            EXPECT_EQ(std::string(e.what()).find(".partial-"), std::string::npos) << e.what();
        }
    }
    EXPECT_EQ(test::fileChecksum(run + "-review"), before);
    EXPECT_EQ(readIncidentNotes(run).size(), 2u);
}

}  // namespace
}  // namespace faultline
