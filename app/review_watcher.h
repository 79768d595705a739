#pragma once
// Notices when the review of the open run (RUN.faultline-review) is changed by someone else:
// the same run open in another window or another app, a reviewer on a shared folder. Saves
// made by this process are told apart (model/review_file.h: lastWrittenHere) and not reported.
// The review is replaced by a rename at every save, so its folder is watched, not only the file.
#include "model/review_file.h"

#include <QFileSystemWatcher>
#include <QObject>
#include <QString>

#include <optional>

namespace faultline {

class ReviewWatcher : public QObject {
    Q_OBJECT
public:
    explicit ReviewWatcher(QObject* parent = nullptr);

    // Watches `reviewPath` from now on (empty: nothing); what is there now counts as seen.
    void watch(const QString& reviewPath);
    // Compares the review on disk with the one last seen, now: called on every notice of a
    // change, and when the app becomes active, for network folders that send no notices of
    // what other machines write.
    void checkNow();

signals:
    // The review now on disk is not the one this process saved or last saw.
    void changedOutside(const QString& reviewPath);

private:
    QFileSystemWatcher m_watcher;
    QString m_path;
    std::optional<ReviewStamp> m_seen;
};

}  // namespace faultline
