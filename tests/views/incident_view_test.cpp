#include "gui_test_app.h"
#include "test_runs.h"

#include "model/incident_notes.h"
#include "analysis/incidents.h"
#include "model/format.h"
#include "model/run_file.h"
#include "views/incident_table_model.h"
#include "views/incident_view.h"

#include <QApplication>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

namespace faultline {
namespace {

using test::ScratchDir;

struct Fixture {
    ScratchDir dir;
    std::string path = dir.file("run.faultline");
    std::shared_ptr<const faultline::Run> run;
    Fixture() {
        test::guiApp();
        writeRunFile(test::tinyRun(), path);
        run = std::make_shared<faultline::Run>(readRunFile(path));
    }
};

QRect cellRect(QTableView* table, int row, int column) { return table->visualRect(table->model()->index(row, column)); }

// Beside the evidence: what to check next for the selected incident's kind of failure, with
// its source; none for an incident the catalogue knows nothing of.
TEST(IncidentView, ShowsWhatToCheckNextBesideTheEvidence) {
    test::guiApp();
    IncidentView view;
    view.resize(1000, 700);
    view.show();
    auto crash = std::make_shared<const faultline::Run>(test::oneMinuteCrash());
    view.setRun(crash, QString());
    auto* next = view.findChild<QLabel*>("incidentNextChecks");
    ASSERT_NE(next, nullptr);
    EXPECT_FALSE(next->isVisible()) << "nothing selected yet";
    ASSERT_TRUE(view.selectIncident(1));
    EXPECT_TRUE(next->isVisible());
    EXPECT_TRUE(next->text().contains("What to check next"));
    EXPECT_TRUE(next->text().contains("Uncorrectable ECC error (CUDA)")) << next->text().toStdString();
    EXPECT_TRUE(next->text().contains("Source: NVIDIA, GPU Memory Error Management")) << next->text().toStdString();

    faultline::Run unknown = test::oneMinuteCrash();
    unknown.failures.front().cause = RootCause::Unknown;
    unknown.failures.front().detail = "the job stopped";
    unknown.failures.front().xid = 0;
    view.setRun(std::make_shared<const faultline::Run>(unknown), QString());
    ASSERT_TRUE(view.selectIncident(1));
    EXPECT_FALSE(next->isVisible()) << next->text().toStdString();
}

TEST(IncidentView, ClickingAnIncidentMovesTheReplayThere) {
    Fixture f;
    IncidentView view;
    view.resize(1000, 700);
    view.show();
    view.setRun(f.run, QString::fromStdString(f.path));
    auto* table = view.findChild<QTableView*>("incidentTable");
    const auto incidents = buildIncidents(*f.run);
    ASSERT_EQ(table->model()->rowCount(), static_cast<int>(incidents.size()));

    QSignalSpy selected(&view, &IncidentView::incidentSelected);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cellRect(table, 3, 2).center());
    ASSERT_EQ(selected.count(), 1);
    EXPECT_EQ(selected.at(0).at(0).value<Nanos>(), incidents[3].begin);
    EXPECT_EQ(view.selectedIncidentId(), 4);
    EXPECT_TRUE(view.findChild<QPlainTextEdit*>("incidentChain")->toPlainText().contains(QString::fromStdString(incidents[3].chain.back().what)));
}

QPoint headerPoint(QTableView* table, int column) {
    QHeaderView* header = table->horizontalHeader();
    return {header->sectionViewportPosition(column) + header->sectionSize(column) / 2, header->height() / 2};
}

TEST(IncidentView, SortingAndFocusNeverSelect) {
    Fixture f;
    IncidentView view;
    view.resize(1000, 700);
    view.show();
    view.setRun(f.run, QString::fromStdString(f.path));
    auto* table = view.findChild<QTableView*>("incidentTable");
    QSignalSpy selected(&view, &IncidentView::incidentSelected);
    QTest::mouseClick(table->horizontalHeader()->viewport(), Qt::LeftButton, {}, headerPoint(table, 5));
    QTest::mouseClick(table->horizontalHeader()->viewport(), Qt::LeftButton, {}, headerPoint(table, 5));
    table->setFocus(Qt::TabFocusReason);
    QApplication::processEvents();
    EXPECT_EQ(selected.count(), 0) << "sorting or tabbing into the list moved the replay";
    EXPECT_EQ(view.selectedIncidentId(), -1);
    EXPECT_TRUE(view.findChild<QLabel*>("incidentHeadline")->text().startsWith("Select an incident"));

    // With one selected, sorting keeps it and does not move the replay again.
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cellRect(table, 2, 1).center());
    ASSERT_EQ(selected.count(), 1);
    const int id = view.selectedIncidentId();
    QTest::mouseClick(table->horizontalHeader()->viewport(), Qt::LeftButton, {}, headerPoint(table, 0));
    EXPECT_EQ(selected.count(), 1);
    EXPECT_EQ(view.selectedIncidentId(), id);
}

TEST(IncidentView, ClickingTheSelectedIncidentAgainGoesBackToIt) {
    Fixture f;
    IncidentView view;
    view.resize(1000, 700);
    view.show();
    view.setRun(f.run, QString::fromStdString(f.path));
    auto* table = view.findChild<QTableView*>("incidentTable");
    QSignalSpy selected(&view, &IncidentView::incidentSelected);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cellRect(table, 3, 1).center());
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cellRect(table, 3, 1).center());
    ASSERT_EQ(selected.count(), 2);
    EXPECT_EQ(selected.at(1).at(0).value<Nanos>(), selected.at(0).at(0).value<Nanos>());
}

TEST(IncidentView, AKeyPressInTheListSelectsTheNextIncident) {
    Fixture f;
    IncidentView view;
    view.resize(1000, 700);
    view.show();
    view.setRun(f.run, QString::fromStdString(f.path));
    auto* table = view.findChild<QTableView*>("incidentTable");
    const auto incidents = buildIncidents(*f.run);
    QSignalSpy selected(&view, &IncidentView::incidentSelected);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cellRect(table, 0, 1).center());
    QTest::keyClick(table, Qt::Key_Down);
    ASSERT_EQ(selected.count(), 2);
    EXPECT_EQ(selected.at(1).at(0).value<Nanos>(), incidents[1].begin);
    EXPECT_EQ(view.selectedIncidentId(), incidents[1].id);
}

TEST(IncidentView, TheChainNamesWhoReportedAFailureAndWhoIsSuspected) {
    test::guiApp();
    auto run = std::make_shared<faultline::Run>(test::tinyRun());
    const auto incidents = buildIncidents(*run);
    const auto withFailure = std::find_if(incidents.begin(), incidents.end(), [](const Incident& i) { return i.failure >= 0; });
    ASSERT_NE(withFailure, incidents.end());
    Failure& f = run->failures.at(static_cast<std::size_t>(withFailure->failure));
    f.ranks = {0, 1, 2, 4};
    f.suspectRanks = {3};
    IncidentView view;
    view.setRun(run, QString());
    ASSERT_TRUE(view.selectIncident(withFailure->id));
    EXPECT_TRUE(view.findChild<QPlainTextEdit*>("incidentChain")->toPlainText().contains("reported by ranks 0-2,4; suspect rank 3"))
        << view.findChild<QPlainTextEdit*>("incidentChain")->toPlainText().toStdString();
}

// The list itself names who reported each failure and whom the logs suspect (a hang's culprit
// ranks), with the reason in the cell's tooltip: not only the selected incident's chain.
TEST(IncidentView, TheListNamesEachIncidentsSuspectsAndReportingRanks) {
    test::guiApp();
    auto run = std::make_shared<faultline::Run>(test::eighteenMillisecondHang());
    run->failures.front().ranks = {8, 11, 12, 13};
    run->failures.front().suspectRanks = {10, 15};
    IncidentView view;
    view.setRun(run, QString());
    auto* table = view.findChild<QTableView*>("incidentTable");
    ASSERT_NE(table, nullptr);
    EXPECT_EQ(table->model()->headerData(IncidentTableModel::Ranks, Qt::Horizontal).toString(), "Ranks");
    const QModelIndex cell = table->model()->index(0, IncidentTableModel::Ranks);
    EXPECT_EQ(cell.data().toString(), "reported by ranks 8,11-13; suspect ranks 10,15");
    EXPECT_TRUE(cell.data(Qt::ToolTipRole).toString().startsWith("reported by ranks 8,11-13; suspect ranks 10,15")) << cell.data(Qt::ToolTipRole).toString().toStdString();
    EXPECT_FALSE(table->isColumnHidden(IncidentTableModel::Ranks));
    // 18 ms of dumps cannot say how much work was lost: "unknown", as the summary's tile says
    // "not enough of the run to say", never "0 s".
    const QModelIndex lost = table->model()->index(0, IncidentTableModel::LostWork);
    EXPECT_EQ(lost.data().toString(), "unknown");
    EXPECT_TRUE(lost.data(Qt::ToolTipRole).toString().startsWith("not enough of the run to say: needs ")) << lost.data(Qt::ToolTipRole).toString().toStdString();
    // A run whose logs name no rank spends no width on the column.
    view.setRun(std::make_shared<faultline::Run>(test::tinyRun()), QString());
    EXPECT_TRUE(table->isColumnHidden(IncidentTableModel::Ranks));
    const Incident& first = buildIncidents(test::tinyRun()).front();
    EXPECT_EQ(table->model()->index(0, IncidentTableModel::LostWork).data().toString().toStdString(), formatDuration(first.lostWork))
        << "two days of steps: known";
}

TEST(IncidentView, NotesAreSavedBesideTheRunFileWhichStaysUnchangedAndComeBack) {
    Fixture f;
    const auto incidents = buildIncidents(*f.run);
    const std::string checksum = test::fileChecksum(f.path);
    {
        IncidentView view;
        view.show();
        view.setRun(f.run, QString::fromStdString(f.path));
        ASSERT_TRUE(view.selectIncident(2));
        auto* notes = view.findChild<QPlainTextEdit*>("incidentNotes");
        notes->setFocus();
        QTest::keyClicks(notes, "Swapped the GPU.");
        view.findChild<QComboBox*>("confirmedCause")->setCurrentIndex(1 + static_cast<int>(RootCause::FaultyGpu));
        QTest::keyClicks(view.findChild<QLineEdit*>("incidentTags"), "gpu, swap");
        // The edit is written after a short pause in typing: waited for, however busy the machine.
        EXPECT_TRUE(QTest::qWaitFor([&] { return std::filesystem::exists(f.path + "-review"); }, 30000));
    }
    EXPECT_EQ(test::fileChecksum(f.path), checksum) << "typing notes changed the run file";
    EXPECT_TRUE(std::filesystem::exists(f.path + "-review"));
    // Reopen the file as the app would after a restart.
    const auto saved = IncidentNotesStore(f.path).load();
    ASSERT_EQ(saved.count(incidents[1].begin), 1u);
    EXPECT_EQ(saved.at(incidents[1].begin).notes, "Swapped the GPU.");
    EXPECT_EQ(saved.at(incidents[1].begin).confirmedCause, RootCause::FaultyGpu);

    IncidentView again;
    again.setRun(f.run, QString::fromStdString(f.path));
    ASSERT_TRUE(again.selectIncident(2));
    EXPECT_EQ(again.findChild<QPlainTextEdit*>("incidentNotes")->toPlainText(), "Swapped the GPU.");
    EXPECT_EQ(again.findChild<QLineEdit*>("incidentTags")->text(), "gpu, swap");
    auto* table = again.findChild<QTableView*>("incidentTable");
    EXPECT_EQ(table->model()->index(1, IncidentTableModel::Tags).data().toString(), "gpu, swap");
}

TEST(IncidentView, WriteProtectedRunSaysWhereNotesGoAndSavesIntoItOnlyWhenAsked) {
    Fixture f;
    std::filesystem::permissions(f.path, std::filesystem::perms::owner_read | std::filesystem::perms::group_read);
    const std::string checksum = test::fileChecksum(f.path);
    IncidentView view;
    view.show();
    view.setRun(f.run, QString::fromStdString(f.path));
    const QString where = view.findChild<QLabel*>("notesLocation")->text();
    EXPECT_TRUE(where.contains("write-protected")) << where.toStdString();
    EXPECT_TRUE(where.contains(QString::fromStdString(f.path + "-review"))) << where.toStdString();
    ASSERT_TRUE(view.selectIncident(1));
    QTest::keyClicks(view.findChild<QPlainTextEdit*>("incidentNotes"), "Checked the cable.");
    view.saveNow();
    EXPECT_EQ(test::fileChecksum(f.path), checksum);
    QSignalSpy failed(&view, &IncidentView::noteSaveFailed);
    EXPECT_FALSE(view.saveReviewIntoRunFile());
    ASSERT_EQ(failed.count(), 1);
    EXPECT_TRUE(failed.at(0).at(0).toString().contains("write-protected"));
    EXPECT_EQ(test::fileChecksum(f.path), checksum);

    std::filesystem::permissions(f.path, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
    EXPECT_TRUE(view.saveReviewIntoRunFile());
    EXPECT_NE(test::fileChecksum(f.path), checksum);
    EXPECT_EQ(readRunFileNotes(f.path).begin()->second.notes, "Checked the cable.");
    EXPECT_FALSE(std::filesystem::exists(f.path + "-review"));
}

TEST(IncidentView, FilterNarrowsTheList) {
    Fixture f;
    IncidentView view;
    view.setRun(f.run, QString::fromStdString(f.path));
    auto* table = view.findChild<QTableView*>("incidentTable");
    const int all = table->model()->rowCount();
    QTest::keyClicks(view.findChild<QLineEdit*>("incidentFilter"), "Planned");
    const int planned = table->model()->rowCount();
    EXPECT_EQ(planned, 2);
    EXPECT_LT(planned, all);
}

// Triage: the costliest incident first, whichever column; what is unknown (a recovery the
// run does not show ending) last, ascending or descending; planned work apart on request.
TEST(IncidentView, SortsUnknownsLastAndFiltersPlannedWork) {
    Fixture f;
    IncidentView view;
    view.setRun(f.run, QString::fromStdString(f.path));
    auto* table = view.findChild<QTableView*>("incidentTable");
    const auto incidents = buildIncidents(*f.run);
    for (int column : {int(IncidentTableModel::Downtime), int(IncidentTableModel::GpuHoursLost)})
        for (Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
            table->sortByColumn(column, order);
            const int rows = table->model()->rowCount();
            bool seenUnknown = false;
            for (int r = 0; r < rows; ++r) {
                const bool known = table->model()->index(r, column).data(Qt::UserRole).isValid();
                EXPECT_FALSE(known && seenUnknown) << "column " << column << " order " << order << ": a known value after an unknown one";
                seenUnknown |= !known;
            }
            if (order == Qt::DescendingOrder && column == IncidentTableModel::GpuHoursLost) {
                double most = 0;
                for (const Incident& i : incidents) most = std::max(most, i.gpuHoursLost.value_or(0.0));
                EXPECT_DOUBLE_EQ(table->model()->index(0, column).data(Qt::UserRole).toDouble(), most);
                EXPECT_EQ(table->model()->index(0, column).data().toString().toStdString(), gpuHoursText(most));
            }
        }
    auto* kind = view.findChild<QComboBox*>("incidentKind");
    ASSERT_TRUE(kind);
    const int all = table->model()->rowCount();
    kind->setCurrentIndex(2);  // planned
    const int planned = table->model()->rowCount();
    EXPECT_EQ(planned, static_cast<int>(std::count_if(incidents.begin(), incidents.end(), [](const Incident& i) { return i.planned; })));
    kind->setCurrentIndex(1);  // unexpected
    EXPECT_EQ(table->model()->rowCount(), all - planned);
    kind->setCurrentIndex(0);
    EXPECT_EQ(table->model()->rowCount(), all);
}

TEST(IncidentView, SortsByLostWork) {
    Fixture f;
    IncidentView view;
    view.setRun(f.run, QString::fromStdString(f.path));
    auto* table = view.findChild<QTableView*>("incidentTable");
    table->sortByColumn(IncidentTableModel::LostWork, Qt::DescendingOrder);
    const auto incidents = buildIncidents(*f.run);
    Nanos most = 0;
    for (const Incident& i : incidents) most = std::max(most, i.lostWork);
    EXPECT_EQ(table->model()->index(0, IncidentTableModel::LostWork).data(Qt::UserRole).toLongLong(), most);
}

}  // namespace
}  // namespace faultline
