#include "window_menus.h"

#include "compare_window.h"
#include "help_windows.h"
#include "main_window.h"
#include "recent_files.h"

#include <QAction>
#include <QApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>

namespace faultline {

namespace {

// One help window of each kind per window: asking again raises the one open.
template <typename Window, typename Make>
void showOnce(QWidget* owner, const char* name, Make make) {
    auto* window = owner->findChild<Window*>(name, Qt::FindDirectChildrenOnly);
    if (!window) {
        window = make();
        window->setAttribute(Qt::WA_DeleteOnClose);
    }
    window->show();
    window->raise();
    window->activateWindow();
}

}  // namespace

void addRecentMenu(QMenu* file, QWidget* owner, std::function<void(const QString&)> openRun) {
    QMenu* recent = file->addMenu(QObject::tr("Open &Recent"));
    recent->setObjectName("openRecentMenu");
    recent->setToolTipsVisible(true);
    QObject::connect(recent, &QMenu::aboutToShow, owner, [owner, recent, openRun] {
        recent->clear();
        const QList<RecentEntry> entries = recentEntries();
        const QStringList labels = recentLabels(entries);
        for (qsizetype i = 0; i < entries.size(); ++i) {
            const RecentEntry& entry = entries[i];
            QAction* open = recent->addAction(labels[i]);
            // Where it is, on hover and in the status bar.
            open->setToolTip(recentToolTip(entry));
            open->setStatusTip(open->toolTip().replace('\n', QObject::tr(" and ")));
            const bool there = QFileInfo::exists(entry.path) && (entry.other.isEmpty() || QFileInfo::exists(entry.other));
            open->setEnabled(there);
            if (!there) open->setText(QObject::tr("%1 (moved or deleted)").arg(labels[i]));
            QObject::connect(open, &QAction::triggered, owner, [owner, entry, openRun] {
                if (entry.other.isEmpty()) openRun(entry.path);
                else openComparison(entry.path, entry.other, owner);
            });
        }
        if (entries.isEmpty()) recent->addAction(QObject::tr("No recent runs"))->setEnabled(false);
        recent->addSeparator();
        QAction* clear = recent->addAction(QObject::tr("&Clear Recent"), owner, [] { clearRecent(); });
        clear->setObjectName("clearRecentAction");
        clear->setEnabled(!entries.isEmpty());
    });
}

void openRunInMainWindow(const QString& path) {
    MainWindow* main = nullptr;
    for (QWidget* w : QApplication::topLevelWidgets())
        if (auto* m = qobject_cast<MainWindow*>(w); m && !main) main = m;
    if (!main) {
        main = new MainWindow;
        main->setAttribute(Qt::WA_DeleteOnClose);
        main->restoreLayout();
    }
    main->show();
    main->raise();
    main->activateWindow();
    main->openRun(path);
}

void addSharedMenus(QMenuBar* bar, QWidget* window) {
    QMenu* file = bar->addMenu(QObject::tr("&File"));
    QAction* open = file->addAction(QObject::tr("&Open Run..."), window, [window] {
        const QString path = QFileDialog::getOpenFileName(window, QObject::tr("Open Run"), QString(),
                                                          QObject::tr("Faultline runs (*.faultline);;All files (*)"));
        if (!path.isEmpty()) openRunInMainWindow(path);
    });
    open->setShortcut(QKeySequence::Open);
    addRecentMenu(file, window, [](const QString& path) { openRunInMainWindow(path); });
    file->addSeparator();
    QAction* close = file->addAction(QObject::tr("&Close Window"), window, [window] { window->close(); });
    close->setObjectName("closeWindowAction");
    close->setShortcut(QKeySequence::Close);
    QAction* quit = file->addAction(QObject::tr("&Quit"), window, [] { QApplication::closeAllWindows(); });
    quit->setObjectName("quitAction");
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);

    QMenu* help = bar->addMenu(QObject::tr("&Help"));
    QAction* docs = help->addAction(QObject::tr("&Documentation"), window, [window] {
        showOnce<DocumentationWindow>(window, "documentationWindow", [window] { return new DocumentationWindow(documentationDir(), window); });
    });
    docs->setObjectName("documentationAction");
    docs->setShortcut(QKeySequence::HelpContents);
    QAction* keys = help->addAction(QObject::tr("&Keyboard Shortcuts"), window, [window] {
        showOnce<ShortcutsWindow>(window, "shortcutsWindow", [window] { return new ShortcutsWindow(*window, window); });
    });
    keys->setObjectName("shortcutsAction");
    keys->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Slash));
    help->addSeparator();
    QAction* about = help->addAction(QObject::tr("&About Faultline"), window, [window] {
        showOnce<AboutDialog>(window, "aboutDialog", [window] { return new AboutDialog(window); });
    });
    about->setObjectName("aboutAction");
    about->setMenuRole(QAction::AboutRole);
}

}  // namespace faultline
