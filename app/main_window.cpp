#include "main_window.h"

#include "compare_drop.h"
#include "compare_window.h"
#include "export_controller.h"
#include "first_window.h"
#include "presentation_window.h"
#include "help_windows.h"
#include "import_controller.h"
#include "sample_run.h"
#include "theme.h"
#include "viewpoint_menu.h"
#include "what_if_dialog.h"
#include "analysis/blast_radius.h"
#include "analysis/run_highlights.h"
#include "views/charts_view.h"
#include "views/fabric_view.h"
#include "views/gpu_palette.h"
#include "views/incident_camera.h"
#include "views/incident_view.h"
#include "views/inspector_view.h"
#include "views/jobs_view.h"
#include "views/replay_panel.h"
#include "views/timeline_view.h"
#include "views/summary_view.h"

#include <QActionGroup>
#include <QInputDialog>
#include <QApplication>
#include <QCloseEvent>
#include <QSettings>
#include <QShortcut>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QScrollArea>
#include <QStackedWidget>
#include <QStatusBar>

namespace faultline {

namespace {
// The hardware that failed in the incident that began at `t`, if one did.
ComponentRef failedPartAt(const LoadedRun* run, Nanos t) {
    if (!run) return {};
    for (const Incident& incident : run->incidents)
        if (incident.begin == t) return failedPart(run->run, incident);
    return {};
}
}  // namespace


MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      m_loader(new RunLoader(this)),
      m_pages(new QStackedWidget(this)),
      m_placeholder(new QLabel(this)),
      m_summary(new SummaryView(this)),
      m_replay(new ReplayPanel(this)) {
    setObjectName("mainWindow");
    setWindowTitle("Faultline");
    m_placeholder->setObjectName("placeholder");
    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setText(tr("Open a run with File > Open."));
    m_pages->addWidget(m_placeholder);
    // The run replayed on its cluster fills the window; the summary sits beside it.
    m_pages->addWidget(m_replay);
    setCentralWidget(m_pages);
    auto* summaryDock = new QDockWidget(tr("Summary"), this);
    summaryDock->setObjectName("summaryDock");
    // In a small window the summary scrolls rather than making the window taller than the screen.
    auto* summaryScroll = new QScrollArea(summaryDock);
    summaryScroll->setWidget(m_summary);
    summaryScroll->setWidgetResizable(true);
    summaryScroll->setFrameShape(QFrame::NoFrame);
    summaryDock->setWidget(summaryScroll);
    addDockWidget(Qt::RightDockWidgetArea, summaryDock);
    // The incidents under the replay; the charts beside the summary. Each moves the replay.
    m_incidents = new IncidentView(this);
    auto* incidentsDock = new QDockWidget(tr("Incidents"), this);
    incidentsDock->setObjectName("incidentsDock");
    incidentsDock->setWidget(m_incidents);
    addDockWidget(Qt::BottomDockWidgetArea, incidentsDock);
    m_charts = new ChartsView(this);
    auto* chartsDock = new QDockWidget(tr("Charts"), this);
    chartsDock->setObjectName("chartsDock");
    // The charts keep a readable size (whole labels, round ticks) and scroll in a small dock.
    m_charts->setMinimumSize(520, 900);
    auto* chartsScroll = new QScrollArea(chartsDock);
    chartsScroll->setWidget(m_charts);
    chartsScroll->setWidgetResizable(true);
    chartsScroll->setFrameShape(QFrame::NoFrame);
    chartsDock->setWidget(chartsScroll);
    addDockWidget(Qt::RightDockWidgetArea, chartsDock);
    tabifyDockWidget(summaryDock, chartsDock);
    summaryDock->raise();
    m_timeline = new TimelineView(this);
    auto* timelineDock = new QDockWidget(tr("Timeline"), this);
    timelineDock->setObjectName("timelineDock");
    timelineDock->setWidget(m_timeline);
    addDockWidget(Qt::BottomDockWidgetArea, timelineDock);
    tabifyDockWidget(incidentsDock, timelineDock);
    // The scheduler jobs that trained the run, beside the incidents; a job moves the replay to its start.
    m_jobs = new JobsView(this);
    auto* jobsDock = new QDockWidget(tr("Jobs"), this);
    jobsDock->setObjectName("jobsDock");
    jobsDock->setWidget(m_jobs);
    addDockWidget(Qt::BottomDockWidgetArea, jobsDock);
    tabifyDockWidget(timelineDock, jobsDock);
    incidentsDock->raise();
    connect(m_jobs, &JobsView::timeRequested, m_replay, &ReplayPanel::setTime);
    connect(m_timeline, &TimelineView::timeRequested, m_replay, &ReplayPanel::setTime);
    connect(m_replay, &ReplayPanel::timeChanged, m_timeline, &TimelineView::setTime);
    connect(m_incidents, &IncidentView::incidentSelected, m_replay, [this](Nanos t, const std::vector<std::int32_t>& gpus) {
        m_replay->setTime(t);
        m_timeline->setVisibleRange(t - kHour, t + kHour);  // the incident with an hour either side
        // The failed hardware (with its blast radius, framed whole) in the view and the inspector.
        const ComponentRef focus = flyToIncident(*m_replay->fabricView(), failedPartAt(m_run.get(), t), gpus);
        if (focus.kind != ComponentKind::None) m_replay->inspector()->showPart(focus);
    });
    connect(m_incidents, &IncidentView::noteSaveFailed, this, [this](const QString& message) { statusBar()->showMessage(message); });
    connect(m_charts, &ChartsView::timeRequested, m_replay, &ReplayPanel::setTime);
    // A root cause's bar lists its incidents and marks them on the timeline; the chip in the
    // incident list clears both.
    connect(m_charts, &ChartsView::causeClicked, this, [this, incidentsDock](std::optional<RootCause> cause) {
        m_incidents->setCauseFilter(cause);
        m_timeline->setHighlightedCause(cause);
        m_replay->fabricView()->markCause(cause);
        if (cause) incidentsDock->raise();
    });
    connect(m_incidents, &IncidentView::causeFilterChanged, this, [this](std::optional<RootCause> cause) {
        m_charts->setHighlightedCause(cause);
        m_timeline->setHighlightedCause(cause);
        m_replay->fabricView()->markCause(cause);
    });
    connect(m_incidents, &IncidentView::chainEventClicked, m_replay, &ReplayPanel::setTime);
    connect(m_replay, &ReplayPanel::timeChanged, m_charts, &ChartsView::setTime);
    placeFirstWindow(*this);  // restoreLayout() puts back what the user arranged since

    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open Run..."), QKeySequence::Open, this, &MainWindow::chooseAndOpen);
    file->addAction(tr("Open &Sample Run"), this, &MainWindow::openSampleRun);
    // File > Import (and files dropped on the window): import, then open the run written.
    auto* importer = new ImportController(this);
    file->addAction(tr("&Import Files..."), importer, &ImportController::chooseFilesAndImport);
    file->addAction(tr("Import &Folder..."), importer, &ImportController::chooseFolderAndImport);
    connect(importer, &ImportController::imported, this, &MainWindow::openRun);
    // Comparing: the open run beside another (also a run file dropped with Ctrl held).
    file->addSeparator();
    QAction* compare = file->addAction(tr("&Compare With..."), this, &MainWindow::chooseAndCompare);
    compare->setObjectName("compareAction");
    installCompareDrop(this, [this](const QString& other) {
        if (m_run) openComparison(m_run->path, other, this);
    });
    file->addSeparator();
    // Viewing never writes the run file: notes go to its review file until asked for here.
    file->addAction(tr("Save Review into &Run File"), m_incidents, [this] {
        if (m_incidents->saveReviewIntoRunFile()) statusBar()->showMessage(tr("Saved the review into %1").arg(m_run ? m_run->path : QString()));
    })->setObjectName("saveReviewIntoRunAction");
    auto* exports = new ExportController(this);  // report, video, pictures, data
    exports->addActions(file);
    connect(exports, &ExportController::message, this, [this](const QString& text) { statusBar()->showMessage(text); });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, qApp, &QApplication::closeAllWindows);
    QMenu* view = menuBar()->addMenu(tr("&View"));
    for (QDockWidget* dock : {summaryDock, chartsDock, incidentsDock, timelineDock, jobsDock}) view->addAction(dock->toggleViewAction());
    view->addSeparator();
    // Presenting: the story of the run full screen (presentation_window.h).
    view->addAction(tr("&Present"), QKeySequence(Qt::Key_F5), this, [this] { if (m_run) presentRun(this, m_run, 5); });
    view->addAction(tr("Present &Worst Incidents..."), this, [this] {
        bool ok = false;
        const int n = QInputDialog::getInt(this, tr("Present"), tr("Incidents to walk through, worst by downtime first:"), 5, 0, 100, 1, &ok);
        if (ok && m_run) presentRun(this, m_run, n);
    });
    view->addSeparator();
    auto* themes = new QActionGroup(this);
    for (Theme theme : {Theme::Light, Theme::Dark}) {
        QAction* action = view->addAction(theme == Theme::Light ? tr("&Light Theme") : tr("&Dark Theme"), this, [theme] {
            applyTheme(theme);
            QSettings().setValue("theme", themeName(theme));
        });
        action->setCheckable(true);
        action->setChecked(themeFromName(QSettings().value("theme").toString()) == theme);
        themes->addAction(action);
    }
    // GPU states in Okabe & Ito's colours, told apart with any colour blindness (docs/colours.md).
    QAction* safeColours = view->addAction(tr("&Colour-Blind-Safe Colours"), this, [this](bool on) {
        QSettings().setValue("colourBlindSafe", on);
        showStatePalette(on);
    });
    safeColours->setObjectName("colourBlindSafeAction");
    safeColours->setCheckable(true);
    safeColours->setChecked(QSettings().value("colourBlindSafe").toBool());
    // FXAA: smooth edges for a GPU-driven display; too slow for software rendering, so off first.
    QAction* smooth = view->addAction(tr("Smooth &Edges (Anti-Aliasing)"), this, [this](bool on) {
        QSettings().setValue("smoothEdges", on);
        m_replay->fabricView()->setSmoothEdges(on);
    });
    smooth->setObjectName("smoothEdgesAction");
    smooth->setCheckable(true);
    smooth->setChecked(QSettings().value("smoothEdges").toBool());
    // SSAO: creases darken, the hall reads as solid; it costs frames on software rendering.
    QAction* occlusion = view->addAction(tr("&Ambient Occlusion"), this, [this](bool on) {
        QSettings().setValue("ambientOcclusion", on);
        m_replay->fabricView()->setAmbientOcclusion(on);
    });
    occlusion->setObjectName("ambientOcclusionAction");
    occlusion->setCheckable(true);
    occlusion->setChecked(QSettings().value("ambientOcclusion").toBool());
    // Cameras saved under a name in the run's review (viewpoint_menu.h).
    view->addSeparator();
    auto* viewpoints = new ViewpointMenu(*this, *m_replay->fabricView());
    view->addMenu(viewpoints);
    connect(viewpoints, &ViewpointMenu::message, this, [this](const QString& text) { statusBar()->showMessage(text); });
    // N and P walk the incidents, wherever the focus is.
    auto* nextIncident = new QShortcut(QKeySequence(Qt::Key_N), this);
    connect(nextIncident, &QShortcut::activated, m_replay, [this] { m_replay->jump(ReplayControls::Jump::NextIncident); });
    auto* previousIncident = new QShortcut(QKeySequence(Qt::Key_P), this);
    connect(previousIncident, &QShortcut::activated, m_replay, [this] { m_replay->jump(ReplayControls::Jump::PreviousIncident); });
    QMenu* tools = menuBar()->addMenu(tr("&Tools"));
    QAction* whatIf = tools->addAction(tr("&What If..."), this, [this] {
        if (!m_run) return;
        auto* dialog = new WhatIfDialog(m_run->path, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(dialog, &WhatIfDialog::written, this, [this](const QString& run, const QString& replayed) { openComparison(run, replayed, this); });
        dialog->open();
    });
    whatIf->setObjectName("whatIfAction");
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* docs = help->addAction(tr("&Documentation"), QKeySequence::HelpContents, this, [this] {
        showHelpWindow<DocumentationWindow>("documentationWindow", [this] { return new DocumentationWindow(documentationDir(), this); });
    });
    docs->setObjectName("documentationAction");
    QAction* keys = help->addAction(tr("&Keyboard Shortcuts"), QKeySequence(Qt::CTRL | Qt::Key_Slash), this, [this] {
        showHelpWindow<ShortcutsWindow>("shortcutsWindow", [this] { return new ShortcutsWindow(*this, this); });
    });
    keys->setObjectName("shortcutsAction");
    help->addSeparator();
    QAction* about = help->addAction(tr("&About Faultline"), this, [this] {
        showHelpWindow<AboutDialog>("aboutDialog", [this] { return new AboutDialog(this); });
    });
    about->setObjectName("aboutAction");
    about->setMenuRole(QAction::AboutRole);

    // Opening (and, at first start, simulating the sample) runs in the background: a busy
    // bar in the status bar says so until it is done.
    m_busy = new QProgressBar(this);
    m_busy->setObjectName("openProgress");
    m_busy->setRange(0, 0);
    m_busy->setMaximumWidth(160);
    m_busy->hide();
    statusBar()->addPermanentWidget(m_busy);
    connect(m_loader, &RunLoader::loaded, this, &MainWindow::showRun);
    connect(m_loader, &RunLoader::failed, this, &MainWindow::showError);
    connect(m_loader, &RunLoader::loaded, m_busy, [this] { m_busy->setVisible(m_loader->busy()); });
    connect(m_loader, &RunLoader::failed, m_busy, [this] { m_busy->setVisible(m_loader->busy()); });
}

// One window of each kind: asking again raises the one already open.
template <typename Window, typename Make>
void MainWindow::showHelpWindow(const char* name, Make make) {
    auto* window = findChild<Window*>(name, Qt::FindDirectChildrenOnly);
    if (!window) {
        window = make();
        window->setAttribute(Qt::WA_DeleteOnClose);
    }
    window->show();
    window->raise();
    window->activateWindow();
}

void MainWindow::restoreLayout() {
    QSettings settings;
    restoreGeometry(settings.value("window/geometry").toByteArray());
    if (restoreState(settings.value("window/state").toByteArray())) keepRestoredDocks(*this);
    applyTheme(themeFromName(settings.value("theme").toString()));
    showStatePalette(settings.value("colourBlindSafe").toBool());
    m_replay->fabricView()->setSmoothEdges(settings.value("smoothEdges").toBool());
    m_replay->fabricView()->setAmbientOcclusion(settings.value("ambientOcclusion").toBool());
}

void MainWindow::showStatePalette(bool colourBlindSafe) {
    activeStatePaletteKind() = colourBlindSafe ? StatePaletteKind::ColourBlindSafe : StatePaletteKind::Standard;
    m_replay->refreshStateColours();
    m_charts->refreshStateColours();
    m_timeline->update();
}

void MainWindow::closeEvent(QCloseEvent* event) {
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState());
    QMainWindow::closeEvent(event);
}

void MainWindow::openRun(const QString& path) {
    showMessage(tr("Opening %1...").arg(QFileInfo(path).fileName()));
    m_loader->load(path);
    m_busy->show();
}

void MainWindow::openSampleRun() {
    showMessage(tr("Opening the sample run (simulated %1, seed %2)...").arg(kSamplePreset).arg(kSampleSeed));
    m_loader->prepareAndLoad(&ensureSampleRun);
    m_busy->show();
}

void MainWindow::chooseAndOpen() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Run"), QString(), tr("Faultline runs (*.faultline);;All files (*)"));
    if (!path.isEmpty()) openRun(path);
}

void MainWindow::chooseAndCompare() {
    if (!m_run) return;
    const QString path = QFileDialog::getOpenFileName(this, tr("Compare With"), QFileInfo(m_run->path).absolutePath(),
                                                      tr("Faultline runs (*.faultline);;All files (*)"));
    if (!path.isEmpty()) openComparison(m_run->path, path, this);
}

void MainWindow::showRun(std::shared_ptr<const LoadedRun> run) {
    m_run = std::move(run);
    m_summary->setSummary(m_run->summary);
    QStringList highlights;
    for (const std::string& line : runHighlights(m_run->run, m_run->summary, m_run->stragglers)) highlights << QString::fromStdString(line);
    m_summary->setHighlights(highlights);
    m_replay->setRun(std::shared_ptr<const Run>(m_run, &m_run->run));
    m_charts->setRun(std::shared_ptr<const Run>(m_run, &m_run->run), m_run->summary, m_run->stragglers);
    m_timeline->setRun(std::shared_ptr<const Run>(m_run, &m_run->run), m_run->lanes);
    m_incidents->setRun(std::shared_ptr<const Run>(m_run, &m_run->run), m_run->incidents, m_run->path);
    m_replay->inspector()->setIncidents(m_run->incidents);
    m_jobs->setRun(std::shared_ptr<const Run>(m_run, &m_run->run));
    m_pages->setCurrentWidget(m_replay);
    setWindowTitle(tr("%1 — Faultline").arg(QString::fromStdString(m_run->summary.name)));
    statusBar()->showMessage(tr("Opened %1. %2").arg(m_run->path, m_incidents->notesLocation()));
    emit runShown();
}

void MainWindow::showError(const QString& message) {
    statusBar()->showMessage(message);
    if (!m_run) m_placeholder->setText(message);
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Cannot open run"), message, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
    emit runFailed(message);
}

void MainWindow::showMessage(const QString& message) {
    statusBar()->showMessage(message);
    if (!m_run) m_placeholder->setText(message);
}

}  // namespace faultline
