// A reviewer's notes survive the app being killed mid-edit: they are saved as they are typed,
// and the next open says they were restored. The app's window types in a process of its own,
// which is killed with SIGKILL, as the kernel's OOM killer or a crash would end it: no
// destructor runs, no handler.
#include "gui_test_app.h"
#include "open_in_window.h"
#include "test_runs.h"

#include "analysis/incidents.h"
#include "app/main_window.h"
#include "model/incident_notes.h"
#include "model/review_file.h"
#include "model/run_file.h"
#include "views/incident_view.h"

#include <QLabel>
#include <QPlainTextEdit>
#include <QApplication>
#include <QStatusBar>
#include <QTest>
#include <QWindow>

#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <optional>

namespace faultline {
namespace {

// The note the review holds for any incident, as a later reader finds it on disk now.
std::string noteOnDisk(const std::string& runPath) {
    try {
        for (const auto& [begin, note] : readIncidentNotes(runPath))
            if (!note.notes.empty()) return note.notes;
    } catch (const std::exception&) {
        // Not written yet: the review file appears with the first note.
    }
    return {};
}

const QString kTyped = "Swapped the PSU; fans fine";

// The app's own window in a child process (gtest re-runs this binary for it): the reviewer
// selects the first incident (N), puts the cursor in its note (Ctrl+E) and types, as Qt
// delivers keys; once the note is on disk the child is killed with SIGKILL.
void typeANoteThenDie(const std::string& path) {
    test::WindowOnRun window(path);
    window.window.activateWindow();
    if (!window.shown || !QTest::qWaitForWindowActive(&window.window)) std::_Exit(3);
    // As the window system delivers keys: to the window, where its shortcuts answer.
    QWindow* keys = window.window.windowHandle();
    QTest::keyClick(keys, Qt::Key_N);
    QTest::keyClick(keys, Qt::Key_E, Qt::ControlModifier);
    auto* notes = window.window.findChild<QPlainTextEdit*>("incidentNotes");
    if (notes == nullptr || QApplication::focusWidget() != notes) std::_Exit(4);
    for (const QChar c : kTyped) QTest::keyClick(keys, c.toLatin1());
    // Saved as typed: the words reach the disk with no save asked for.
    if (!QTest::qWaitFor([&] { return noteOnDisk(path) == kTyped.toStdString(); }, 60'000)) std::_Exit(5);
    std::raise(SIGKILL);
}

TEST(ReviewCrash, ANoteTypedBeforeTheAppIsKilledIsThereWhenTheRunIsOpenedAgain) {
    test::guiApp();
    // The child runs this test again from its start: it finds the run this process wrote by
    // the environment it inherits.
    constexpr const char* kSharedRun = "FAULTLINE_REVIEW_CRASH_RUN";
    std::optional<test::ScratchDir> dir;  // the parent's; a killed child would leave its own
    std::string path;
    if (const char* parents = std::getenv(kSharedRun)) {
        path = parents;
    } else {
        path = dir.emplace().file("run.faultline");
        writeRunFile(test::tinyRun(), path);
        ::setenv(kSharedRun, path.c_str(), 1);
    }

    // A fresh process, not a fork of this one: a forked child would share this one's X
    // connection and threads.
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(typeANoteThenDie(path), testing::KilledBySignal(SIGKILL), "")
        << "exit 3: the run was not shown in an active window; 4: Ctrl+E did not put the cursor in the note; 5: the note never reached the disk";
    ::unsetenv(kSharedRun);
    ASSERT_EQ(noteOnDisk(path), kTyped.toStdString()) << "the note typed before the kill";

    test::WindowOnRun again(path);
    ASSERT_TRUE(again.shown);
    auto* notes = again.window.findChild<QPlainTextEdit*>("incidentNotes");
    auto* incidents = again.window.findChild<IncidentView*>("incidentView");
    ASSERT_NE(notes, nullptr);
    ASSERT_NE(incidents, nullptr);
    const QString restored = "Restored 1 note you typed before Faultline closed unexpectedly.";
    EXPECT_TRUE(again.window.findChild<QLabel*>("notesLocation")->text().startsWith(restored))
        << again.window.findChild<QLabel*>("notesLocation")->text().toStdString();
    EXPECT_TRUE(again.window.statusBar()->currentMessage().contains(restored)) << again.window.statusBar()->currentMessage().toStdString();
    again.window.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&again.window));
    QTest::keyClick(again.window.windowHandle(), Qt::Key_N);
    EXPECT_EQ(notes->toPlainText().toStdString(), kTyped.toStdString()) << "the first incident's note, as typed";
    // Said once: the window that restored them is the one that now edits them.
    test::WindowOnRun third(path);
    ASSERT_TRUE(third.shown);
    EXPECT_FALSE(third.window.findChild<QLabel*>("notesLocation")->text().contains("Restored"));
}

// A window that closes as it should leaves nothing to restore: the next open says nothing of
// it, and the open after a restore says it once only.
TEST(ReviewCrash, NothingIsSaidRestoredAfterAWindowClosedAsItShould) {
    test::guiApp();
    test::ScratchDir dir;
    const std::string path = dir.file("run.faultline");
    writeRunFile(test::tinyRun(), path);
    {
        test::WindowOnRun first(path);
        ASSERT_TRUE(first.shown);
        ASSERT_TRUE(first.window.findChild<IncidentView*>("incidentView")->selectIncident(buildIncidents(test::tinyRun()).front().id));
        auto* notes = first.window.findChild<QPlainTextEdit*>("incidentNotes");
        first.window.findChild<QAction*>("writeNoteAction")->trigger();
        ASSERT_EQ(first.window.focusWidget(), notes) << "Ctrl+E puts the cursor in the note";
        QTest::keyClicks(notes, "closed as it should");
        first.window.findChild<IncidentView*>("incidentView")->saveNow();
        ASSERT_EQ(noteOnDisk(path), "closed as it should");
        bool marked = false;
        for (const auto& entry : std::filesystem::directory_iterator(dir.path()))
            marked |= entry.path().filename().string().starts_with("run.faultline-review.editing-");
        EXPECT_TRUE(marked) << "an open window marks the review it edits";
    }
    for (const auto& entry : std::filesystem::directory_iterator(dir.path()))
        EXPECT_FALSE(entry.path().filename().string().starts_with("run.faultline-review.editing-")) << entry.path();
    test::WindowOnRun again(path);
    ASSERT_TRUE(again.shown);
    EXPECT_FALSE(again.window.findChild<QLabel*>("notesLocation")->text().contains("Restored"));
    EXPECT_FALSE(again.window.statusBar()->currentMessage().contains("Restored"));
}

}  // namespace
}  // namespace faultline
