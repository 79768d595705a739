#pragma once
// File > Open Recent: the last run files and comparisons opened in a window, newest first,
// kept in QSettings so that they outlive the session. A run only rendered (--screenshot,
// --report, --record, --presentation) is not one the user opened: those modes remember none.
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
// Puts the entry first (once), keeping at most kMaxRecent; nothing while not remembering.
void rememberRecent(const RecentEntry& entry);
// Whether this process adds to the list (the default); the headless modes turn it off.
void setRememberingRecent(bool on);
void clearRecent();
// How the menu names an entry: "run.faultline" or "a.faultline vs b.faultline".
QString recentLabel(const RecentEntry& entry);
// The labels of a whole list: a file name that two different runs share is told apart by its
// folder ("run.faultline — march"), or by the folder's path when the folders share a name too.
QStringList recentLabels(const QList<RecentEntry>& entries);
// What hovering an entry shows: each run's full path, one a line.
QString recentToolTip(const RecentEntry& entry);

}  // namespace faultline
