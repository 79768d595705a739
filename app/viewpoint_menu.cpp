#include "viewpoint_menu.h"

#include "main_window.h"
#include "model/viewpoints.h"
#include "views/fabric/fabric_view.h"
#include "views/fabric/viewpoint_camera.h"

#include <QInputDialog>
#include <QMessageBox>
#include <QShortcut>

namespace faultline {

namespace {
std::string text(const QString& s) { return s.toStdString(); }
}  // namespace

ViewpointMenu::ViewpointMenu(MainWindow& window, FabricView& view) : QMenu(tr("View&points"), &window), m_window(window), m_view(view) {
    setObjectName("viewpointsMenu");
    for (int n = 1; n <= 9; ++n) {
        auto* save = new QShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | static_cast<Qt::Key>(Qt::Key_0 + n)), &window);
        save->setObjectName(QString("saveViewpoint%1Shortcut").arg(n));
        connect(save, &QShortcut::activated, this, [this, n] { saveSlot(n); });
    }
    connect(&window, &MainWindow::runShown, this, &ViewpointMenu::rebuild);
    rebuild();
}

template <typename Change>
bool ViewpointMenu::change(Change&& change) {
    const LoadedRun* run = m_window.currentRun();
    if (!run) return false;
    try {
        ViewpointStore store(text(run->path));
        change(store);
    } catch (const std::exception& e) {
        emit message(tr("Viewpoints not saved: %1").arg(QString::fromStdString(e.what())));
        rebuild();
        return false;
    }
    rebuild();
    return true;
}

QStringList ViewpointMenu::names() const {
    QStringList out;
    const LoadedRun* run = m_window.currentRun();
    if (!run) return out;
    try {
        for (const Viewpoint& v : readViewpoints(text(run->path))) out << QString::fromStdString(v.name);
    } catch (const std::exception&) {
        // An unreadable review lists no viewpoints; saving says why.
    }
    return out;
}

bool ViewpointMenu::saveAs(const QString& name) {
    const bool ok = change([&](ViewpointStore& store) { store.save(viewpointOf(m_view, text(name))); });
    if (ok) emit message(tr("Saved the camera as viewpoint \"%1\"").arg(name.trimmed()));
    return ok;
}

bool ViewpointMenu::goTo(const QString& name) {
    const LoadedRun* run = m_window.currentRun();
    if (!run) return false;
    std::vector<Viewpoint> all;
    try {
        all = readViewpoints(text(run->path));
    } catch (const std::exception& e) {
        emit message(QString::fromStdString(e.what()));
        return false;
    }
    const Viewpoint* v = findViewpoint(all, text(name));
    if (!v) {
        emit message(tr("There is no viewpoint named \"%1\"").arg(name));
        return false;
    }
    if (const auto why = goToViewpoint(m_view, *v)) {
        emit message(QString::fromStdString(*why));
        return false;
    }
    return true;
}

bool ViewpointMenu::renameViewpoint(const QString& from, const QString& to) {
    return change([&](ViewpointStore& store) { store.rename(text(from), text(to)); });
}

bool ViewpointMenu::deleteViewpoint(const QString& name) {
    return change([&](ViewpointStore& store) { store.remove(text(name)); });
}

bool ViewpointMenu::saveSlot(int number) {
    const QStringList all = names();
    if (number <= all.size()) return saveAs(all[number - 1]);
    // A new one goes at the end: its number is the list's next, whatever key saved it.
    QString name;
    for (int k = all.size() + 1; name.isEmpty() || all.contains(name); ++k) name = tr("Viewpoint %1").arg(k);
    return saveAs(name);
}

bool ViewpointMenu::goToSlot(int number) {
    const QStringList all = names();
    if (number < 1 || number > all.size()) {
        emit message(tr("There is no viewpoint %1 (Ctrl+Shift+%1 saves the camera as one)").arg(number));
        return false;
    }
    return goTo(all[number - 1]);
}

void ViewpointMenu::rebuild() {
    clear();
    const bool haveRun = m_window.currentRun() != nullptr;
    QAction* save = addAction(tr("&Save Viewpoint..."), this, &ViewpointMenu::askAndSave);
    save->setObjectName("saveViewpointAction");
    save->setEnabled(haveRun);
    const QStringList all = names();
    if (!all.isEmpty()) addSeparator();
    for (int i = 0; i < all.size(); ++i) {
        // Ampersands in a name are shown, not taken as mnemonics.
        QAction* go = addAction(QString(all[i]).replace('&', "&&"), this, [this, name = all[i]] { goTo(name); });
        go->setObjectName("viewpointAction");
        go->setData(all[i]);
        if (i < 9) go->setShortcut(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + i)));
    }
    addSeparator();
    QAction* rename = addAction(tr("&Rename Viewpoint..."), this, &ViewpointMenu::askAndRename);
    rename->setObjectName("renameViewpointAction");
    rename->setEnabled(!all.isEmpty());
    QAction* remove = addAction(tr("&Delete Viewpoint..."), this, &ViewpointMenu::askAndDelete);
    remove->setObjectName("deleteViewpointAction");
    remove->setEnabled(!all.isEmpty());
}

void ViewpointMenu::askAndSave() {
    bool ok = false;
    const QString name = QInputDialog::getText(&m_window, tr("Save Viewpoint"), tr("Name of this camera (a name in use is replaced):"),
                                               QLineEdit::Normal, tr("Viewpoint %1").arg(names().size() + 1), &ok);
    if (ok) saveAs(name);
}

void ViewpointMenu::askAndRename() {
    bool ok = false;
    const QString from = QInputDialog::getItem(&m_window, tr("Rename Viewpoint"), tr("Viewpoint:"), names(), 0, false, &ok);
    if (!ok) return;
    const QString to = QInputDialog::getText(&m_window, tr("Rename Viewpoint"), tr("New name:"), QLineEdit::Normal, from, &ok);
    if (ok) renameViewpoint(from, to);
}

void ViewpointMenu::askAndDelete() {
    bool ok = false;
    const QString name = QInputDialog::getItem(&m_window, tr("Delete Viewpoint"), tr("Viewpoint:"), names(), 0, false, &ok);
    if (ok) deleteViewpoint(name);
}

}  // namespace faultline
