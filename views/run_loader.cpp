#include "views/run_loader.h"

#include "widgets/run_in_background.h"
#include "model/run_file.h"


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
    const quint64 id = ++m_latest;
    ++m_running;
    runInBackground(this, [prepare = std::move(prepare)] { return loadRun(QString::fromStdString(prepare())); },
                    [this, id](const BackgroundResult<std::shared_ptr<const LoadedRun>>& result) {
                        --m_running;
                        if (id != m_latest) return;  // stale: a newer request is on its way
                        if (const auto* run = std::get_if<0>(&result)) emit loaded(*run);
                        else emit failed(errorOf(result));
                    });
}

}  // namespace faultline
