#include "recent_files.h"

#include <QFileInfo>
#include <QSettings>
#include <QStringList>

namespace faultline {

namespace {

constexpr const char* kKey = "recentFiles";
// A comparison is kept as its two absolute paths with a newline between: no path holds one
// that a user opens from a file dialog.
constexpr QChar kSeparator('\n');

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

void rememberRecent(const RecentEntry& entry) {
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

}  // namespace faultline
