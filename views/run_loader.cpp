#include "views/run_loader.h"

#include "model/run_file.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

#include <variant>

namespace faultline {

std::shared_ptr<const LoadedRun> loadRun(const QString& path) {
    auto loaded = std::make_shared<LoadedRun>();
    loaded->path = path;
    loaded->run = readRunFile(path.toStdString());
    loaded->summary = summarize(loaded->run);
    loaded->stragglers = analyzeStragglers(loaded->run);
    loaded->incidents = buildIncidents(loaded->run);
    loaded->lanes = buildCollectiveLanes(loaded->run);
    return loaded;
}

RunLoader::RunLoader(QObject* parent) : QObject(parent) {}

void RunLoader::load(const QString& path) {
    prepareAndLoad([path] { return path.toStdString(); });
}

void RunLoader::prepareAndLoad(Job prepare) {
    using Result = std::variant<std::shared_ptr<const LoadedRun>, QString>;
    const quint64 id = ++m_latest;
    ++m_running;
    auto* watcher = new QFutureWatcher<Result>(this);
    connect(watcher, &QFutureWatcher<Result>::finished, this, [this, watcher, id] {
        --m_running;
        const Result result = watcher->result();
        watcher->deleteLater();
        if (id != m_latest) return;  // stale: a newer request is on its way
        if (auto* run = std::get_if<std::shared_ptr<const LoadedRun>>(&result)) emit loaded(*run);
        else emit failed(std::get<QString>(result));
    });
    watcher->setFuture(QtConcurrent::run([prepare = std::move(prepare)]() -> Result {
        try {
            return loadRun(QString::fromStdString(prepare()));
        } catch (const std::exception& e) {
            return QString::fromStdString(e.what());
        }
    }));
}

}  // namespace faultline
