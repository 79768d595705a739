// The Jobs panel as a user sees it: the jobs that trained an imported run, every job on
// request, and a job picked moves the replay to its start.
#include "gui_test_app.h"

#include "importers/importer.h"
#include "views/jobs_view.h"

#include <QCheckBox>
#include <QLabel>
#include <QSignalSpy>
#include <QTableWidget>
#include <QtTest/QTest>

#include <gtest/gtest.h>

#include <cstdlib>

namespace faultline {
namespace {

std::string fixture(const char* name) { return std::string(FAULTLINE_IMPORTER_TESTDATA) + "/" + name; }

std::shared_ptr<const faultline::Run> retryRun() {
    ImportOptions options;
    options.jobName = "llm-pretrain";
    return std::make_shared<const faultline::Run>(importFiles({fixture("jobs/dependency-retry.sacct.json")}, options).run);
}

TEST(JobsView, ListsTheRunsJobsAndMovesTheReplayToOne) {
    test::guiApp();
    JobsView view;
    view.resize(900, 300);
    const auto run = retryRun();
    view.setRun(run);
    auto* table = view.findChild<QTableWidget*>("jobsTable");
    ASSERT_NE(table, nullptr);
    ASSERT_EQ(view.rowCount(), 2);  // the failed job and the retry that continued it
    EXPECT_EQ(table->item(0, 0)->text(), "500100");
    EXPECT_EQ(table->item(0, 2)->text(), "NODE_FAIL");
    EXPECT_FALSE(table->item(0, 8)->text().isEmpty()) << "what followed its end: the downtime's cause";
    EXPECT_EQ(table->item(1, 1)->text(), "llm-pretrain-retry");

    QSignalSpy time(&view, &JobsView::timeRequested);
    view.show();
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualItemRect(table->item(1, 0)).center());
    ASSERT_EQ(time.count(), 1);
    const Job& retry = run->jobs[static_cast<std::size_t>(view.jobAt(1))];
    EXPECT_EQ(retry.id, "500200");
    EXPECT_EQ(time.at(0).at(0).value<Nanos>(), *retry.start);

    view.findChild<QCheckBox*>("jobsShowAll")->setChecked(true);
    EXPECT_EQ(view.rowCount(), 3);  // and the other user's job
    if (const char* dir = std::getenv("FAULTLINE_TEST_SHOTS")) view.grab().save(QString("%1/jobs-view.png").arg(dir));
}

TEST(JobsView, SaysWhyARunHasNoJobs) {
    test::guiApp();
    JobsView view;
    view.setRun(std::make_shared<const faultline::Run>());
    EXPECT_EQ(view.rowCount(), 0);
    auto* empty = view.findChild<QLabel*>("jobsEmpty");
    ASSERT_NE(empty, nullptr);
    EXPECT_TRUE(empty->text().contains("No jobs in this run"));
}

}  // namespace
}  // namespace faultline
