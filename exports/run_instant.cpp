#include "exports/run_instant.h"

#include "model/format.h"

#include <QDateTime>
#include <QStringList>
#include <QTimeZone>

namespace faultline {

std::optional<Nanos> parseInstant(const QString& text, const Run& run, QString* error) {
    std::optional<Nanos> t = parseDuration(text.toStdString());
    if (!t) {
        QDateTime wall = QDateTime::fromString(text, Qt::ISODate);
        if (!wall.isValid()) wall = QDateTime::fromString(text, "yyyy-MM-dd HH:mm:ss");
        if (wall.isValid()) {
            if (wall.timeSpec() == Qt::LocalTime) wall.setTimeZone(QTimeZone::utc());  // wall times are UTC
            t = wall.toMSecsSinceEpoch() * kMillisecond - run.info.startEpochNs;
        }
    }
    if (!t) {
        *error = QString("--at expects a time since the run's start (90m, 1h30m, 1d6h) or a UTC time "
                         "(2024-03-05T14:02:11Z), not \"%1\"").arg(text);
        return std::nullopt;
    }
    if (*t < 0 || *t > run.info.duration) {
        *error = QString("--at %1 is outside the run, which lasts %2 from %3")
                     .arg(text, QString::fromStdString(formatDuration(run.info.duration)),
                          QString::fromStdString(formatWallTime(run.info.startEpochNs, 0)));
        return std::nullopt;
    }
    return t;
}

std::optional<Viewpoint> savedViewpoint(const QString& runPath, const Run& run, const QString& name, QString* error) {
    std::vector<Viewpoint> all;
    try {
        all = readViewpoints(runPath.toStdString());
    } catch (const std::exception& e) {
        *error = QString::fromStdString(e.what());
        return std::nullopt;
    }
    const Viewpoint* v = findViewpoint(all, name.toStdString());
    if (!v) {
        QStringList names;
        for (const Viewpoint& each : all) names << QString("\"%1\"").arg(QString::fromStdString(each.name));
        *error = QString("%1 has no viewpoint named \"%2\" (%3)")
                     .arg(runPath, name,
                          names.isEmpty() ? QString("it has none: save one in the app with View > Viewpoints > Save Viewpoint")
                                          : "it has " + names.join(", "));
        return std::nullopt;
    }
    if (const auto mismatch = viewpointMismatch(*v, run.topology)) {
        *error = QString::fromStdString(*mismatch);
        return std::nullopt;
    }
    return *v;
}

}  // namespace faultline
