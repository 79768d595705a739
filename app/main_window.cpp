#include "main_window.h"

#include "compare_drop.h"
#include "compare_window.h"
#include "export_controller.h"
#include "first_window.h"
#include "presentation_window.h"
#include "hang_window.h"
#include "recent_files.h"
#include "review_watcher.h"
#include "help_windows.h"
#include "import_controller.h"
#include "job_follower.h"
#include "prometheus_dialog.h"
#include "sample_run.h"
#include "theme.h"
#include "colour_by_menu.h"
#include "viewpoint_menu.h"
#include "what_if_dialog.h"
#include "window_menus.h"
#include "analysis/blast_radius.h"
#include "analysis/opening_instant.h"
#include "analysis/run_highlights.h"
#include "model/review_file.h"
#include "views/charts_view.h"
#include "views/fabric/fabric_view.h"
#include "views/state_palette.h"
#include "views/fabric/incident_camera.h"
#include "views/incident_view.h"
#include "views/inspector_view.h"
#include "views/jobs_view.h"
#include "views/repeat_offenders_view.h"
#include "views/replay_panel.h"
#include "views/timeline_view.h"
#include "views/summary_view.h"
#include "widgets/wheel_guard.h"

#include <QActionGroup>
#include <QInputDialog>
#include <QApplication>
#include <QCloseEvent>
#include <QSettings>
#include <QUrl>
#include <QShortcut>
#include <QSignalBlocker>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QScrollArea>
#include <QResizeEvent>
#include <QStackedWidget>
#include <QTimer>
#include <QStatusBar>

#include <array>

namespace faultline {

namespace {
// The hardware that failed in the incident that began at `t`, if one did.
ComponentRef failedPartAt(const LoadedRun* run, Nanos t) {
    if (!run) return {};
    for (const Incident& incident : run->incidents)
        if (incident.begin == t) return failedPart(run->run, incident);
    return {};
}

// The other failed GPUs of the incident at `t` to label beside its part (a hang's other culprits).
std::vector<std::int32_t> suspectGpusAt(const LoadedRun* run, Nanos t) {
    if (!run) return {};
    for (const Incident& incident : run->incidents)
        if (incident.begin == t) return suspectGpus(run->run, incident);
    return {};
}

enum class Menu { File, View, Tools, Help };

// One row of the menu bar: an action (its text, shortcut, object name and what it does), a
// separator (no text), or what another object puts in the menu itself (`add`).
struct MenuItem {
    Menu menu;
    QString text = {};
    QKeySequence shortcut = {};
    const char* name = "";  // what tests and the shortcuts window find it by
    std::function<void()> triggered = {};
    // Checkable, its state remembered in QSettings under this key; `toggled` puts it into effect.
    const char* setting = nullptr;
    std::function<void(bool)> toggled = {};
    std::function<void(QMenu*)> add = {};
    QAction::MenuRole role = QAction::TextHeuristicRole;
};
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
    guardWheelsAppWide();  // a passing wheel changes no value (the confirmed cause above all)
    createPages();
    createDocks();
    connectPanels();
    m_defaultDocks = saveState();  // what View > Reset Layout puts back
    placeFirstWindow(*this);  // restoreLayout() puts back what the user arranged since
    createMenus(createDropTargets());
    createIncidentShortcuts();
    createBusyIndicator();
    findChild<QAction*>("stopFollowingAction")->setEnabled(false);
}

void MainWindow::createPages() {
    m_placeholder->setObjectName("placeholder");
    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setText(tr("Open a run with File > Open."));
    m_pages->addWidget(m_placeholder);
    // The run replayed on its cluster fills the window; the summary sits beside it.
    m_pages->addWidget(m_replay);
    setCentralWidget(m_pages);
}

void MainWindow::createDocks() {
    auto dock = [this](const QString& title, const char* name, QWidget* panel) {
        auto* made = new QDockWidget(title, this);
        made->setObjectName(name);
        made->setWidget(panel);
        return made;
    };
    // In a small window a tall panel scrolls rather than making the window taller than the screen.
    auto scrolled = [](QWidget* panel) {
        auto* scroll = new QScrollArea;  // the dock it is set in takes it
        scroll->setWidget(panel);
        scroll->setWidgetResizable(true);
        scroll->setFrameShape(QFrame::NoFrame);
        return scroll;
    };
    m_docks.summary = dock(tr("Summary"), "summaryDock", scrolled(m_summary));
    addDockWidget(Qt::RightDockWidgetArea, m_docks.summary);
    // The incidents under the replay; the charts beside the summary. Each moves the replay.
    m_incidents = new IncidentView(this);
    m_docks.incidents = dock(tr("Incidents"), "incidentsDock", m_incidents);
    addDockWidget(Qt::BottomDockWidgetArea, m_docks.incidents);
    m_charts = new ChartsView(this);
    // The charts keep a readable size (whole labels, round ticks; one column in a narrow
    // dock) and scroll in a small one.
    m_docks.charts = dock(tr("Charts"), "chartsDock", scrolled(m_charts));
    addDockWidget(Qt::RightDockWidgetArea, m_docks.charts);
    tabifyDockWidget(m_docks.summary, m_docks.charts);
    m_docks.summary->raise();
    m_timeline = new TimelineView(this);
    m_docks.timeline = dock(tr("Timeline"), "timelineDock", m_timeline);
    addDockWidget(Qt::BottomDockWidgetArea, m_docks.timeline);
    tabifyDockWidget(m_docks.incidents, m_docks.timeline);
    // The scheduler jobs that trained the run, beside the incidents; a job moves the replay to its start.
    m_jobs = new JobsView(this);
    m_docks.jobs = dock(tr("Jobs"), "jobsDock", m_jobs);
    addDockWidget(Qt::BottomDockWidgetArea, m_docks.jobs);
    tabifyDockWidget(m_docks.timeline, m_docks.jobs);
    // The parts that failed more than once, beside the jobs; a part shows in the 3D view.
    m_offenders = new RepeatOffendersView(this);
    m_docks.offenders = dock(tr("Repeat Offenders"), "repeatOffendersDock", m_offenders);
    addDockWidget(Qt::BottomDockWidgetArea, m_docks.offenders);
    tabifyDockWidget(m_docks.jobs, m_docks.offenders);
    m_docks.incidents->raise();
}

void MainWindow::connectPanels() {
    connect(m_jobs, &JobsView::timeRequested, m_replay, &ReplayPanel::setTime);
    connect(m_jobs, &JobsView::jobPicked, this, [this](std::int32_t job) {
        // The job's hardware framed: on a fleet, where among the halls it ran.
        if (!m_run || job < 0 || static_cast<std::size_t>(job) >= m_run->run.jobs.size()) return;
        std::vector<ComponentRef> hosts;
        for (std::int32_t h : m_run->run.jobs[static_cast<std::size_t>(job)].hosts) hosts.push_back({ComponentKind::Host, h});
        if (hosts.empty()) return;
        FabricView* view = m_replay->fabricView();
        view->flyTo([view, hosts] { view->frameParts(hosts); });
    });
    connect(m_offenders, &RepeatOffendersView::timeRequested, m_replay, &ReplayPanel::setTime);
    connect(m_offenders, &RepeatOffendersView::partRequested, m_replay, &ReplayPanel::showPart);
    connect(m_timeline, &TimelineView::timeRequested, m_replay, &ReplayPanel::setTime);
    connect(m_replay, &ReplayPanel::timeChanged, m_timeline, &TimelineView::setTime);
    connect(m_incidents, &IncidentView::incidentSelected, m_replay, [this](Nanos t, const std::vector<std::int32_t>& gpus) {
        m_replay->setTime(t);
        m_timeline->setVisibleRange(t - kHour, t + kHour);  // the incident with an hour either side
        // The failed hardware (with its blast radius, framed whole) in the view and the inspector.
        const ComponentRef focus = flyToIncident(*m_replay->fabricView(), failedPartAt(m_run.get(), t), gpus, 1200, suspectGpusAt(m_run.get(), t));
        if (focus.kind != ComponentKind::None) m_replay->inspector()->showPart(focus);
    });
    connect(m_incidents, &IncidentView::noteSaveFailed, this, [this](const QString& message) { statusBar()->showMessage(message); });
    m_reviewWatcher = new ReviewWatcher(this);
    connect(m_reviewWatcher, &ReviewWatcher::changedOutside, this, &MainWindow::reloadReview);
    connect(m_charts, &ChartsView::timeRequested, m_replay, &ReplayPanel::setTime);
    // A root cause's bar lists its incidents and marks them on the timeline; the chip in the
    // incident list clears both.
    connect(m_charts, &ChartsView::causeClicked, this, [this](std::optional<RootCause> cause) {
        m_incidents->setCauseFilter(cause);
        m_timeline->setHighlightedCause(cause);
        m_replay->fabricView()->markCause(cause);
        if (cause) m_docks.incidents->raise();
    });
    connect(m_incidents, &IncidentView::causeFilterChanged, this, [this](std::optional<RootCause> cause) {
        m_charts->setHighlightedCause(cause);
        m_timeline->setHighlightedCause(cause);
        m_replay->fabricView()->markCause(cause);
    });
    connect(m_incidents, &IncidentView::chainEventClicked, m_replay, &ReplayPanel::setTime);
    connect(m_incidents, &IncidentView::hangRequested, this, [this](std::int32_t rank) { showHang(rank); });
    connect(m_replay->inspector(), &InspectorView::hangRequested, this, [this](std::int32_t rank) { showHang(rank); });
    // A click on the legend in the view folds it as the menu does: one state, remembered.
    connect(m_replay->fabricView(), &FabricView::legendCollapsedChanged, this, [this](bool folded) {
        if (QAction* fold = findChild<QAction*>("foldLegendAction"); fold && fold->isChecked() != folded) fold->setChecked(folded);
        QSettings().setValue("legendFolded", folded);
    });
    // N and P walk the incidents of the list: the one reached is the one it selects and reviews.
    connect(m_replay, &ReplayPanel::incidentReached, m_incidents, &IncidentView::selectIncidentAt);
    connect(m_replay, &ReplayPanel::timeChanged, m_charts, &ChartsView::setTime);
}

// Files dropped on the window are imported (as File > Import does), then the run written is
// opened; a run file dropped with Ctrl held is compared with the open run.
ImportController* MainWindow::createDropTargets() {
    auto* importer = new ImportController(this);
    connect(importer, &ImportController::imported, this, &MainWindow::openRun);
    installCompareDrop(this, [this](const QString& other) {
        if (m_run) openComparison(m_run->path, other, this);
    });
    return importer;
}

void MainWindow::createMenus(ImportController* importer) {
    auto message = [this](const QString& text) { statusBar()->showMessage(text); };
    const std::vector<MenuItem> items{
        {Menu::File, tr("&Open Run..."), QKeySequence::Open, "", [this] { chooseAndOpen(); }},
        {Menu::File, tr("Open &Sample Run"), {}, "", [this] { openSampleRun(); }},
        {.menu = Menu::File, .add = [this](QMenu* file) { addRecentMenu(file, this, [this](const QString& path) { openRun(path); }); }},
        {Menu::File, tr("&Import Files..."), {}, "", [importer] { importer->chooseFilesAndImport(); }},
        {Menu::File, tr("Import &Folder..."), {}, "", [importer] { importer->chooseFolderAndImport(); }},
        {Menu::File, tr("Import from &Prometheus..."), {}, "importPrometheusAction", [this, importer] {
             askAndPullFromPrometheus(this, m_run ? &m_run->run : nullptr, m_run ? m_run->path : QString(), importer);
         }},
        {Menu::File, tr("Fo&llow Job Folder..."), {}, "followAction", [this] { chooseAndFollow(); }},
        {Menu::File, tr("Follow Job Folder &with Prometheus..."), {}, "followPrometheusAction", [this] { chooseAndFollowWithPrometheus(); }},
        {Menu::File, tr("S&top Following"), {}, "stopFollowingAction", [this] { stopFollowing(); }},
        // Comparing: the open run beside another (also a run file dropped with Ctrl held).
        {Menu::File},
        {Menu::File, tr("&Compare With..."), {}, "compareAction", [this] { chooseAndCompare(); }},
        {Menu::File},
        // Viewing never writes the run file: notes go to its review file until asked for here.
        {Menu::File, tr("Save Review into &Run File"), {}, "saveReviewIntoRunAction", [this] { saveReviewIntoRunFile(); }},
        {.menu = Menu::File, .add = [this, message](QMenu* file) {
             auto* exports = new ExportController(this);  // report, video, pictures, data
             exports->addActions(file);
             connect(exports, &ExportController::message, this, message);
         }},
        {Menu::File},
        {Menu::File, tr("&Quit"), QKeySequence::Quit, "", [] { QApplication::closeAllWindows(); }},

        {.menu = Menu::View, .add = [this](QMenu* view) {
             for (QDockWidget* dock : m_docks.all())
                 view->addAction(dock->toggleViewAction());
         }},
        {Menu::View, tr("&Reset Layout"), {}, "resetLayoutAction", [this] { resetLayout(); }},
        // The keyboard's way to the selected incident's note (N and P select one).
        {Menu::View, tr("Write a &Note on the Incident"), QKeySequence(Qt::CTRL | Qt::Key_E), "writeNoteAction", [this] {
             m_docks.incidents->show();
             m_docks.incidents->raise();
             if (!m_incidents->focusNotes()) statusBar()->showMessage(tr("Select an incident first (N and P go to the next and previous one)."));
         }},
        {.menu = Menu::View, .text = tr("&Fold the 3D View's Legend"), .name = "foldLegendAction", .setting = "legendFolded",
         .toggled = [this](bool on) { m_replay->fabricView()->setLegendCollapsed(on); }},
        {Menu::View},
        // Presenting: the story of the run full screen (presentation_window.h).
        {Menu::View, tr("&Present"), QKeySequence(Qt::Key_F5), "", [this] { if (m_run) presentRun(this, m_run, 5); }},
        {Menu::View, tr("Present &Worst Incidents..."), {}, "", [this] { presentWorstIncidents(); }},
        {Menu::View},
        // Who hung the job, when the run was imported from Flight Recorder dumps (hang_window.h).
        {Menu::View, tr("&Hang (Flight Recorder)..."), {}, "hangAction", [this] { showHang(); }},
        {Menu::View},
        {.menu = Menu::View, .add = [this](QMenu* view) {
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
         }},
        // GPUs by state or by a metric of the run's telemetry (colour_by_menu.h).
        {.menu = Menu::View, .add = [this](QMenu* view) { view->addMenu(new ColourByMenu(*m_replay->fabricView(), view)); }},
        // GPU states in Okabe & Ito's colours, told apart with any colour blindness (docs/colours.md).
        {.menu = Menu::View, .text = tr("&Colour-Blind-Safe Colours"), .name = "colourBlindSafeAction", .setting = "colourBlindSafe",
         .toggled = [](bool on) { setStatePalette(on ? StatePaletteKind::ColourBlindSafe : StatePaletteKind::Standard); }},
        // FXAA: smooth edges for a GPU-driven display; too slow for software rendering, so off first.
        {.menu = Menu::View, .text = tr("Smooth &Edges (Anti-Aliasing)"), .name = "smoothEdgesAction", .setting = "smoothEdges",
         .toggled = [this](bool on) { m_replay->fabricView()->setSmoothEdges(on); }},
        // SSAO: creases darken, the hall reads as solid; it costs frames on software rendering.
        {.menu = Menu::View, .text = tr("&Ambient Occlusion"), .name = "ambientOcclusionAction", .setting = "ambientOcclusion",
         .toggled = [this](bool on) { m_replay->fabricView()->setAmbientOcclusion(on); }},
        // Cameras saved under a name in the run's review (viewpoint_menu.h).
        {Menu::View},
        {.menu = Menu::View, .add = [this, message](QMenu* view) {
             auto* viewpoints = new ViewpointMenu(*this, *m_replay->fabricView());
             view->addMenu(viewpoints);
             connect(viewpoints, &ViewpointMenu::message, this, message);
         }},

        {Menu::Tools, tr("&What If..."), {}, "whatIfAction", [this] { openWhatIf(); }},

        {Menu::Help, tr("&Documentation"), QKeySequence::HelpContents, "documentationAction", [this] {
             showHelpWindow<DocumentationWindow>("documentationWindow", [this] { return new DocumentationWindow(documentationDir(), this); });
         }},
        {Menu::Help, tr("&Keyboard Shortcuts"), QKeySequence(Qt::CTRL | Qt::Key_Slash), "shortcutsAction", [this] {
             showHelpWindow<ShortcutsWindow>("shortcutsWindow", [this] { return new ShortcutsWindow(*this, this); });
         }},
        {Menu::Help},
        {.menu = Menu::Help, .text = tr("&About Faultline"), .name = "aboutAction",
         .triggered = [this] { showHelpWindow<AboutDialog>("aboutDialog", [this] { return new AboutDialog(this); }); },
         .role = QAction::AboutRole},
    };

    const std::array<QMenu*, 4> menus{menuBar()->addMenu(tr("&File")), menuBar()->addMenu(tr("&View")), menuBar()->addMenu(tr("&Tools")),
                                      menuBar()->addMenu(tr("&Help"))};
    for (const MenuItem& item : items) {
        QMenu* menu = menus[static_cast<std::size_t>(item.menu)];
        if (item.add) {
            item.add(menu);
            continue;
        }
        if (item.text.isEmpty()) {
            menu->addSeparator();
            continue;
        }
        QAction* action = item.setting ? addRememberedToggle(menu, item.text, item.name, item.setting, item.toggled) : menu->addAction(item.text);
        if (!item.shortcut.isEmpty()) action->setShortcut(item.shortcut);
        if (*item.name) action->setObjectName(item.name);
        if (item.triggered) connect(action, &QAction::triggered, this, item.triggered);
        action->setMenuRole(item.role);
    }
}

QAction* MainWindow::addRememberedToggle(QMenu* menu, const QString& text, const char* name, const char* key, std::function<void(bool)> apply) {
    QAction* action = menu->addAction(text);
    action->setObjectName(name);
    action->setCheckable(true);
    action->setChecked(QSettings().value(key).toBool());
    connect(action, &QAction::triggered, this, [key, apply](bool on) {
        QSettings().setValue(key, on);
        apply(on);
    });
    m_rememberedToggles.push_back({key, std::move(apply)});
    return action;
}

void MainWindow::createIncidentShortcuts() {
    // N and P walk the incidents, wherever the focus is.
    auto* nextIncident = new QShortcut(QKeySequence(Qt::Key_N), this);
    connect(nextIncident, &QShortcut::activated, m_replay, [this] { m_replay->jump(ReplayControls::Jump::NextIncident); });
    auto* previousIncident = new QShortcut(QKeySequence(Qt::Key_P), this);
    connect(previousIncident, &QShortcut::activated, m_replay, [this] { m_replay->jump(ReplayControls::Jump::PreviousIncident); });
}

void MainWindow::createBusyIndicator() {
    // Opening (and, at first start, simulating the sample) runs in the background: a busy
    // bar in the status bar says so until it is done.
    m_busy = new QProgressBar(this);
    m_busy->setObjectName("openProgress");
    m_busy->setRange(0, 0);
    m_busy->setMaximumWidth(160);
    m_busy->hide();
    statusBar()->addPermanentWidget(m_busy);
    m_followStatus = new QLabel(this);
    m_followStatus->setObjectName("followStatus");
    m_followStatus->hide();
    statusBar()->addPermanentWidget(m_followStatus);
    connect(m_loader, &RunLoader::loaded, this, &MainWindow::showRun);
    connect(m_loader, &RunLoader::failed, this, &MainWindow::showError);
    connect(m_loader, &RunLoader::loaded, m_busy, [this] { m_busy->setVisible(m_loader->busy()); });
    connect(m_loader, &RunLoader::failed, m_busy, [this] { m_busy->setVisible(m_loader->busy()); });
}

void MainWindow::reloadReview() {
    if (!m_run) return;
    const int selected = m_incidents->selectedIncidentId();
    m_incidents->setRun(std::shared_ptr<const Run>(m_run, &m_run->run), m_run->incidents, m_run->path);
    if (selected >= 0) {
        const QSignalBlocker quiet(m_incidents);  // the same incident again: the replay stays where it is
        m_incidents->selectIncident(selected);
    }
    statusBar()->showMessage(tr("The review of %1 was changed in another window or by another reviewer: its notes are shown as saved now")
                                 .arg(m_run->path));
}

void MainWindow::saveReviewIntoRunFile() {
    if (m_incidents->saveReviewIntoRunFile()) statusBar()->showMessage(tr("Saved the review into %1").arg(m_run ? m_run->path : QString()));
}

void MainWindow::presentWorstIncidents() {
    bool ok = false;
    const int n = QInputDialog::getInt(this, tr("Present"), tr("Incidents to walk through, worst by downtime first:"), 5, 0, 100, 1, &ok);
    if (ok && m_run) presentRun(this, m_run, n);
}

void MainWindow::showHang(std::optional<std::int32_t> rank) {
    if (!m_run) return;
    auto* window = findChild<HangWindow*>("hangWindow", Qt::FindDirectChildrenOnly);
    if (window && window->property("runPath").toString() != m_run->path) {
        window->close();  // another run's hang
        window = nullptr;
    }
    if (!window) {
        window = new HangWindow(m_run, this);
        window->setAttribute(Qt::WA_DeleteOnClose);
        window->setProperty("runPath", m_run->path);
    }
    if (rank) window->showRank(*rank);
    window->show();
    window->raise();
    window->activateWindow();
}

void MainWindow::openWhatIf() {
    if (!m_run) return;
    auto* dialog = new WhatIfDialog(m_run->path, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &WhatIfDialog::written, this, [this](const QString& run, const QString& replayed) { openComparison(run, replayed, this); });
    dialog->open();
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
    for (const RememberedToggle& toggle : m_rememberedToggles) toggle.apply(settings.value(toggle.key).toBool());
}

void MainWindow::resetLayout() {
    restoreState(m_defaultDocks);
    for (QDockWidget* dock : m_docks.all()) {
        dock->setFloating(false);
        dock->show();
    }
    m_docks.summary->raise();
    m_docks.incidents->raise();
    shareOutDocks(*this);
    m_replay->fabricView()->setLegendCollapsed(false);
    if (QAction* fold = findChild<QAction*>("foldLegendAction")) fold->setChecked(false);
    QSettings().setValue("legendFolded", false);
    statusBar()->showMessage(tr("The panels are back where they started."));
}

void MainWindow::resizeEvent(QResizeEvent* event) {
    QMainWindow::resizeEvent(event);
    // Shrinking, the docks give way before the 3D view (once the new size is laid out).
    const QSize was = event->oldSize(), now = event->size();
    if (was.isValid() && (now.width() < was.width() || now.height() < was.height()))
        QTimer::singleShot(0, this, [this] { keepDocksSmallerThanThe3DView(*this); });
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

void MainWindow::chooseAndFollow() {
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Follow Job Folder"));
    if (!folder.isEmpty()) followFolder(folder);
}

// The folder, then the server: the dialog without a span (a followed pull goes from the
// files' first event up to now, at each look).
void MainWindow::chooseAndFollowWithPrometheus() {
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Follow Job Folder"));
    if (folder.isEmpty()) return;
    PrometheusDialog dialog(this);
    dialog.setFollowing(QFileInfo(folder).fileName());
    if (dialog.exec() != QDialog::Accepted) return;
    if (std::optional<PrometheusPullOptions> pull = dialog.pullOptions(nullptr)) followFolder(folder, std::move(pull));
}

void MainWindow::followFolder(const QString& folder, std::optional<PrometheusPullOptions> pull) {
    stopFollowing();
    try {
        m_follower = new JobFollower(folder, JobFollower::runPathFor(folder), std::move(pull), this);
        m_followShown = false;
        m_pullProblem.clear();
    } catch (const std::exception& e) {
        showError(tr("Cannot follow %1: %2").arg(folder, QString::fromUtf8(e.what())));
        return;
    }
    const QString name = QFileInfo(folder).fileName();
    m_followStatus->setText(tr("Following %1: waiting for its files").arg(name));
    QString tip = tr("%1 is read again as its files grow; the run is kept in %2").arg(folder, m_follower->runPath());
    if (!m_follower->pullUrl().isEmpty()) tip += tr("\nGPU telemetry is pulled from %1 up to now at each look").arg(m_follower->pullUrl());
    m_followStatus->setToolTip(tip);
    m_followStatus->show();
    connect(m_follower, &JobFollower::updated, this, &MainWindow::showFollowedUpdate);
    connect(m_follower, &JobFollower::waiting, this, [this, name](const QString& why) {
        m_followStatus->setText(tr("Following %1: waiting (%2)").arg(name, QFileInfo(why.section(':', 0, 0)).fileName()));
        m_followStatus->setToolTip(why);
    });
    // A server that stops answering is told once, and again when it answers: following goes on.
    connect(m_follower, &JobFollower::pulled, this, [this](const QString& problem) {
        if (problem == m_pullProblem) return;
        const QString url = m_follower->pullUrl();
        QString why = problem;
        if (why.startsWith(url + ": ")) why.remove(0, url.size() + 2);  // the client's messages begin with the URL
        if (!problem.isEmpty() && m_pullProblem.isEmpty())
            statusBar()->showMessage(tr("Pulling from %1 failed: %2 (asked again at the next look; what was pulled is kept)").arg(url, why));
        else if (problem.isEmpty())
            statusBar()->showMessage(tr("Pulling from %1 again").arg(url));
        m_pullProblem = problem;
        showFollowStatus();
    });
    if (auto* stop = findChild<QAction*>("stopFollowingAction")) stop->setEnabled(true);
}

// "Following job: updated 12:00:01", and whether the server answers where one is pulled from.
void MainWindow::showFollowStatus() {
    if (!m_follower) return;
    const QString name = QFileInfo(m_follower->folder()).fileName();
    QString text = m_follower->lastUpdate().isValid() ? tr("Following %1: updated %2").arg(name, m_follower->lastUpdate().toString("HH:mm:ss"))
                                                      : tr("Following %1: waiting for its files").arg(name);
    if (const QString host = QUrl(m_follower->pullUrl()).host(); !host.isEmpty())
        text += m_pullProblem.isEmpty() ? tr("; metrics from %1").arg(host) : tr("; %1 not answering").arg(host);
    m_followStatus->setText(text);
}

void MainWindow::showFollowedUpdate(const QString& runPath, const QStringList& newIncidents) {
    if (!m_follower) return;
    showFollowStatus();
    // Another run opened since following began stays open: the followed one is in its file.
    const bool showingFollowed = m_run && m_run->path == runPath;
    const bool firstShow = !std::exchange(m_followShown, true);
    if (m_run && !showingFollowed && !firstShow) {
        if (!newIncidents.isEmpty()) {
            statusBar()->showMessage(tr("New incident in the followed job: %1").arg(newIncidents.join("; ")));
            QApplication::alert(this);
        }
        return;
    }
    // The first run shown is the folder as it was: its incidents are not news.
    if (!firstShow) m_newIncidents += newIncidents;
    if (!firstShow && !newIncidents.isEmpty()) QApplication::alert(this);
    m_keepViewOnNextRun = showingFollowed;
    m_loader->load(runPath);
}

void MainWindow::stopFollowing() {
    if (auto* stop = findChild<QAction*>("stopFollowingAction")) stop->setEnabled(false);
    if (!m_follower) return;
    delete m_follower;
    m_follower = nullptr;
    m_followStatus->hide();
    statusBar()->showMessage(tr("Stopped following; the run as last read stays open."));
}

void MainWindow::chooseAndCompare() {
    if (!m_run) return;
    const QString path = QFileDialog::getOpenFileName(this, tr("Compare With"), QFileInfo(m_run->path).absolutePath(),
                                                      tr("Faultline runs (*.faultline);;All files (*)"));
    if (!path.isEmpty()) openComparison(m_run->path, path, this);
}

void MainWindow::showRun(std::shared_ptr<const LoadedRun> run) {
    // A followed run shown again keeps the camera, the instant and the selected incident.
    const bool keepView = std::exchange(m_keepViewOnNextRun, false) && m_run && run && m_run->path == run->path;
    const CameraPose pose = m_replay->fabricView()->cameraPose();
    // Kept as wall-clock times: a file that reaches further back moves the run's start.
    const std::int64_t instant = m_run ? m_run->run.info.startEpochNs + m_replay->time() : 0;
    std::optional<std::int64_t> selectedAt;
    if (keepView)
        for (const Incident& incident : m_run->incidents)
            if (incident.id == m_incidents->selectedIncidentId()) selectedAt = m_run->run.info.startEpochNs + incident.begin;
    m_run = std::move(run);
    m_summary->setSummary(m_run->summary);
    QStringList highlights;
    for (const std::string& line : runHighlights(m_run->run, m_run->summary, m_run->stragglers)) highlights << QString::fromStdString(line);
    m_summary->setHighlights(highlights);
    m_replay->setRun(std::shared_ptr<const Run>(m_run, &m_run->run));
    if (auto* colourBy = findChild<ColourByMenu*>("colourByMenu")) colourBy->setRun(&m_run->run);
    m_charts->setRun(std::shared_ptr<const Run>(m_run, &m_run->run), m_run->summary, m_run->stragglers);
    m_timeline->setRun(std::shared_ptr<const Run>(m_run, &m_run->run), m_run->lanes);
    m_incidents->setRun(std::shared_ptr<const Run>(m_run, &m_run->run), m_run->incidents, m_run->path);
    m_reviewWatcher->watch(QString::fromStdString(reviewFilePath(m_run->path.toStdString())));
    m_replay->inspector()->setIncidents(m_run->incidents);
    m_replay->inspector()->setLateRanks(m_run->stragglers);
    std::vector<Nanos> incidentTimes;
    for (const Incident& incident : m_run->incidents) incidentTimes.push_back(incident.begin);
    m_replay->setIncidentTimes(std::move(incidentTimes));
    m_jobs->setRun(std::shared_ptr<const Run>(m_run, &m_run->run));
    m_offenders->setRun(std::shared_ptr<const Run>(m_run, &m_run->run));
    m_pages->setCurrentWidget(m_replay);
    if (auto* hang = findChild<QAction*>("hangAction")) hang->setEnabled(m_run->run.hang.has_value());
    rememberRecent({m_run->path, {}});  // File > Open Recent
    setWindowTitle(tr("%1 — Faultline").arg(QString::fromStdString(m_run->summary.name)));
    statusBar()->showMessage(tr("Opened %1. %2").arg(QFileInfo(m_run->path).fileName(), m_incidents->notesStatus()));
    if (keepView) {
        m_replay->fabricView()->setCameraPose(pose);
        const std::int64_t start = m_run->run.info.startEpochNs;
        m_replay->setTime(instant - start);
        // The same incident again (found by its first symptom: an earlier one may have arrived
        // and numbered it anew), without flying the camera to it.
        for (const Incident& incident : m_run->incidents)
            if (selectedAt && start + incident.begin == *selectedAt) {
                const QSignalBlocker quiet(m_incidents);
                m_incidents->selectIncident(incident.id);
            }
        if (!m_newIncidents.isEmpty()) statusBar()->showMessage(tr("New incident: %1").arg(m_newIncidents.join("; ")));
        m_newIncidents.clear();
        emit runShown();
        return;
    }
    // Short evidence (a crash log, a hang's dumps) opens on its first symptom: the incident
    // selected, the failed hardware red, framed and in the inspector, not step 0.
    if (const std::optional<Nanos> first = openingInstant(m_run->run, m_run->incidents))
        for (const Incident& incident : m_run->incidents)
            if (incident.begin == *first) {
                m_incidents->selectIncident(incident.id);
                break;
            }
    emit runShown();
}

void MainWindow::showError(const QString& message) {
    statusBar()->showMessage(message);
    if (!m_run) m_placeholder->setText(message);
    m_charts->showNoRun(message);  // no empty axes: why there is nothing to chart
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
