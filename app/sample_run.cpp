#include "sample_run.h"
#include "analysis/stored_figures.h"

#include "model/run_file.h"
#include "simulator/simulator.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

namespace faultline {

std::string ensureSampleRun() {
    const QString shipped = QCoreApplication::applicationDirPath() + "/../share/faultline/sample.faultline";
    if (QFileInfo::exists(shipped)) return QFileInfo(shipped).canonicalFilePath().toStdString();

    const QString cacheDir = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
    const QString cached = cacheDir + "/sample.faultline";
    if (!QFileInfo::exists(cached)) {
        QDir().mkpath(cacheDir);
        SimulationParams params = simulationPreset(kSamplePreset);
        params.seed = kSampleSeed;
        writeRunFileWithFigures(simulate(params), cached.toStdString());
    }
    return cached.toStdString();
}

}  // namespace faultline
