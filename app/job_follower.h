#pragma once
// File > Follow Job Folder and `faultline --follow DIR`: a running job's folder followed
// (importers/folder_follower.h). The kernel's change notices (QFileSystemWatcher) wake a look
// soon after a file changes, and a poll finds what they do not tell (network file systems);
// each look runs off the GUI thread, one at a time, and writes the run file whole. With a
// Prometheus server (File > Follow Job Folder with Prometheus, `faultline --follow DIR
// --prometheus URL`), each look also pulls the metrics up to now (remote/prometheus_follow.h).
#include "remote/prometheus_pull.h"

#include <QDateTime>
#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

class QFileSystemWatcher;
class QTimer;

namespace faultline {

class FolderFollower;

class JobFollower : public QObject {
    Q_OBJECT
public:
    // Throws Error when the folder cannot be followed into `runPath`. `pull`: the server to pull
    // the metrics from at each look, from the files' first event up to now (its from and to
    // are not used); none: the files alone.
    JobFollower(const QString& folder, const QString& runPath, std::optional<PrometheusPullOptions> pull = std::nullopt, QObject* parent = nullptr);
    ~JobFollower() override;

    QString folder() const { return m_folder; }
    QString runPath() const { return m_runPath; }
    QDateTime lastUpdate() const { return m_lastUpdate; }
    // The server pulled from, without credentials; empty when none is.
    QString pullUrl() const;

    // Where the app keeps the run file of a followed folder: its cache, one file per folder.
    static QString runPathFor(const QString& folder);

signals:
    // The run file was written anew; `newIncidents`: the headlines of the incidents no earlier
    // look told, in time order.
    void updated(const QString& runPath, const QStringList& newIncidents);
    // What holds the run back (a file not readable yet, a run that cannot be built yet).
    void waiting(const QString& message);
    // After each look that asked the server: why the pull failed (what was pulled is kept and
    // the same span is asked again at the next look), or empty when it answered.
    void pulled(const QString& problem);

private:
    void lookSoon();
    void look();
    void watch(const QStringList& folders, const QStringList& files);

    QString m_folder;
    QString m_runPath;
    std::shared_ptr<FolderFollower> m_follower;
    struct Pull;
    std::shared_ptr<Pull> m_pull;  // shared with a look under way, which may outlive this
    QFileSystemWatcher* m_watcher;
    QTimer* m_poll;
    QTimer* m_soon;
    QDateTime m_lastUpdate;
    bool m_looking = false;
    bool m_lookAgain = false;
};

}  // namespace faultline
