#include "panel_snapshot.h"

#include "exports/panel_export.h"
#include "presentation_window.h"
#include "model/incident_notes.h"
#include "views/run_loader.h"
#include "analysis/incidents.h"
#include "analysis/opening_instant.h"
#include "sample_run.h"
#include "screenshot.h"
#include "views/charts_view.h"
#include "views/incident_view.h"
#include "views/timeline_view.h"

#include <QApplication>
#include <QLabel>

#include <cstdio>
#include <memory>

namespace faultline {

std::unique_ptr<QWidget> makeSnapshotPanel(const QString& view, const std::shared_ptr<const LoadedRun>& loaded, std::optional<Nanos> at) {
    const std::shared_ptr<const Run> run(loaded, &loaded->run);
    const Nanos t = at.value_or(openingTime(*run, loaded->incidents));  // where the app's window opens
    if (view == "timeline") {
        auto timeline = std::make_unique<TimelineView>();
        timeline->setRun(run);
        if (at) timeline->setVisibleRange(*at - 6 * kHour, *at + 6 * kHour);  // half a day around it
        timeline->setTime(t);
        return timeline;
    }
    if (view == "charts") {
        auto charts = std::make_unique<ChartsView>();
        charts->setRun(run);
        charts->setTime(t);
        return charts;
    }
    if (view == "present") {
        // The presentation's title card, as the room sees it at this size.
        auto content = std::make_shared<ReportContent>(buildReportContent(run, readIncidentNotes(loaded->path.toStdString()), 5, &loaded->stragglers));
        auto present = std::make_unique<PresentationWindow>(std::move(content));
        present->setAttribute(Qt::WA_DeleteOnClose, false);
        return present;
    }
    {
        auto incidents = std::make_unique<IncidentView>();
        incidents->setRun(run, QString());  // read-only: a snapshot writes nothing
        // Where notes would be kept says nothing about the run in a picture of it.
        if (auto* where = incidents->findChild<QLabel*>("notesLocation")) where->hide();
        // The first incident at or after the instant, under review.
        for (const Incident& inc : loaded->incidents)
            if (inc.begin >= t && incidents->selectIncident(inc.id)) break;
        return incidents;
    }
}

QSize snapshotSize(const QWidget& panel, QSize asked) { return asked.expandedTo(panel.minimumSize()).expandedTo(panel.minimumSizeHint()); }

int snapshotPanel(const QString& view, const QString& runPath, const QString& out, const QSize& size, const QString& at, double scale) {
    std::shared_ptr<const LoadedRun> loaded;
    try {
        loaded = loadRun(runPath.isEmpty() ? QString::fromStdString(ensureSampleRun()) : runPath);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "faultline: %s\n", e.what());
        return 1;
    }
    const std::shared_ptr<const Run> run(loaded, &loaded->run);
    Nanos t = 0;
    if (!at.isEmpty()) {
        QString error;
        const auto instant = parseInstant(at, *run, &error);
        if (!instant) {
            std::fprintf(stderr, "faultline: %s\n", qPrintable(error));
            return 2;
        }
        t = *instant;
    }

    std::unique_ptr<QWidget> panel = makeSnapshotPanel(view, loaded, at.isEmpty() ? std::nullopt : std::optional<Nanos>(t));
    // A panel drawn smaller than it can be laid out is cut off at its foot (the charts'
    // power chart at the default 1600x1000): the picture takes the size it needs, and says so.
    const QSize whole = snapshotSize(*panel, size);
    if (whole != size)
        std::fprintf(stderr, "faultline: the %s panel needs %dx%d to be drawn whole: the picture is that size, not %dx%d\n", qPrintable(view),
                     whole.width(), whole.height(), size.width(), size.height());
    panel->resize(whole);
    panel->show();
    QApplication::processEvents();
    QString error;
    if (!exportPanel(panel.get(), out, whole, scale, &error)) {  // SVG or PNG by extension
        std::fprintf(stderr, "faultline: %s\n", qPrintable(error));
        return 1;
    }
    return 0;
}

}  // namespace faultline
