#include "app/job_follower.h"

#include "importers/folder_follower.h"
#include "remote/prometheus_follow.h"
#include "widgets/run_in_background.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QSet>
#include <QStandardPaths>
#include <QTimer>

#include <atomic>

namespace faultline {

namespace {

// The poll that finds changes the kernel does not tell of (NFS, Lustre).
constexpr int kPollMs = 2000;
// Changes come in bursts (a log line, then the next): one look after the burst.
constexpr int kSettleMs = 250;

struct LookResult {
    bool written = false;
    bool pulled = false;    // the look asked the server
    QString pullProblem;    // why it did not answer
    QStringList newIncidents;
    QStringList waiting;
    QStringList folders, files;  // the look's listing found them: to watch
};

}  // namespace

// The pull and what ends it: a pull under way stops when the follower goes.
struct JobFollower::Pull {
    std::atomic<bool> cancel{false};
    std::optional<FollowedPull> source;
};

QString JobFollower::runPathFor(const QString& folder) {
    const QString absolute = QFileInfo(folder).absoluteFilePath();
    const QString hash = QString::fromLatin1(QCryptographicHash::hash(absolute.toUtf8(), QCryptographicHash::Sha1).toHex().left(8));
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + "/followed";
    QDir().mkpath(dir);
    return dir + "/" + QFileInfo(absolute).fileName() + "-" + hash + ".faultline";
}

JobFollower::JobFollower(const QString& folder, const QString& runPath, std::optional<PrometheusPullOptions> pull, QObject* parent)
    : QObject(parent),
      m_folder(folder),
      m_runPath(runPath),
      m_follower(std::make_shared<FolderFollower>(std::vector<std::string>{folder.toStdString()}, runPath.toStdString(), ImportOptions{})),
      m_watcher(new QFileSystemWatcher(this)),
      m_poll(new QTimer(this)),
      m_soon(new QTimer(this)) {
    if (pull) {
        m_pull = std::make_shared<Pull>();
        m_pull->source.emplace(std::move(*pull), ImportOptions{}, kPollMs * kMillisecond, &m_pull->cancel);
        m_follower->setSource(&*m_pull->source);
    }
    m_soon->setSingleShot(true);
    m_soon->setInterval(kSettleMs);
    connect(m_soon, &QTimer::timeout, this, &JobFollower::look);
    connect(m_watcher, &QFileSystemWatcher::directoryChanged, this, &JobFollower::lookSoon);
    connect(m_watcher, &QFileSystemWatcher::fileChanged, this, &JobFollower::lookSoon);
    m_poll->setInterval(kPollMs);
    connect(m_poll, &QTimer::timeout, this, &JobFollower::look);
    m_poll->start();
    watch({m_folder}, {});  // the rest once the first look has listed it
    look();
}

JobFollower::~JobFollower() {
    if (m_pull) m_pull->cancel = true;
}

QString JobFollower::pullUrl() const { return m_pull ? QString::fromStdString(m_pull->source->url()) : QString(); }

void JobFollower::watch(const QStringList& folders, const QStringList& files) {
    // Folders tell of files added, renamed (rotated) and removed; files of what is appended.
    // A set: a folder of thousands of rank logs is looked at every two seconds.
    const QStringList watchedList = m_watcher->files() + m_watcher->directories();
    const QSet<QString> watched(watchedList.begin(), watchedList.end());
    QStringList fresh;
    for (const QStringList* paths : {&folders, &files})
        for (const QString& p : *paths)
            if (!watched.contains(p)) fresh << p;
    if (!fresh.isEmpty()) m_watcher->addPaths(fresh);
}

void JobFollower::lookSoon() { m_soon->start(); }

void JobFollower::look() {
    if (m_looking) {
        m_lookAgain = true;
        return;
    }
    m_looking = true;
    runInBackground(
        this,
        [follower = m_follower, pull = m_pull] {
            const FolderFollower::Look look = follower->look();
            LookResult result;
            result.written = look.written;
            result.pulled = pull != nullptr;
            result.pullProblem = QString::fromStdString(look.sourceProblem);
            for (const Incident& incident : look.newIncidents) result.newIncidents << QString::fromStdString(incident.headline);
            for (const std::string& w : look.waiting) result.waiting << QString::fromStdString(w);
            for (const std::string& f : look.folders) result.folders << QString::fromStdString(f);
            for (const std::string& f : look.files) result.files << QString::fromStdString(f);
            return result;
        },
        [this](const BackgroundResult<LookResult>& result) {
            m_looking = false;
            if (const auto* look = std::get_if<0>(&result)) {
                watch(look->folders, look->files);
                if (look->written) {
                    m_lastUpdate = QDateTime::currentDateTime();
                    emit updated(m_runPath, look->newIncidents);
                }
                if (!look->waiting.isEmpty()) emit waiting(look->waiting.front());
                if (look->pulled) emit pulled(look->pullProblem);
            } else {
                emit waiting(errorOf(result));  // the job is still writing: the next change may mend it
            }
            if (m_lookAgain) {
                m_lookAgain = false;
                lookSoon();
            }
        });
}

}  // namespace faultline
