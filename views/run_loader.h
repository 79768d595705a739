#pragma once
// Opens run files off the GUI thread. Each request gets an id; when a newer request was
// made meanwhile, an older one's result is dropped, so the window shows what was asked last.
#include "model/collective_lanes.h"
#include "analysis/incidents.h"
#include "model/run.h"
#include "analysis/straggler_analysis.h"
#include "analysis/summary.h"

#include <QObject>
#include <QString>

#include <functional>
#include <memory>

namespace faultline {

// A run and what the window shows of it, all worked out off the GUI thread.
struct LoadedRun {
    QString path;
    Run run;
    RunSummary summary;
    StragglerReport stragglers;
    std::vector<Incident> incidents;
    CollectiveLanes lanes;  // the timeline's rank lanes
};

class RunLoader : public QObject {
    Q_OBJECT
public:
    using Job = std::function<std::string()>;  // prepares the file, returns its path

    explicit RunLoader(QObject* parent = nullptr);
    // Reads `path` in the background.
    void load(const QString& path);
    // Runs `prepare` (e.g. simulate the sample run), then reads the file it names.
    void prepareAndLoad(Job prepare);
    bool busy() const { return m_running > 0; }

signals:
    void loaded(std::shared_ptr<const faultline::LoadedRun> run);
    void failed(const QString& message);

private:
    quint64 m_latest = 0;
    int m_running = 0;
};

// Reads a run file and computes what the window shows first; throws Error.
std::shared_ptr<const LoadedRun> loadRun(const QString& path);

}  // namespace faultline
