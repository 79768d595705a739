#include "recent_files.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QStringList>

#include <map>

namespace faultline {

namespace {

constexpr const char* kKey = "recentFiles";
// A comparison is kept as its two absolute paths with a newline between: no path holds one
// that a user opens from a file dialog.
constexpr QChar kSeparator('\n');

bool remembering = true;

QString encode(const RecentEntry& e) { return e.other.isEmpty() ? e.path : e.path + kSeparator + e.other; }

RecentEntry decode(const QString& text) {
    const qsizetype cut = text.indexOf(kSeparator);
    return cut < 0 ? RecentEntry{text, {}} : RecentEntry{text.left(cut), text.mid(cut + 1)};
}

}  // namespace

QList<RecentEntry> recentEntries() {
    QList<RecentEntry> out;
    for (const QString& text : QSettings().value(kKey).toStringList())
        if (!text.isEmpty() && out.size() < kMaxRecent) out << decode(text);
    return out;
}

void setRememberingRecent(bool on) { remembering = on; }

void rememberRecent(const RecentEntry& entry) {
    if (!remembering) return;
    const RecentEntry absolute{QFileInfo(entry.path).absoluteFilePath(),
                               entry.other.isEmpty() ? QString() : QFileInfo(entry.other).absoluteFilePath()};
    QList<RecentEntry> entries = recentEntries();
    entries.removeAll(absolute);
    entries.prepend(absolute);
    QStringList texts;
    for (const RecentEntry& e : entries.mid(0, kMaxRecent)) texts << encode(e);
    QSettings().setValue(kKey, texts);
}

void clearRecent() { QSettings().remove(kKey); }

QString recentLabel(const RecentEntry& entry) {
    const QString a = QFileInfo(entry.path).fileName();
    return entry.other.isEmpty() ? a : QObject::tr("%1 vs %2").arg(a, QFileInfo(entry.other).fileName());
}

QStringList recentLabels(const QList<RecentEntry>& entries) {
    // Every path named in the list, by file name: a name held by more than one path is
    // qualified by the folder, and by the folder's path where the folders' names collide too.
    std::map<QString, QStringList> pathsByName, pathsByFolderName;
    auto note = [&](const QString& path) {
        if (path.isEmpty()) return;
        const QFileInfo f(path);
        QStringList& paths = pathsByName[f.fileName()];
        if (!paths.contains(f.absoluteFilePath())) paths << f.absoluteFilePath();
        const QString folderName = f.fileName() + "/" + f.absoluteDir().dirName();
        QStringList& inFolders = pathsByFolderName[folderName];
        if (!inFolders.contains(f.absoluteFilePath())) inFolders << f.absoluteFilePath();
    };
    for (const RecentEntry& e : entries) {
        note(e.path);
        note(e.other);
    }
    auto name = [&](const QString& path) {
        const QFileInfo f(path);
        if (pathsByName[f.fileName()].size() < 2) return f.fileName();
        const QString folder = pathsByFolderName[f.fileName() + "/" + f.absoluteDir().dirName()].size() < 2
                                   ? f.absoluteDir().dirName()
                                   : QDir::toNativeSeparators(f.absolutePath());
        return QObject::tr("%1 — %2").arg(f.fileName(), folder);
    };
    QStringList labels;
    for (const RecentEntry& e : entries)
        labels << (e.other.isEmpty() ? name(e.path) : QObject::tr("%1 vs %2").arg(name(e.path), name(e.other)));
    return labels;
}

QString recentToolTip(const RecentEntry& entry) {
    const QString a = QDir::toNativeSeparators(QFileInfo(entry.path).absoluteFilePath());
    return entry.other.isEmpty() ? a : a + "\n" + QDir::toNativeSeparators(QFileInfo(entry.other).absoluteFilePath());
}

}  // namespace faultline
