#include "exports/report_figures.h"

#include <algorithm>

#include "analysis/blast_radius.h"
#include "analysis/straggler_analysis.h"
#include "exports/offscreen_renderer.h"
#include "widgets/open_gl_probe.h"
#include "exports/panel_export.h"
#include "views/charts_view.h"
#include "views/fabric/fabric_view.h"
#include "views/fabric/incident_camera.h"
#include "views/timeline_view.h"

#include <QApplication>
#include <QPainter>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>

namespace faultline {

namespace {

constexpr QSize kSnapshotSize(1400, 860);

}  // namespace

ReportFigure recordFigure(QWidget* panel, const QString& title, QSize size) {
    ReportFigure f{title, QPicture(), size};
    QPainter p(&f.picture);
    paintPanel(panel, p, size);
    p.end();
    return f;
}

bool forEachReportChart(const ReportContent& content, const std::function<bool(QWidget* panel, const QString& title, QSize size)>& use) {
    {
        ChartsView charts;
        charts.setAttribute(Qt::WA_DontShowOnScreen);
        charts.setRun(content.run, content.summary, content.stragglers);
        charts.resize(kChartSize.width(), kChartSize.height() * 4);
        charts.show();
        QApplication::processEvents();
        const std::pair<const char*, QString> panels[] = {{"ettrChart", QObject::tr("Effective training time per day")},
                                                          {"stepTimeChart", QObject::tr("Step time and straggler episodes")},
                                                          {"causesChart", QObject::tr("Interruptions by root cause")},
                                                          {"waterfallChart", QObject::tr("Where the downtime went")},
                                                          {"stragglerHeatMap", QObject::tr("Straggler scores, ranks x time")},
                                                          {"powerChart", QObject::tr("Cluster power draw")}};
        for (const auto& [name, title] : panels) {
            auto* panel = charts.findChild<QWidget*>(name);
            if (!panel) continue;
            // A report has no "now": the replay cursor stays out of its charts.
            if (auto* chart = qobject_cast<QChartView*>(panel))
                for (QAbstractSeries* series : chart->chart()->series())
                    if (series->objectName() == "cursor") {
                        series->hide();
                        for (QLegendMarker* m : chart->chart()->legend()->markers(series)) m->setVisible(false);
                    }
            if (std::string(name) == "stragglerHeatMap" && content.run->collectives.empty() && content.run->rankSteps.empty()) {
                delete panel;  // nothing to show: no traces in this run
                if (!use(nullptr, title, kChartSize)) return false;
                continue;
            }
            panel->setParent(nullptr);  // on its own, at the figure's size
            panel->setAttribute(Qt::WA_DontShowOnScreen);
            panel->resize(kChartSize);
            panel->show();
            QApplication::processEvents();
            const bool more = use(panel, title, kChartSize);
            delete panel;
            if (!more) return false;
        }
    }
    TimelineView timeline;
    timeline.setAttribute(Qt::WA_DontShowOnScreen);
    timeline.setRun(content.run);
    timeline.setTime(content.run->info.duration);  // the cursor at the end, out of the way
    timeline.resize(kChartSize.width(), 150);
    timeline.show();
    QApplication::processEvents();
    return use(&timeline, QObject::tr("The whole run on the timeline"), QSize(kChartSize.width(), 150));
}

bool renderReportFigures(const ReportContent& content, ReportFigures& out, const std::function<void(int, int)>& progress,
                         const std::atomic<bool>* cancel) {
    const int total = 6 + static_cast<int>(content.selected.size());
    int done = 0;
    auto step = [&] {
        ++done;
        if (progress) progress(done, total);
        QApplication::processEvents();  // the window stays live between figures
        return !(cancel && cancel->load());
    };
    const bool all = forEachReportChart(content, [&](QWidget* panel, const QString& title, QSize size) {
        if (panel) out.charts.push_back(recordFigure(panel, title, size));
        return step();
    });
    if (!all) return false;
    // Without OpenGL (no display: Qt's offscreen platform) the report goes without its 3D
    // pictures rather than crash; the writers leave an incident's picture out when it has none.
    if (content.selected.empty() || !openGlAvailable()) return true;
    OffscreenRenderer renderer(content.run, kSnapshotSize);
    renderer.view().setColourBy(content.colourBy);
    for (const ReportIncident& r : content.selected) {
        // Framed and labelled as the app frames an incident: a switch's blast radius whole.
        showIncident(renderer.view(), failedPart(*content.run, r.incident), r.incident.gpus, suspectGpus(*content.run, r.incident)).aim();
        // Just after the first symptom: the failed hardware red, the job not yet torn down.
        out.snapshots.push_back(renderer.render(incidentSnapshotInstant(r.incident, content.run->info.duration)));
        if (!step()) return false;
    }
    return true;
}

}  // namespace faultline
