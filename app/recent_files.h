#pragma once
// File > Open Recent: the last run files and comparisons opened, newest first, kept in
// QSettings so that they outlive the session.
#include <QList>
#include <QString>

class QMenu;

namespace faultline {

struct RecentEntry {
    QString path;   // the run, or run A of a comparison
    QString other;  // run B of a comparison; empty for a single run
    bool operator==(const RecentEntry&) const = default;
};

inline constexpr int kMaxRecent = 10;

QList<RecentEntry> recentEntries();
// Puts the entry first (once), keeping at most kMaxRecent.
void rememberRecent(const RecentEntry& entry);
void clearRecent();
// How the menu names an entry: "run.faultline" or "a.faultline vs b.faultline".
QString recentLabel(const RecentEntry& entry);

}  // namespace faultline
