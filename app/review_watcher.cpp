#include "app/review_watcher.h"

#include <QFileInfo>
#include <QGuiApplication>

namespace faultline {

ReviewWatcher::ReviewWatcher(QObject* parent) : QObject(parent) {
    connect(&m_watcher, &QFileSystemWatcher::directoryChanged, this, &ReviewWatcher::checkNow);
    connect(&m_watcher, &QFileSystemWatcher::fileChanged, this, &ReviewWatcher::checkNow);
    if (auto* app = qobject_cast<QGuiApplication*>(QCoreApplication::instance()))
        connect(app, &QGuiApplication::applicationStateChanged, this, [this](Qt::ApplicationState state) {
            if (state == Qt::ApplicationActive) checkNow();
        });
}

void ReviewWatcher::watch(const QString& reviewPath) {
    if (!m_watcher.files().isEmpty()) m_watcher.removePaths(m_watcher.files());
    if (!m_watcher.directories().isEmpty()) m_watcher.removePaths(m_watcher.directories());
    m_path = reviewPath;
    m_seen.reset();
    if (m_path.isEmpty()) return;
    m_seen = reviewStampNow(m_path.toStdString());
    const QString folder = QFileInfo(m_path).absolutePath();
    if (QFileInfo(folder).isDir()) m_watcher.addPath(folder);
    if (m_seen) m_watcher.addPath(m_path);
}

void ReviewWatcher::checkNow() {
    if (m_path.isEmpty()) return;
    const std::optional<ReviewStamp> now = reviewStampNow(m_path.toStdString());
    // A rename drops the file from the watch: the new one is watched again.
    if (now && !m_watcher.files().contains(m_path)) m_watcher.addPath(m_path);
    if (now == m_seen) return;  // a partial file came or went beside it, nothing more
    m_seen = now;
    std::optional<ReviewStamp> ours;
    if (lastWrittenHere(m_path.toStdString(), ours) && ours == now) return;  // this process's own save
    emit changedOutside(m_path);
}

}  // namespace faultline
