#include "export_controller.h"
#include "presentation_pdf.h"

#include "exports/csv_export.h"
#include "exports/image_file.h"
#include "widgets/run_in_background.h"
#include "model/error.h"
#include "main_window.h"
#include "model/incident_notes.h"
#include "exports/offscreen_renderer.h"
#include "exports/panel_export.h"
#include "exports/perfetto_export.h"
#include "exports/report_writer.h"
#include "exports/video_recorder.h"
#include "screenshot.h"
#include "views/fabric/fabric_view.h"
#include "views/replay_panel.h"
#include "views/fabric/viewpoint_camera.h"

#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QProgressDialog>
#include <QSpinBox>

#include <atomic>

namespace faultline {

namespace {

QSpinBox* spin(int min, int max, int value) {
    auto* s = new QSpinBox;
    s->setRange(min, max);
    s->setValue(value);
    return s;
}

bool ask(QWidget* parent, const QString& title, QFormLayout* form) {
    QDialog dialog(parent);
    dialog.setWindowTitle(title);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    form->addRow(buttons);
    dialog.setLayout(form);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    return dialog.exec() == QDialog::Accepted;
}

}  // namespace

ExportController::ExportController(MainWindow* window) : QObject(window), m_window(window) {}

QList<std::pair<QString, QString>> ExportController::pictureablePanels() {
    return {{"fabricView", tr("3D View")}, {"chartsView", tr("Charts")}, {"timelineView", tr("Timeline")}, {"incidentView", tr("Incident Chain")}};
}

void ExportController::addActions(QMenu* file) {
    file->addAction(tr("Export &Report..."), this, &ExportController::exportReport);
    file->addAction(tr("Export Presentation as P&DF..."), this, &ExportController::exportPresentation)->setObjectName("exportPresentationAction");
    file->addAction(tr("Export &Video..."), this, &ExportController::exportVideo);
    QMenu* picture = file->addMenu(tr("Export &Picture"));
    QMenu* copy = file->addMenu(tr("&Copy Picture"));
    for (const auto& [name, label] : pictureablePanels()) {
        picture->addAction(label + "...", this, [this, name = name] { exportPicture(name); });
        copy->addAction(label, this, [this, name = name] { copyPicture(name); });
    }
    QMenu* data = file->addMenu(tr("Export &Data"));
    data->addAction(tr("Tables as &CSV..."), this, &ExportController::exportCsv);
    data->addAction(tr("&Perfetto Trace..."), this, &ExportController::exportPerfetto);
}

QWidget* ExportController::panel(const QString& name) const { return m_window->findChild<QWidget*>(name); }

bool ExportController::haveRun() {
    if (m_window->currentRun()) return true;
    QMessageBox::information(m_window, tr("Export"), tr("Open a run first."));
    return false;
}

void ExportController::exportReport() {
    if (!haveRun()) return;
    auto* form = new QFormLayout;
    QSpinBox* count = spin(0, 1000, 10);
    auto* page = new QComboBox;
    page->addItems({"A4", "Letter"});
    form->addRow(tr("Incident sections (worst by downtime)"), count);
    form->addRow(tr("Paper (PDF)"), page);
    if (!ask(m_window, tr("Export Report"), form)) return;
    const QString out = QFileDialog::getSaveFileName(m_window, tr("Export Report"), "report.pdf", tr("PDF (*.pdf);;HTML, one file (*.html)"));
    if (!out.isEmpty()) exportReportTo({out, count->value(), page->currentIndex() == 1 ? QPageSize::Letter : QPageSize::A4});
}

bool ExportController::refused(const QString& out) {
    const std::shared_ptr<const LoadedRun> loaded = m_window->currentRunShared();
    const QString why = outputRefusal(out, loaded ? QStringList{loaded->path} : QStringList{}, true);
    if (!why.isEmpty()) emit message(why);
    return !why.isEmpty();
}

void ExportController::exportReportTo(const ReportOptions& options) {
    const std::shared_ptr<const LoadedRun> loaded = m_window->currentRunShared();
    if (!loaded || refused(options.out)) return;
    const QString out = options.out;
    const std::shared_ptr<const Run> run(loaded, &loaded->run);
    auto content = std::make_shared<ReportContent>(buildReportContent(run, readIncidentNotes(loaded->path.toStdString()), options.incidents, &loaded->stragglers));
    content->colourBy = m_window->replayPanel()->fabricView()->colourBy();  // the pictures as the user sees the hall
    auto figures = std::make_shared<ReportFigures>();
    QProgressDialog progress(tr("Making the report's figures..."), tr("Cancel"), 0, 100, m_window);
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(0);
    std::atomic<bool> cancel = false;
    connect(&progress, &QProgressDialog::canceled, this, [&cancel] { cancel = true; });
    const bool made = renderReportFigures(*content, *figures, [&](int done, int total) {
        progress.setMaximum(total);
        progress.setValue(done);
    }, &cancel);
    if (!made) return;
    emit message(tr("Writing %1...").arg(out));
    runInBackground(this, [content, figures, options] {
        if (isHtmlReport(options.out)) writeHtmlReport(*content, *figures, options);
        else writePdfReport(*content, *figures, options);
    }, [this, out](const BackgroundResult<std::monostate>& result) {
        const QString error = errorOf(result);
        emit message(error.isEmpty() ? tr("Wrote %1").arg(out) : error);
    });
}

void ExportController::exportPresentation() {
    if (!haveRun()) return;
    auto* form = new QFormLayout;
    QSpinBox* count = spin(0, 100, 5);
    form->addRow(tr("Incidents to walk through (worst by downtime)"), count);
    if (!ask(m_window, tr("Export Presentation as PDF"), form)) return;
    const QString out = QFileDialog::getSaveFileName(m_window, tr("Export Presentation as PDF"), "presentation.pdf", tr("PDF (*.pdf)"));
    if (!out.isEmpty()) exportPresentationTo(out, count->value());
}

void ExportController::exportPresentationTo(const QString& out, int incidents) {
    const std::shared_ptr<const LoadedRun> loaded = m_window->currentRunShared();
    if (!loaded || refused(out)) return;
    std::map<Nanos, IncidentNote> notes;
    try {
        notes = readIncidentNotes(loaded->path.toStdString());
    } catch (const std::exception&) {
        // Without readable notes the slides carry none, as the presentation does.
    }
    const ReportContent content = buildReportContent(std::shared_ptr<const Run>(loaded, &loaded->run), notes, incidents, &loaded->stragglers);
    emit message(tr("Writing %1...").arg(out));
    try {
        // Off-screen renders want the GUI thread: a page a second or so, a few pages.
        const int pages = writePresentationPdf(content, out);
        emit message(tr("Wrote %1 (%2 slides)").arg(out).arg(pages));
    } catch (const std::exception& e) {
        emit message(QString::fromStdString(e.what()));
    }
}

void ExportController::exportVideo() {
    if (!haveRun()) return;
    auto* form = new QFormLayout;
    auto* from = new QLineEdit;
    from->setPlaceholderText(tr("the start (or 36h, 2024-03-05T14:02:11Z)"));
    auto* to = new QLineEdit;
    to->setPlaceholderText(tr("the end"));
    auto* speed = new QLineEdit;
    speed->setPlaceholderText(tr("the span in 60 s (or 1h/s)"));
    QSpinBox* fps = spin(1, 120, 30);
    QSpinBox* width = spin(64, 7680, 1920);
    QSpinBox* height = spin(64, 4320, 1080);
    form->addRow(tr("From"), from);
    form->addRow(tr("To"), to);
    form->addRow(tr("Speed (run time per second)"), speed);
    form->addRow(tr("Frames per second"), fps);
    form->addRow(tr("Width"), width);
    form->addRow(tr("Height"), height);
    // The camera: the whole cluster, or one of the viewpoints saved in the run's review.
    auto* camera = new QComboBox;
    camera->setObjectName("videoCamera");
    camera->addItem(tr("The whole cluster"), QString());
    try {
        for (const Viewpoint& v : readViewpoints(m_window->currentRun()->path.toStdString()))
            camera->addItem(tr("Viewpoint \"%1\"").arg(QString::fromStdString(v.name)), QString::fromStdString(v.name));
    } catch (const std::exception&) {
        // An unreadable review offers the whole cluster only.
    }
    form->addRow(tr("Camera"), camera);
    if (!ask(m_window, tr("Export Video"), form)) return;
    VideoOptions o{QString(), from->text().trimmed(), to->text().trimmed(), speed->text().trimmed(), fps->value(),
                   QSize(width->value() & ~1, height->value() & ~1), camera->currentData().toString()};
    // Coloured as the user sees the hall (View > Colour By).
    if (const auto metric = m_window->replayPanel()->fabricView()->colourBy())
        o.colourBy = QString::fromStdString(m_window->currentRun()->run.telemetry.metrics[static_cast<std::size_t>(*metric)]);
    QString error;
    if (!planVideo(m_window->currentRun()->run, o, &error)) {  // asked before where to save it
        QMessageBox::warning(m_window, tr("Export Video"), error);
        return;
    }
    o.out = QFileDialog::getSaveFileName(m_window, tr("Export Video"), "replay.mp4", tr("MP4 video (*.mp4)"));
    if (!o.out.isEmpty()) exportVideoTo(o);
}

void ExportController::exportVideoTo(const VideoOptions& o) {
    const std::shared_ptr<const LoadedRun> loaded = m_window->currentRunShared();
    if (!loaded || refused(o.out)) return;
    const std::shared_ptr<const Run> run(loaded, &loaded->run);
    QString error;
    const auto plan = planVideo(*run, o, &error);
    if (!plan) {
        emit message(error);
        return;
    }
    QProgressDialog progress(tr("Recording %1 frames...").arg(plan->frames), tr("Cancel"), 0, plan->frames, m_window);
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(0);
    try {
        OffscreenRenderer renderer(run, o.size);
        if (!o.viewpoint.isEmpty()) {
            const auto viewpoint = savedViewpoint(loaded->path, *run, o.viewpoint, &error);
            if (!viewpoint) {
                emit message(error);
                return;
            }
            goToViewpoint(renderer.view(), *viewpoint, 0);
        }
        const int frames = recordVideo(renderer, *plan, o, [&](int done, int) {
            progress.setValue(done);  // also runs the event loop: the window stays live
            return !progress.wasCanceled();
        });
        emit message(progress.wasCanceled() ? tr("Video cancelled") : tr("Wrote %1 (%2 frames)").arg(o.out).arg(frames));
    } catch (const std::exception& e) {
        emit message(QString::fromUtf8(e.what()));
    }
}

void ExportController::exportPicture(const QString& name) {
    QWidget* p = panel(name);
    if (!p || !haveRun()) return;
    auto* form = new QFormLayout;
    QSpinBox* width = spin(64, 8000, std::max(p->width(), 800));
    QSpinBox* height = spin(64, 8000, std::max(p->height(), 500));
    auto* scale = new QDoubleSpinBox;
    scale->setRange(0.5, 4);
    scale->setValue(2);
    form->addRow(tr("Width (points)"), width);
    form->addRow(tr("Height (points)"), height);
    form->addRow(tr("Scale (PNG pixels per point)"), scale);
    if (!ask(m_window, tr("Export Picture"), form)) return;
    const QString filter = supportsSvg(p) ? tr("PNG image (*.png);;SVG vector graphics (*.svg)") : tr("PNG image (*.png)");
    const QString out = QFileDialog::getSaveFileName(m_window, tr("Export Picture"), name + ".png", filter);
    if (out.isEmpty() || refused(out)) return;
    QString error;
    if (!exportPanel(p, out, QSize(width->value(), height->value()), scale->value(), &error)) QMessageBox::warning(m_window, tr("Export Picture"), error);
    else emit message(tr("Wrote %1").arg(out));
}

void ExportController::copyPicture(const QString& name) {
    if (QWidget* p = panel(name)) {
        copyPanelToClipboard(p, p->devicePixelRatioF());
        emit message(tr("Copied a picture to the clipboard"));
    }
}

void ExportController::exportCsv() {
    if (!haveRun()) return;
    const QString dir = QFileDialog::getExistingDirectory(m_window, tr("Export Tables as CSV into"));
    if (!dir.isEmpty()) exportCsvTo(dir);
}

void ExportController::exportCsvTo(const QString& dir) {
    auto loaded = m_window->currentRunShared();
    if (!loaded) return;
    try {
        checkCsvTablesOutput(dir.toStdString(), {loaded->path.toStdString()}, true);
    } catch (const Error& e) {
        emit message(QString::fromStdString(e.what()));
        return;
    }
    runInBackground(this, [loaded, dir] { writeCsvTables(loaded->run, readIncidentNotes(loaded->path.toStdString()), dir.toStdString()); },
                    [this, dir](const BackgroundResult<std::monostate>& result) {
                        const QString error = errorOf(result);
                        emit message(error.isEmpty() ? tr("Wrote incidents.csv, goodput_per_day.csv and stragglers.csv into %1").arg(dir) : error);
                    });
}

void ExportController::exportPerfetto() {
    if (!haveRun()) return;
    const QString out = QFileDialog::getSaveFileName(m_window, tr("Export Perfetto Trace"), "run.json", tr("Chrome / Perfetto trace (*.json)"));
    if (!out.isEmpty()) exportPerfettoTo(out);
}

void ExportController::exportPerfettoTo(const QString& out) {
    auto loaded = m_window->currentRunShared();
    if (!loaded || refused(out)) return;
    runInBackground(this, [loaded, out] { writePerfettoTraceFile(loaded->run, out.toStdString()); },
                    [this, out](const BackgroundResult<std::monostate>& result) {
                        const QString error = errorOf(result);
                        emit message(error.isEmpty() ? tr("Wrote %1").arg(out) : error);
                    });
}

}  // namespace faultline
