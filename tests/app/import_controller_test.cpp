// File > Import as a user sees it: the progress dialog, the report, Cancel, errors, and
// files dropped onto the window; the window keeps processing events while parsing runs.
#include "gui_test_app.h"

#include "app/import_controller.h"
#include "app/import_dialog.h"
#include "model/run_file.h"
#include "test_runs.h"
#include "realdata.h"

#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTimer>
#include <QUrl>
#include <QWidget>
#include <QtTest/QTest>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace faultline {
namespace {

QString realData(const char* rel) { return QString::fromStdString(test::realData(rel)); }
QString fixture(const char* name) { return QString(FAULTLINE_IMPORTER_TESTDATA) + "/" + name; }

TEST(ImportGui, ImportShowsTheReportAndWritesTheRun) {
    test::guiApp();
    FAULTLINE_REQUIRE_REALDATA();
    test::ScratchDir dir;
    QWidget window;
    ImportController controller(&window);
    QSignalSpy imported(&controller, &ImportController::imported);
    const QString out = QString::fromStdString(dir.file("run.faultline"));
    // The window's event loop keeps running while the traces are parsed off the GUI thread.
    int ticks = 0;
    QTimer ticker;
    QObject::connect(&ticker, &QTimer::timeout, [&] { ++ticks; });
    ticker.start(10);
    // The traces and a kernel log of the same night (files of different years would be refused).
    const std::string kernel = dir.file("node01.log");
    std::ofstream(kernel) << "[Fri Apr 28 23:51:39 2023] NVRM: Xid (PCI:0000:18:00): 79, pid=1, name=python, GPU has fallen off the bus.\n";
    controller.importPaths({realData("kineto/HolisticTraceAnalysis/tests/data/trace_filter"), QString::fromStdString(kernel)}, out);
    ASSERT_TRUE(controller.busy());
    ASSERT_TRUE(imported.wait(60000));
    EXPECT_GT(ticks, 0);
    EXPECT_EQ(imported.at(0).at(0).toString(), out);
    ImportDialog* dialog = controller.dialog();
    ASSERT_NE(dialog, nullptr);
    EXPECT_TRUE(dialog->isVisible());
    EXPECT_NE(dialog->reportText().indexOf("format: kineto"), -1) << dialog->reportText().toStdString();
    EXPECT_NE(dialog->reportText().indexOf("format: kernel-log"), -1);
    EXPECT_EQ(dialog->findChild<QProgressBar*>("importProgress")->value(), 1000);
    EXPECT_FALSE(dialog->findChild<QPushButton*>("importCancel")->isVisible());
    EXPECT_EQ(readRunFile(out.toStdString()).collectives.size(), 20u);
}

TEST(ImportGui, CancelWritesNothing) {
    test::guiApp();
    FAULTLINE_REQUIRE_REALDATA();
    test::ScratchDir dir;
    QWidget window;
    ImportController controller(&window);
    QSignalSpy cancelled(&controller, &ImportController::importCancelled);
    const QString out = QString::fromStdString(dir.file("run.faultline"));
    controller.importPaths({realData("kineto/HolisticTraceAnalysis/tests/data")}, out);
    QTest::mouseClick(controller.dialog()->findChild<QPushButton*>("importCancel"), Qt::LeftButton);
    ASSERT_TRUE(cancelled.wait(60000));
    EXPECT_FALSE(std::filesystem::exists(out.toStdString()));
    EXPECT_NE(controller.dialog()->statusText().indexOf("cancelled; nothing was written"), -1);
    EXPECT_FALSE(controller.busy());
}

TEST(ImportGui, UnknownFileIsNamedInTheDialog) {
    test::guiApp();
    test::ScratchDir dir;
    QWidget window;
    ImportController controller(&window);
    QSignalSpy failed(&controller, &ImportController::importFailed);
    const QString out = QString::fromStdString(dir.file("run.faultline"));
    controller.importPaths({fixture("garbage.bin")}, out);
    ASSERT_TRUE(failed.wait(60000));
    EXPECT_NE(failed.at(0).at(0).toString().indexOf(fixture("garbage.bin") + ": unknown format"), -1);
    EXPECT_NE(controller.dialog()->statusText().indexOf("nothing was written"), -1);
    EXPECT_FALSE(std::filesystem::exists(out.toStdString()));
}

TEST(ImportGui, FilesDroppedOnTheWindowAreImported) {
    test::guiApp();
    test::ScratchDir dir;
    QWidget window;
    ImportController controller(&window);
    const QString out = QString::fromStdString(dir.file("dropped.faultline"));
    QStringList asked;
    controller.setOutputChooser([&](const QStringList& inputs) {
        asked = inputs;
        return out;
    });
    controller.setNameChooser([](const QStringList&) { return std::optional<QString>("snowman outage"); });
    QSignalSpy imported(&controller, &ImportController::imported);
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(fixture("sacct_snowman.txt"))});
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &enter);
    EXPECT_TRUE(enter.isAccepted());
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &drop);
    EXPECT_TRUE(drop.isAccepted());
    ASSERT_TRUE(imported.wait(60000));
    EXPECT_EQ(asked, QStringList{fixture("sacct_snowman.txt")});
    EXPECT_EQ(readRunFile(out.toStdString()).failures.size(), 1u);
    EXPECT_EQ(readRunFile(out.toStdString()).info.name, "snowman outage") << "the name the user gave";
}

TEST(ImportGui, FilesFromYearsApartAreShownWithTheirSpansAndImportedOnlyWhenConfirmed) {
    test::guiApp();
    test::ScratchDir dir;
    const std::string kernel = dir.file("node17.log");
    std::ofstream(kernel) << "[Tue Jan 21 04:41:44 2025] NVRM: Xid (PCI:0000:9a:00): 79, pid=1, name=python, GPU has fallen off the bus.\n";
    QWidget window;
    ImportController controller(&window);
    QSignalSpy failed(&controller, &ImportController::importFailed);
    QSignalSpy imported(&controller, &ImportController::imported);
    const QString out = QString::fromStdString(dir.file("run.faultline"));
    controller.importPaths({QString::fromStdString(kernel), fixture("sacct_snowman.txt")}, out);
    ASSERT_TRUE(failed.wait(60000));
    ImportDialog* dialog = controller.dialog();
    EXPECT_NE(dialog->statusText().indexOf("do not look like one run"), -1) << dialog->statusText().toStdString();
    EXPECT_NE(dialog->reportText().indexOf("2025-01-21"), -1) << dialog->reportText().toStdString();
    EXPECT_NE(dialog->reportText().indexOf("2021-07-"), -1) << dialog->reportText().toStdString();
    EXPECT_FALSE(std::filesystem::exists(out.toStdString())) << "nothing written before the user confirms";
    auto* anyway = dialog->findChild<QPushButton*>("importAnyway");
    ASSERT_TRUE(anyway->isVisible());
    QTest::mouseClick(anyway, Qt::LeftButton);
    ASSERT_TRUE(imported.wait(60000));
    EXPECT_TRUE(std::filesystem::exists(out.toStdString()));
    EXPECT_FALSE(anyway->isVisible());
}

TEST(ImportGui, DragOfNonFilesIsIgnored) {
    test::guiApp();
    QWidget window;
    ImportController controller(&window);
    QMimeData mime;
    mime.setText("not a file");
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    enter.setAccepted(false);
    QApplication::sendEvent(&window, &enter);
    EXPECT_FALSE(enter.isAccepted());
}

}  // namespace
}  // namespace faultline
