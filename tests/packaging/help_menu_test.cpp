// Help > Documentation, Keyboard Shortcuts and About in the real main window, as a user finds
// them: through the menu, checked by what the windows show.
#include "gui_test_app.h"

#include "app/help_windows.h"
#include "app/main_window.h"

#include <QAction>
#include <QApplication>
#include <QLabel>
#include <QMenuBar>
#include <QShortcut>
#include <QTableWidget>
#include <QTest>
#include <QTextBrowser>

#include <gtest/gtest.h>

#include <set>

namespace faultline {
namespace {

void saveShot(QWidget& w, const QString& name) {
    const QByteArray dir = qgetenv("FAULTLINE_TEST_SHOTS");
    if (!dir.isEmpty()) w.grab().save(QString::fromUtf8(dir) + "/" + name + ".png");
}

QAction* helpAction(MainWindow& window, const char* name) {
    for (QAction* menu : window.menuBar()->actions()) {
        if (menu->text().remove('&') != "Help" || !menu->menu()) continue;
        for (QAction* a : menu->menu()->actions())
            if (a->objectName() == name) return a;
    }
    return nullptr;
}

std::set<QString> tableColumn(const QTableWidget& table, int column) {
    std::set<QString> out;
    for (int r = 0; r < table.rowCount(); ++r) out.insert(table.item(r, column)->text());
    return out;
}

TEST(HelpMenu, AboutShowsVersionBuildAndEveryLibraryWithItsLicence) {
    test::guiApp();
    MainWindow window;
    window.show();
    QAction* about = helpAction(window, "aboutAction");
    ASSERT_NE(about, nullptr) << "no Help > About";
    about->trigger();
    auto* dialog = window.findChild<AboutDialog*>("aboutDialog");
    ASSERT_NE(dialog, nullptr);
    EXPECT_TRUE(dialog->isVisible());
    const QString title = dialog->findChild<QLabel*>("aboutTitle")->text();
    EXPECT_TRUE(title.contains(QString("Faultline ") + FAULTLINE_EXPECTED_VERSION)) << title.toStdString();
    EXPECT_TRUE(title.contains("Build: git ")) << title.toStdString();
    auto* libraries = dialog->findChild<QTableWidget*>("libraryTable");
    ASSERT_NE(libraries, nullptr);
    const std::set<QString> names = tableColumn(*libraries, 0);
    for (const char* lib : {"Qt", "VTK", "SQLite", "zlib", "simdjson"}) EXPECT_TRUE(names.count(lib)) << lib;
    for (int r = 0; r < libraries->rowCount(); ++r) {
        EXPECT_FALSE(libraries->item(r, 1)->text().isEmpty()) << "version of " << libraries->item(r, 0)->text().toStdString();
        EXPECT_FALSE(libraries->item(r, 2)->text().isEmpty()) << "licence of " << libraries->item(r, 0)->text().toStdString();
    }
    EXPECT_EQ(libraries->item(0, 1)->text(), QString(qVersion())) << "the Qt actually loaded";
    saveShot(*dialog, "help-about");
    // Asking again raises the same window rather than opening a second.
    about->trigger();
    EXPECT_EQ(window.findChildren<AboutDialog*>().size(), 1);
}

TEST(HelpMenu, KeyboardShortcutsListEveryKeyTheWindowAnswersTo) {
    test::guiApp();
    MainWindow window;
    window.show();
    QAction* keys = helpAction(window, "shortcutsAction");
    ASSERT_NE(keys, nullptr) << "no Help > Keyboard Shortcuts";
    keys->trigger();
    auto* shortcuts = window.findChild<ShortcutsWindow*>("shortcutsWindow");
    ASSERT_NE(shortcuts, nullptr);
    EXPECT_TRUE(shortcuts->isVisible());
    auto* table = shortcuts->findChild<QTableWidget*>("shortcutsTable");
    ASSERT_NE(table, nullptr);

    // Every key sequence of every shortcut and menu action in the window is in the list.
    std::set<QString> listed;
    for (const ShortcutEntry& e : keyboardShortcuts(window))
        for (const QKeySequence& k : e.keys) listed.insert(k.toString());
    int checked = 0;
    for (QShortcut* s : window.findChildren<QShortcut*>()) {
        EXPECT_TRUE(listed.count(s->key().toString())) << "shortcut " << s->key().toString().toStdString() << " not listed";
        ++checked;
    }
    for (QAction* a : window.findChildren<QAction*>())
        for (const QKeySequence& k : a->shortcuts()) {
            EXPECT_TRUE(listed.count(k.toString())) << a->text().toStdString() << " " << k.toString().toStdString() << " not listed";
            ++checked;
        }
    EXPECT_GE(checked, 15);
    // And the table shows them, with what each does.
    const std::set<QString> actions = tableColumn(*table, 1);
    for (const char* action : {"Play or pause the replay", "Next incident", "Fit the whole cluster in view", "Open Run", "Quit", "Documentation"})
        EXPECT_TRUE(actions.count(action)) << action;
    EXPECT_TRUE(tableColumn(*table, 0).count(QKeySequence(Qt::Key_Space).toString(QKeySequence::NativeText)));
    // Every column whole: the last one ("Where") ends inside the table's viewport.
    QApplication::processEvents();
    const int last = table->columnCount() - 1;
    EXPECT_LE(table->columnViewportPosition(last) + static_cast<QAbstractItemView*>(table)->sizeHintForColumn(last), table->viewport()->width())
        << "the third column is cut";
    saveShot(*shortcuts, "help-shortcuts");
}

TEST(HelpMenu, DocumentationOpensTheInstalledReadmeAndFollowsItsLinks) {
    test::guiApp();
    ASSERT_FALSE(documentationDir().isEmpty()) << "share/doc/faultline beside bin/ (built by faultline_docs)";
    MainWindow window;
    window.show();
    QAction* docs = helpAction(window, "documentationAction");
    ASSERT_NE(docs, nullptr) << "no Help > Documentation";
    EXPECT_EQ(docs->shortcut(), QKeySequence(QKeySequence::HelpContents));
    docs->trigger();
    auto* docWindow = window.findChild<DocumentationWindow*>("documentationWindow");
    ASSERT_NE(docWindow, nullptr);
    EXPECT_TRUE(docWindow->isVisible());
    QTextBrowser* browser = docWindow->browser();
    EXPECT_TRUE(browser->toPlainText().contains("Faultline replays and explains large-cluster training runs")) << browser->toPlainText().left(300).toStdString();
    EXPECT_TRUE(browser->source().toLocalFile().endsWith("doc/faultline/README.md")) << browser->source().toString().toStdString();
    saveShot(*docWindow, "help-documentation");
    // README's links to docs/ lead to the pages installed beside it.
    browser->setSource(QUrl("docs/run-file.md"));
    EXPECT_TRUE(browser->toPlainText().contains("application_id")) << browser->toPlainText().left(300).toStdString();
    browser->backward();
    EXPECT_TRUE(browser->source().toLocalFile().endsWith("README.md"));
}

}  // namespace
}  // namespace faultline
