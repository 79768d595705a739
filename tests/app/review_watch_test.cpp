// The open run's review changed by someone else (the same run in another app, a reviewer on a
// shared folder) is noticed and shown: the Incidents panel shows the other reviewer's note, the
// status bar says what happened; this window's own saves are not reported (issue 39).
#include "gui_test_app.h"
#include "open_in_window.h"
#include "test_runs.h"

#include "analysis/incidents.h"
#include "app/main_window.h"
#include "app/review_watcher.h"
#include "model/incident_notes.h"
#include "model/run_file.h"
#include "views/incident_view.h"

#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTest>

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

namespace faultline {
namespace {

using test::ScratchDir;

// Another process saves a note, as another app or reviewer would.
void saveElsewhere(const std::string& run, Nanos begin, const std::string& text) {
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        try {
            IncidentNotesStore(run).save({begin, text, std::nullopt, {}, 0});
        } catch (...) {
            _exit(1);
        }
        _exit(0);
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

TEST(ReviewWatch, ANoteSavedElsewhereIsShownAndSaid) {
    test::guiApp();
    ScratchDir dir;
    const std::string run = dir.file("run.faultline");
    writeRunFile(test::tinyRun(), run);
    const std::vector<Incident> incidents = buildIncidents(test::tinyRun());
    ASSERT_GE(incidents.size(), 2u);
    MainWindow window;
    window.show();
    ASSERT_TRUE(test::openAndWait(window, run));
    auto* panel = window.findChild<IncidentView*>("incidentView");
    auto* notes = window.findChild<QPlainTextEdit*>("incidentNotes");
    ASSERT_TRUE(panel && notes);
    ASSERT_TRUE(panel->selectIncident(incidents[0].id));
    // This window's own save is not news.
    IncidentNotesStore(run).save({incidents[1].begin, "saved here", std::nullopt, {}, 0});
    QTest::qWait(0);
    saveElsewhere(run, incidents[0].begin, "from the reviewer on the night shift");
    QTRY_VERIFY_WITH_TIMEOUT(notes->toPlainText() == "from the reviewer on the night shift", 30000);
    EXPECT_TRUE(window.statusBar()->currentMessage().contains("changed in another window or by another reviewer"))
        << window.statusBar()->currentMessage().toStdString();
    EXPECT_EQ(panel->selectedIncidentId(), incidents[0].id) << "the reviewer's selection stays";
    const auto saved = readIncidentNotes(run);
    EXPECT_EQ(saved.at(incidents[1].begin).notes, "saved here");
}

TEST(ReviewWatch, ThisProcesssOwnSavesAreNotReported) {
    test::guiApp();
    ScratchDir dir;
    const std::string run = dir.file("run.faultline");
    writeRunFile(test::tinyRun(), run);
    IncidentNotesStore here(run);
    here.save({1, "first", std::nullopt, {}, 0});
    ReviewWatcher watcher;
    QSignalSpy changed(&watcher, &ReviewWatcher::changedOutside);
    watcher.watch(QString::fromStdString(run + "-review"));
    // Checked at once after each save (no event loop runs between): a report for the other
    // process's saves only.
    for (int round = 1; round <= 3; ++round) {
        here.save({100 + round, "saved here", std::nullopt, {}, 0});
        watcher.checkNow();
        EXPECT_EQ(changed.count(), round - 1) << "round " << round << ": this process's own save reported";
        saveElsewhere(run, 200 + round, "elsewhere");
        watcher.checkNow();
        EXPECT_EQ(changed.count(), round) << "round " << round << ": the other's save not reported";
    }
    EXPECT_EQ(readIncidentNotes(run).size(), 7u);
}

}  // namespace
}  // namespace faultline
