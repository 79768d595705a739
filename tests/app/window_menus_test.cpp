// Every window a finished window: the comparison and the hang windows have the main window's
// File (Open Run, Open Recent, Close Ctrl+W, Quit Ctrl+Q) and Help menus; the hang window
// closes on Esc and opens wholly on the screen.
#include "gui_test_app.h"
#include "test_runs.h"

#include "app/compare_window.h"
#include "app/hang_window.h"
#include "model/run_file.h"
#include "views/hang_view.h"
#include "analysis/hang_lanes.h"
#include "analysis/straggler_analysis.h"
#include "analysis/summary.h"

#include <QAction>
#include <QApplication>
#include <QMainWindow>
#include <QMenu>
#include <QLabel>
#include <QMenuBar>
#include <QPointer>
#include <QScreen>
#include <QTest>

#include <gtest/gtest.h>

namespace faultline {
namespace {

QStringList menuTitles(const QMenuBar& bar) {
    QStringList titles;
    for (QAction* a : bar.actions()) titles << a->text().remove('&');
    return titles;
}

// The File and Help entries a window shares with the main window, with their keys.
void expectSharedMenus(QWidget& window) {
    auto* bar = window.findChild<QMenuBar*>();
    ASSERT_NE(bar, nullptr) << window.objectName().toStdString() << " has no menu bar";
    EXPECT_TRUE(menuTitles(*bar).contains("File"));
    EXPECT_TRUE(menuTitles(*bar).contains("Help"));
    EXPECT_NE(window.findChild<QMenu*>("openRecentMenu"), nullptr);
    auto key = [&](const char* name) {
        auto* a = window.findChild<QAction*>(name);
        return a ? a->shortcut() : QKeySequence(QString("<no %1>").arg(name));
    };
    EXPECT_EQ(key("closeWindowAction"), QKeySequence(QKeySequence::Close));
    EXPECT_EQ(key("quitAction"), QKeySequence(QKeySequence::Quit));
    EXPECT_EQ(key("documentationAction"), QKeySequence(QKeySequence::HelpContents));
    EXPECT_EQ(key("shortcutsAction"), QKeySequence(Qt::CTRL | Qt::Key_Slash));
    EXPECT_NE(window.findChild<QAction*>("aboutAction"), nullptr);
}

TEST(WindowMenus, TheComparisonWindowHasFileAndHelpAndCtrlWClosesIt) {
    test::guiApp();
    test::ScratchDir dir;
    writeRunFile(test::tinyRun(), dir.file("a.faultline"));
    auto* window = new CompareWindow;
    window->setAttribute(Qt::WA_DeleteOnClose);
    QPointer<CompareWindow> alive(window);
    window->showComparison(loadComparison(QString::fromStdString(dir.file("a.faultline")), QString::fromStdString(dir.file("a.faultline"))));
    expectSharedMenus(*window);
    window->activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(window));
    // Help > Keyboard Shortcuts opens from it, and Ctrl+W closes it.
    window->findChild<QAction*>("shortcutsAction")->trigger();
    EXPECT_NE(window->findChild<QWidget*>("shortcutsWindow"), nullptr);
    window->findChild<QWidget*>("shortcutsWindow")->close();
    window->activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(window));
    QTest::keyClick(window->windowHandle(), Qt::Key_W, Qt::ControlModifier);
    EXPECT_TRUE(QTest::qWaitFor([&] { return alive.isNull(); }, 30'000)) << "Ctrl+W left the comparison open";
}

TEST(WindowMenus, TheHangWindowHasFileAndHelpClosesOnEscAndOpensOnScreen) {
    test::guiApp();
    test::ScratchDir dir;
    writeRunFile(test::tinyRun(), dir.file("a.faultline"));
    const auto run = loadRun(QString::fromStdString(dir.file("a.faultline")));
    // Opened from a window pushed to the bottom-right corner of a small screen.
    QMainWindow from;
    const QRect free = from.screen()->availableGeometry();
    from.resize(600, 400);
    from.move(free.right() - 300, free.bottom() - 200);
    from.show();
    auto* hang = new HangWindow(run, &from);
    hang->setAttribute(Qt::WA_DeleteOnClose);
    QPointer<HangWindow> alive(hang);
    expectSharedMenus(*hang);
    hang->show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(hang));
    EXPECT_TRUE(free.contains(hang->geometry())) << "the hang window reaches past the screen";
    hang->activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(hang));
    QTest::keyClick(hang->windowHandle(), Qt::Key_Escape);
    EXPECT_TRUE(QTest::qWaitFor([&] { return alive.isNull(); }, 30'000)) << "Esc left the hang window open";
}

// A hang whose dumps hold no collective records: the lanes name culprit and waiter, no arrow
// links them, and the headline promises none.
TEST(WindowMenus, TheHangHeadlinePromisesArrowsOnlyWhereTheyAreDrawn) {
    test::guiApp();
    auto loaded = std::make_shared<LoadedRun>();
    loaded->path = "hung.faultline";
    loaded->run = test::tinyRun();
    loaded->run.collectives.clear();
    HangFinding finding;
    finding.processGroup = "0";
    finding.groupRanks = {0, 1};
    finding.seq = 5;
    finding.op = "nccl:all_reduce";
    finding.missing = {0};
    finding.stuck = {1};
    HangReport hang;
    hang.dumps = 2;
    hang.findings = {finding};
    hang.origins = {HangOrigin{0, {0}, {1}}};
    hang.culprits = {0};
    loaded->run.hang = hang;
    loaded->summary = summarize(loaded->run);
    HangWindow window(loaded);
    window.show();
    ASSERT_TRUE(window.view()->hangLanes().has_value());
    for (const HangFlow& f : window.view()->hangLanes()->flows) EXPECT_FALSE(f.fromRecord && f.toRecord);
    const QString headline = window.findChild<QLabel*>("hangHeadline")->text();
    EXPECT_FALSE(headline.contains("arrows run")) << headline.toStdString();
    EXPECT_TRUE(headline.contains("From 2 Flight Recorder dumps")) << headline.toStdString();

    // Its ruler's time labels are whole at any width: one that would run past the edge is left out.
    for (int width : {520, 777, 1100, 1913}) {
        window.view()->resize(width, 400);
        const auto labels = window.view()->rulerLabels();
        EXPECT_FALSE(labels.empty()) << width;
        for (const HangView::RulerLabel& label : labels)
            EXPECT_LE(label.box.right(), window.view()->width()) << label.text.toStdString() << " cut at width " << width;
    }
}

}  // namespace
}  // namespace faultline
