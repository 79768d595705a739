#include "compare_window.h"
#include "widgets/qt_text.h"
#include "recent_files.h"
#include "window_menus.h"
#include "widgets/wheel_guard.h"

#include "widgets/run_in_background.h"
#include "model/error.h"
#include "model/format.h"
#include "analysis/blast_radius.h"
#include "exports/comparison_report.h"
#include "model/replay_state.h"
#include "model/run_file.h"
#include "views/comparison_charts.h"
#include "views/fabric/fabric_view.h"
#include "views/kpi_diff_view.h"
#include "views/fabric/linked_cameras.h"
#include "views/playback_clock.h"
#include "views/replay_controls.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QGuiApplication>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollBar>
#include <QHeaderView>
#include <QScreen>
#include <QShortcut>
#include <QSplitter>
#include <QStandardItemModel>
#include <QStatusBar>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <variant>

namespace faultline {

namespace {

std::shared_ptr<const Run> readRun(const QString& path) {
    try {
        return std::make_shared<const Run>(readRunFile(path.toStdString()));
    } catch (const Error& e) {
        const std::string message = e.what();
        if (message.find(path.toStdString()) != std::string::npos) throw;
        throw Error(path.toStdString() + ": " + message);
    }
}

bool exists(const Topology& t, const ComponentRef& part) {
    if (part.index < 0) return false;
    const auto i = static_cast<std::size_t>(part.index);
    switch (part.kind) {
        case ComponentKind::Gpu: return i < t.gpus.size();
        case ComponentKind::Host: return i < t.hosts.size();
        case ComponentKind::Nic: return i < t.nics.size();
        case ComponentKind::Switch: return i < t.switches.size();
        case ComponentKind::Link: return i < t.links.size();
        case ComponentKind::None: break;
    }
    return false;
}

QString partName(const ComponentRef& part) {
    switch (part.kind) {
        case ComponentKind::Gpu: return QObject::tr("GPU %1").arg(part.index);
        case ComponentKind::Host: return QObject::tr("host %1").arg(part.index);
        case ComponentKind::Nic: return QObject::tr("NIC %1").arg(part.index);
        case ComponentKind::Switch: return QObject::tr("switch %1").arg(part.index);
        case ComponentKind::Link: return QObject::tr("link %1").arg(part.index);
        case ComponentKind::None: break;
    }
    return {};
}

}  // namespace

std::shared_ptr<const LoadedComparison> loadComparison(const QString& pathA, const QString& pathB) {
    auto out = std::make_shared<LoadedComparison>();
    out->pathA = pathA;
    out->pathB = pathB;
    out->a = readRun(pathA);
    out->b = readRun(pathB);
    out->comparison = compareRuns(*out->a, *out->b);
    return out;
}

CompareWindow::CompareWindow(QWidget* parent)
    : QMainWindow(parent),
      m_viewA(new FabricView(this)),
      m_viewB(new FabricView(this)),
      m_statusA(new QLabel(this)),
      m_statusB(new QLabel(this)),
      m_verdict(new QLabel(this)),
      m_views(new QSplitter(Qt::Horizontal, this)),
      m_controls(new ReplayControls(this)),
      m_kpis(new KpiDiffView(this)),
      m_charts(new ComparisonCharts(this)),
      m_alignMode(new QComboBox(this)),
      m_incidentA(new QComboBox(this)),
      m_incidentB(new QComboBox(this)),
      m_link(new QCheckBox(tr("Link cameras"), this)),
      m_stack(new QCheckBox(tr("Stacked"), this)),
      m_clockTicks(new PlaybackClock(this)) {
    setObjectName("compareWindow");
    setWindowTitle(tr("Comparison — Faultline"));
    m_viewA->setObjectName("fabricViewA");
    m_viewB->setObjectName("fabricViewB");
    m_statusA->setObjectName("compareStatusA");
    m_statusB->setObjectName("compareStatusB");
    m_verdict->setObjectName("compareVerdict");
    m_verdict->setWordWrap(true);
    m_verdict->setContentsMargins(8, 6, 8, 2);
    QFont headline = m_verdict->font();
    headline.setPointSizeF(headline.pointSizeF() * 1.25);
    headline.setBold(true);
    m_verdict->setFont(headline);
    m_alignMode->setObjectName("alignMode");
    m_alignMode->addItems({tr("time since start"), tr("training step"), tr("incident")});
    m_incidentA->setObjectName("incidentA");
    m_incidentB->setObjectName("incidentB");
    m_link->setObjectName("linkCameras");
    m_link->setChecked(true);
    m_stack->setObjectName("stackViews");

    addSharedMenus(menuBar(), this);  // File (Open, Open Recent, Close, Quit) and Help, as the main window's
    guardWheelsAppWide();
    setCentralWidget(createLayout(createBar()));
    const QScreen* screen = QGuiApplication::primaryScreen();
    setGeometry(comparisonWindowGeometry(screen ? screen->availableGeometry() : QRect(0, 0, 1600, 1000)));
    connectControls();
}

// The row above the views: the alignment, the incidents it aligns on, the cameras' and the
// panes' arrangement, and the report.
QHBoxLayout* CompareWindow::createBar() {
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(8, 4, 8, 4);
    bar->addWidget(new QLabel(tr("Align by"), this));
    bar->addWidget(m_alignMode);
    bar->addWidget(new QLabel(tr("A's incident"), this));
    bar->addWidget(m_incidentA, 1);
    bar->addWidget(new QLabel(tr("B's incident"), this));
    bar->addWidget(m_incidentB, 1);
    bar->addWidget(m_link);
    bar->addWidget(m_stack);
    auto* exportButton = new QPushButton(tr("Export Report..."), this);
    exportButton->setObjectName("exportComparisonReport");
    exportButton->setToolTip(tr("The comparison as a PDF or HTML report: the verdict, GPU-hours lost part by part, the figures and the charts"));
    bar->addWidget(exportButton);
    connect(exportButton, &QPushButton::clicked, this, [this] {
        if (!m_loaded) return;
        const QString path = QFileDialog::getSaveFileName(this, tr("Export the Comparison's Report"), tr("comparison.pdf"),
                                                          tr("PDF report (*.pdf);;HTML report (*.html)"));
        if (path.isEmpty()) return;
        try {
            exportReport(path);
            statusBar()->showMessage(tr("Wrote %1").arg(path), 8000);
        } catch (const std::exception& e) {
            QMessageBox::warning(this, tr("Export Report"), QString::fromUtf8(e.what()));
        }
    });

    return bar;
}

// The verdict, the bar, the two views with their replay controls over the figures and charts.
QWidget* CompareWindow::createLayout(QHBoxLayout* bar) {
    m_views->addWidget(makePane(m_viewA, m_statusA, "A"));
    m_views->addWidget(makePane(m_viewB, m_statusB, "B"));
    m_viewsPage = new QWidget(this);
    m_viewsPage->setObjectName("compareViewsPage");
    auto* viewsColumn = new QVBoxLayout(m_viewsPage);
    viewsColumn->setContentsMargins(0, 0, 0, 0);
    viewsColumn->setSpacing(0);
    viewsColumn->addWidget(m_views, 1);
    viewsColumn->addWidget(m_controls);
    auto* bottom = m_bottom = new QSplitter(Qt::Horizontal, this);
    bottom->addWidget(m_kpis);
    bottom->addWidget(m_charts);
    // The charts get the larger share: the figures' table needs less than half the width, a
    // chart's bar names need all they can get.
    bottom->setStretchFactor(0, 2);
    bottom->setStretchFactor(1, 3);
    // Below reading size the charts would drop their names; a window too short for both
    // takes the views into the charts' tabs instead (placeViews).
    bottom->setMinimumHeight(280);
    m_main = new QSplitter(Qt::Vertical, this);
    m_main->addWidget(m_viewsPage);
    m_main->addWidget(bottom);
    m_main->setStretchFactor(0, 3);
    m_main->setStretchFactor(1, 2);
    bottom->setSizes({640, 960});  // two fifths, three fifths, kept as the window is resized
    auto* central = new QWidget(this);
    auto* column = new QVBoxLayout(central);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    column->addWidget(m_verdict);
    column->addLayout(bar);
    column->addWidget(m_main, 1);
    return central;
}

bool CompareWindow::placeViews() {
    // Over 280 px of charts, the views of a 1280x720 screen were 155 px high, their legends'
    // text shrunk to 6 px. Below 800 px a tab each reads at full height, one click apart.
    const bool tooShort = height() < 800;
    if (tooShort == m_viewsInTab) return false;
    m_viewsInTab = tooShort;
    if (tooShort) {
        m_charts->insertTab(0, m_viewsPage, tr("3D Views"));
        m_charts->setCurrentIndex(0);
    } else {
        m_charts->removeTab(m_charts->indexOf(m_viewsPage));
        m_main->insertWidget(0, m_viewsPage);
        m_viewsPage->show();
        shareMainSplit();
    }
    return true;
}

void CompareWindow::shareMainSplit() {
    // Three fifths to the views, whatever the figures' table would take at its full height.
    const int total = std::max(1, m_main->height());
    m_main->setSizes({total * 3 / 5, total - total * 3 / 5});
}

// The clock and the controls that move it, the alignment, the cameras and the picks.
void CompareWindow::connectControls() {
    connect(m_clockTicks, &PlaybackClock::ticked, this, &CompareWindow::tick);
    connect(m_controls, &ReplayControls::scrubbed, this, [this](std::int64_t s) {
        if (m_alignment) setClock(s + m_alignment->clockBegin());
    });
    connect(m_controls, &ReplayControls::playToggled, this, [this] { isPlaying() ? pause() : play(); });
    connect(m_controls, &ReplayControls::jump, this, [this](ReplayControls::Jump j) {
        if (const ReplayIndex* index = m_viewA->replay())
            if (const auto target = jumpTarget(*index, j, m_viewA->time())) setClock(m_alignment->clockForA(*target));
    });
    auto* space = new QShortcut(QKeySequence(Qt::Key_Space), this);
    connect(space, &QShortcut::activated, this, [this] { isPlaying() ? pause() : play(); });

    connect(m_alignMode, &QComboBox::currentIndexChanged, this, [this](int mode) {
        m_incidentA->setEnabled(mode == 2);
        m_incidentB->setEnabled(mode == 2);
        if (mode == 0) alignByTime();
        else if (mode == 1) alignBySteps();
        else alignByIncident(m_incidentA->currentData().toInt(), m_incidentB->currentData().toInt());
    });
    for (QComboBox* box : {m_incidentA, m_incidentB}) {
        box->setEnabled(false);
        connect(box, &QComboBox::activated, this, [this] {
            if (m_alignMode->currentIndex() == 2) alignByIncident(m_incidentA->currentData().toInt(), m_incidentB->currentData().toInt());
        });
    }
    connect(m_link, &QCheckBox::toggled, this, &CompareWindow::setCamerasLinked);
    connect(m_stack, &QCheckBox::toggled, this, &CompareWindow::setStacked);

    // Cameras: whichever view moved, the other follows.
    m_cameras = new LinkedCameras(m_viewA, m_viewB, this);
    connect(m_viewA, &FabricView::partSelected, this, [this](const ComponentRef& part) { mirrorPick(m_viewB, part); });
    connect(m_viewB, &FabricView::partSelected, this, [this](const ComponentRef& part) { mirrorPick(m_viewA, part); });
}

CompareWindow::~CompareWindow() = default;

int CompareWindow::figuresTableWidth() const {
    const int frame = 2 * m_kpis->frameWidth() + m_kpis->verticalScrollBar()->sizeHint().width() + 4;
    int columns = 0;  // each as wide as its widest text, the header's or a cell's (bold, the widest)
    QFont bold = m_kpis->font();
    bold.setBold(true);
    const QFontMetrics metrics(bold);
    for (int c = 0; c < m_kpis->columnCount(); ++c) {
        int widest = m_kpis->horizontalHeader()->sectionSizeHint(c);
        for (int r = 0; r < m_kpis->rowCount(); ++r)
            if (const QTableWidgetItem* item = m_kpis->item(r, c)) widest = std::max(widest, metrics.horizontalAdvance(item->text()) + 12);
        columns += widest;
    }
    return columns + frame;
}

bool CompareWindow::placeFiguresTable() {
    // The window's width: the splitter's own lags behind a resize.
    const int total = width();
    // The views in a tab, the figures take one too: the charts' whole height for their rows.
    const bool narrow = m_viewsInTab || figuresTableWidth() + m_charts->widthToNameEveryBar() > total;
    if (narrow == m_figuresInTab) return false;
    m_figuresInTab = narrow;
    if (narrow) {
        m_charts->insertTab(m_viewsInTab ? 1 : 0, m_kpis, tr("Figures"));
    } else {
        m_charts->removeTab(m_charts->indexOf(m_kpis));
        m_bottom->insertWidget(0, m_kpis);
        m_kpis->show();
    }
    return true;
}

void CompareWindow::fitFiguresTable() {
    // Too narrow for the table and every bar's name side by side (1280x720: "Planned
    // mainten...", "Checkpo..."), the table becomes the charts' first tab, each then as wide
    // as the window.
    placeFiguresTable();
    if (m_figuresInTab) return;
    // The figures' table as wide as its columns (its Change column was clipped at 1280x720),
    // up to half the width; the charts take the rest.
    const int total = m_bottom->isVisible() ? m_bottom->width() : width();
    const int wanted = std::min(total / 2, figuresTableWidth());
    m_bottom->setSizes({wanted, total - wanted});
}

void CompareWindow::resizeEvent(QResizeEvent* event) {
    QMainWindow::resizeEvent(event);
    if (!m_loaded) return;
    const bool moved = placeViews();
    if ((placeFiguresTable() || moved) && !m_figuresInTab) fitFiguresTable();
}

QRect comparisonWindowGeometry(const QRect& available) {
    // Room is left for the frame the window manager adds (title bar, borders).
    QRect frame(QPoint(), QSize(std::min(1600, available.width() * 92 / 100), std::min(1000, available.height() * 92 / 100)));
    frame.moveCenter(available.center());
    return frame;
}

void CompareWindow::exportReport(const QString& path) {
    if (!m_loaded) throw Error("no comparison to export yet");
    QGuiApplication::setOverrideCursor(Qt::WaitCursor);
    try {
        ReportOptions options;
        options.out = path;
        writeComparisonReport(m_loaded->comparison, renderComparisonFigures(*m_loaded->a, *m_loaded->b, m_loaded->comparison), options);
    } catch (...) {
        QGuiApplication::restoreOverrideCursor();
        throw;
    }
    QGuiApplication::restoreOverrideCursor();
}

QWidget* CompareWindow::makePane(FabricView* view, QLabel* status, const QString& which) {
    auto* pane = new QWidget(this);
    auto* column = new QVBoxLayout(pane);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    const QColor colour = which == "A" ? ComparisonCharts::colourA() : ComparisonCharts::colourB();
    status->setContentsMargins(8, 4, 8, 4);
    status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    status->setTextFormat(Qt::PlainText);
    status->setStyleSheet(QString("QLabel { border-left: 6px solid %1; }").arg(colour.name()));
    column->addWidget(status);
    column->addWidget(view, 1);
    return pane;
}

void CompareWindow::open(const QString& pathA, const QString& pathB) {
    const quint64 id = ++m_request;
    statusBar()->showMessage(tr("Opening %1 and %2...").arg(QFileInfo(pathA).fileName(), QFileInfo(pathB).fileName()));
    runInBackground(this, [pathA, pathB] { return loadComparison(pathA, pathB); },
                    [this, id](const BackgroundResult<std::shared_ptr<const LoadedComparison>>& result) {
                        if (id != m_request) return;  // a newer request overtook this one
                        if (const auto* loaded = std::get_if<0>(&result)) return showComparison(*loaded);
                        const QString message = errorOf(result);
                        statusBar()->showMessage(message);
                        emit comparisonFailed(message);
                    });
}

void CompareWindow::showComparison(std::shared_ptr<const LoadedComparison> loaded) {
    pause();
    m_loaded = std::move(loaded);
    m_alignment = std::make_unique<RunAlignment>(*m_loaded->a, *m_loaded->b);
    m_cameras->reset();  // each view fits its new cluster first
    m_viewA->setRun(m_loaded->a);
    m_viewB->setRun(m_loaded->b);
    m_kpis->setComparison(m_loaded->comparison);
    placeViews();
    fitFiguresTable();
    m_verdict->setText(qtText(m_loaded->comparison.verdict.headline));
    m_charts->setRuns(*m_loaded->a, *m_loaded->b, m_loaded->comparison);
    fillIncidentLists();
    setWindowTitle(tr("%1 vs %2 — Faultline").arg(qtText(m_loaded->a->info.name), qtText(m_loaded->b->info.name)));
    statusBar()->showMessage(tr("A: %1    B: %2").arg(m_loaded->pathA, m_loaded->pathB));
    rememberRecent({m_loaded->pathA, m_loaded->pathB});  // File > Open Recent
    alignByTime();
    QMainWindow::show();
    QTimer::singleShot(0, this, [this] {  // again, laid out at its size
        if (!m_mainShared && !m_viewsInTab) shareMainSplit();
        m_mainShared = true;  // after that, as the user drags it
        fitFiguresTable();
    });
    emit comparisonShown();
}

void CompareWindow::fillIncidentLists() {
    auto fill = [](QComboBox* box, const Run& run) {
        box->clear();
        for (std::size_t i = 0; i < run.downtimes.size(); ++i) {
            const Downtime& d = run.downtimes[i];
            box->addItem(QObject::tr("#%1 at %2: %3")
                             .arg(i + 1)
                             .arg(qtText(formatDuration(d.begin)), QString::fromUtf8(rootCauseLabel(d.cause).data(),
                                                                                 static_cast<qsizetype>(rootCauseLabel(d.cause).size()))),
                         static_cast<int>(i));
        }
        // The first unexpected incident is the one people line up first.
        for (std::size_t i = 0; i < run.downtimes.size(); ++i)
            if (!run.downtimes[i].planned) {
                box->setCurrentIndex(static_cast<int>(i));
                break;
            }
    };
    fill(m_incidentA, *m_loaded->a);
    fill(m_incidentB, *m_loaded->b);
    // Aligning by incident needs one in each run.
    if (auto* model = qobject_cast<QStandardItemModel*>(m_alignMode->model()))
        model->item(2)->setEnabled(m_incidentA->count() > 0 && m_incidentB->count() > 0);
}

void CompareWindow::alignByTime() {
    if (!m_alignment) return;
    m_alignment->alignByTime();
    showMode(0);
    updateScrubberRange();
    setClock(m_clock);
}

void CompareWindow::alignBySteps() {
    if (!m_alignment) return;
    m_alignment->alignBySteps();
    showMode(1);
    updateScrubberRange();
    setClock(m_clock);
}

void CompareWindow::alignByIncident(int a, int b) {
    if (!m_alignment || !m_loaded) return;
    const auto& da = m_loaded->a->downtimes;
    const auto& db = m_loaded->b->downtimes;
    if (a < 0 || b < 0 || static_cast<std::size_t>(a) >= da.size() || static_cast<std::size_t>(b) >= db.size()) {
        statusBar()->showMessage(tr("Aligning by incident needs an incident in each run"));
        return;
    }
    const Nanos inA = da[static_cast<std::size_t>(a)].begin, inB = db[static_cast<std::size_t>(b)].begin;
    m_alignment->alignByIncident(inA, inB);
    updateScrubberRange();
    showMode(2);
    m_incidentA->setCurrentIndex(m_incidentA->findData(a));
    m_incidentB->setCurrentIndex(m_incidentB->findData(b));
    // A little before both incidents, so that playing shows them strike.
    setClock(inA - std::min<Nanos>(5 * kMinute, inA));
}

void CompareWindow::showMode(int mode) {
    if (m_alignMode->currentIndex() == mode) return;
    const QSignalBlocker block(m_alignMode);
    m_alignMode->setCurrentIndex(mode);
    m_incidentA->setEnabled(mode == 2);
    m_incidentB->setEnabled(mode == 2);
}

void CompareWindow::setClock(Nanos clock) {
    if (!m_alignment) return;
    m_clock = std::clamp(clock, m_alignment->clockBegin(), m_alignment->clockEnd());
    m_viewA->setTime(m_alignment->timeInA(m_clock));
    m_viewB->setTime(m_alignment->timeInB(m_clock));
    showClock();
}

void CompareWindow::updateScrubberRange() {
    std::vector<std::int64_t> incidents;
    const Nanos begin = m_alignment->clockBegin();
    for (const Downtime& d : m_loaded->a->downtimes) incidents.push_back(m_alignment->clockForA(d.begin) - begin);
    m_controls->setDuration(m_alignment->clockEnd() - begin, std::move(incidents));
}

void CompareWindow::showClock() {
    const Nanos begin = m_alignment->clockBegin();
    m_controls->setTime(m_clock - begin, tr("A at %1, B at %2")
                                             .arg(qtText(formatDuration(m_viewA->time())), qtText(formatDuration(m_viewB->time()))));
    m_statusA->setText(statusA());
    m_statusB->setText(statusB());
    m_charts->setTime(m_viewA->time());
}

namespace {

QString describe(const char* which, const FabricView* view, bool outside) {
    const Run* run = view->run();
    if (!run || !view->replay()) return {};
    const Nanos t = view->time();
    QString text = QString("%1  %2  ·  %3  ·  %4").arg(which, qtText(run->info.name), qtText(formatWallTime(run->info.startEpochNs, t)),
                                                      qtText(describeJob(*run, view->replay()->jobAt(t))));
    if (outside) text += QObject::tr("  ·  (outside this run)");
    if (view->selected().kind != ComponentKind::None) text += "  ·  " + partName(view->selected());
    return text;
}

}  // namespace

QString CompareWindow::statusA() const {
    const bool outside = m_alignment && (m_clock < 0 || m_clock > m_loaded->a->info.duration);
    return describe("A", m_viewA, outside);
}

QString CompareWindow::statusB() const {
    bool outside = false;
    if (m_alignment && m_alignment->mode() != AlignmentMode::Step) {
        const Nanos raw = m_alignment->mode() == AlignmentMode::Incident ? m_clock + m_alignment->incidentOffset() : m_clock;
        outside = raw < 0 || raw > m_loaded->b->info.duration;
    }
    return describe("B", m_viewB, outside);
}

bool CompareWindow::isPlaying() const { return m_clockTicks->isRunning(); }

void CompareWindow::play() {
    if (!m_alignment || isPlaying()) return;
    if (m_clock >= m_alignment->clockEnd()) setClock(m_alignment->clockBegin());
    m_clockTicks->start();
    m_controls->setPlaying(true);
}

void CompareWindow::pause() {
    m_clockTicks->stop();
    m_controls->setPlaying(false);
}

void CompareWindow::tick(double seconds) {
    setClock(m_clock + std::max<Nanos>(1, fromSeconds(seconds * m_controls->speed())));
    if (m_clock >= m_alignment->clockEnd()) pause();
}

void CompareWindow::setCamerasLinked(bool linked) {
    m_cameras->setLinked(linked);
    if (m_link->isChecked() != linked) m_link->setChecked(linked);
}

bool CompareWindow::camerasLinked() const { return m_cameras->linked(); }

void CompareWindow::setStacked(bool stacked) {
    m_views->setOrientation(stacked ? Qt::Vertical : Qt::Horizontal);
    if (m_stack->isChecked() != stacked) m_stack->setChecked(stacked);
}

void CompareWindow::mirrorPick(FabricView* to, const ComponentRef& part) {
    if (!to->run()) return;
    if (part.kind == ComponentKind::None || exists(to->run()->topology, part)) {
        to->select(part);  // a click on nothing clears both selections, with nothing to report
        statusBar()->clearMessage();
    } else {
        to->select({});
        const FabricView* from = to == m_viewA ? m_viewB : m_viewA;
        const std::string name = from->run() ? faultline::partName(from->run()->topology, part) : std::string();
        statusBar()->showMessage(tr("%1 (selected in %2) does not exist in %3")
                                     .arg(name.empty() ? partName(part) : qtText(name), to == m_viewA ? "B" : "A", to == m_viewA ? "A" : "B"));
    }
    m_statusA->setText(statusA());
    m_statusB->setText(statusB());
}

CompareWindow* openComparison(const QString& pathA, const QString& pathB, QWidget* parent) {
    auto* window = new CompareWindow(parent);
    window->setAttribute(Qt::WA_DeleteOnClose);
    window->setWindowFlag(Qt::Window);
    window->open(pathA, pathB);
    return window;
}

}  // namespace faultline
