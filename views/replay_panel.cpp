#include "views/replay_panel.h"

#include "analysis/opening_instant.h"

#include "views/fabric/fabric_view.h"
#include "views/inspector_view.h"
#include "model/format.h"
#include "views/playback_clock.h"

#include <QAbstractButton>
#include <QApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QShortcut>
#include <QVBoxLayout>

#include <algorithm>

namespace faultline {

namespace {

constexpr qint64 kFlashMs = 900;       // how long a failure flashes, in real time
constexpr qint64 kFlashPeriodMs = 150;

}  // namespace

ReplayPanel::ReplayPanel(QWidget* parent)
    : QWidget(parent),
      m_status(new QLabel(this)),
      m_view(new FabricView(this)),
      m_inspector(new InspectorView(this)),
      m_controls(new ReplayControls(this)),
      m_clock(new PlaybackClock(this)) {
    setObjectName("replayPanel");
    m_status->setObjectName("replayStatus");
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setContentsMargins(8, 4, 8, 4);
    // A long status line is cut, not a reason for the window to grow (screenshots keep --size).
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    QFont bigger = m_status->font();
    bigger.setPointSizeF(bigger.pointSizeF() * 1.15);
    m_status->setFont(bigger);
    // The legend is drawn in the 3D view itself (scene_legend.h): the inspector alone beside it.
    auto* middle = new QHBoxLayout;
    middle->setContentsMargins(0, 0, 0, 0);
    middle->addWidget(m_view, 1);
    middle->addWidget(m_inspector);
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    column->addWidget(m_status);
    column->addLayout(middle, 1);
    column->addWidget(m_controls);

    connect(m_clock, &PlaybackClock::ticked, this, &ReplayPanel::tick);
    connect(m_controls, &ReplayControls::scrubbed, this, [this](std::int64_t t) { setTime(t); });
    connect(m_controls, &ReplayControls::playToggled, this, [this] { isPlaying() ? pause() : play(); });
    connect(m_controls, &ReplayControls::jump, this, &ReplayPanel::jump);
    connect(m_view, &FabricView::partSelected, this, [this](const ComponentRef& part) { m_inspector->showPart(part); });
    connect(m_inspector, &InspectorView::found, this, [this](const ComponentRef& part) {
        m_view->select(part);  // a search that found nothing clears the old outline
        if (part.kind != ComponentKind::None) m_view->flyTo([this, part] { m_view->zoomTo(part); });
    });
    connect(m_inspector, &InspectorView::timeRequested, this, [this](Nanos t) { setTime(t); });
    // The inspector's chart follows View > Colour By; the view reads a metric at the level
    // whose buckets suit the replay's pace.
    connect(m_view, &FabricView::colourByChanged, m_inspector, &InspectorView::setMetric);
    connect(m_controls, &ReplayControls::speedChanged, this, [this] { followPace(); });
    addShortcuts();
}

void ReplayPanel::addShortcuts() {
    auto add = [this](QKeySequence key, Qt::ShortcutContext context, auto slot) {
        auto* s = new QShortcut(key, this, nullptr, nullptr, context);
        connect(s, &QShortcut::activated, this, slot);
    };
    // The replay's keys answer wherever the focus is in the window (right after start, in the
    // incident list, in any panel): a table's type-ahead does not take F. A text field still
    // types them, as it takes a printable key before any shortcut.
    const Qt::ShortcutContext window = Qt::WindowShortcut;
    add(Qt::Key_Space, window, [this] {
        // A focused button or check box keeps Space, its own key for pressing it.
        if (auto* button = qobject_cast<QAbstractButton*>(QApplication::focusWidget()); button && button->isVisible())
            return button->animateClick();
        isPlaying() ? pause() : play();
    });
    add(Qt::Key_Period, window, [this] { jump(ReplayControls::Jump::NextStep); });
    add(Qt::Key_Comma, window, [this] { jump(ReplayControls::Jump::PreviousStep); });
    add(Qt::Key_BracketRight, window, [this] { jump(ReplayControls::Jump::NextEvent); });
    add(Qt::Key_BracketLeft, window, [this] { jump(ReplayControls::Jump::PreviousEvent); });
    add(Qt::Key_F, window, [this] { m_view->fitAll(); });
    add(Qt::Key_Home, window, [this] { m_view->fitAll(); });
    add(Qt::Key_T, window, [this] { m_view->topView(); });
    add(Qt::Key_Z, window, [this] { m_view->zoomTo(m_view->selected()); });
    // The arrows and the page keys move through a list or a text, so they step the replay
    // only with the focus in it. Left and right step through training steps; with Shift
    // they turn the camera.
    const Qt::ShortcutContext here = Qt::WidgetWithChildrenShortcut;
    add(Qt::Key_Right, here, [this] { jump(ReplayControls::Jump::NextStep); });
    add(Qt::Key_Left, here, [this] { jump(ReplayControls::Jump::PreviousStep); });
    add(Qt::Key_PageDown, here, [this] { jump(ReplayControls::Jump::NextIncident); });
    add(Qt::Key_PageUp, here, [this] { jump(ReplayControls::Jump::PreviousIncident); });
}

void ReplayPanel::setRun(std::shared_ptr<const Run> run) {
    pause();
    // The inspector reads the view's replay index: it lets go of it before the view frees it.
    // (Coloured by a metric with a GPU picked, the view's "back to state" signal had the
    // inspector read the freed index of the old run: an abort on opening the next one.)
    m_inspector->setRun(nullptr, nullptr);
    m_view->setRun(run);
    m_inspector->setRun(run, m_view->replay());
    if (!run) return;
    std::vector<std::int64_t> incidents;
    for (const Downtime& d : run->downtimes) incidents.push_back(d.begin);
    m_controls->setDuration(run->info.duration, std::move(incidents));
    m_flashGpus.clear();
    m_flashUntilMs = -1;
    showTime();
}

Nanos ReplayPanel::time() const { return m_view->time(); }

void ReplayPanel::setTime(Nanos t) {
    const Run* run = m_view->run();
    if (!run) return;
    t = std::clamp<Nanos>(t, 0, run->info.duration);
    m_view->setTime(t);
    showTime();
}

void ReplayPanel::showTime() {
    const Run* run = m_view->run();
    if (!run) return;
    const Nanos t = m_view->time();
    showStatus();
    m_controls->setTime(t, QString::fromStdString(replayTimeText(*run, t)));
    m_inspector->setTime(t);
    emit timeChanged(t);
}

QString ReplayPanel::statusText() const {
    const Run* run = m_view->run();
    if (!run || !m_view->replay()) return {};
    const Nanos t = m_view->time();
    // A run with no step history says what failed, not "training, step 0".
    return QString::fromStdString(formatWallTime(run->info.startEpochNs, t) + "  ·  " + jobStatusText(*run, *m_view->replay(), t));
}

void ReplayPanel::showStatus() {
    // Too long for the panel (a small window), the line ends in an ellipsis, never mid-word
    // with no sign of it; the whole line is its tooltip.
    const QString full = statusText();
    const int room = m_status->contentsRect().width();
    const QString shown = room > 0 ? m_status->fontMetrics().elidedText(full, Qt::ElideRight, room) : full;
    m_status->setText(shown);
    m_status->setToolTip(shown == full ? QString() : full);
}

void ReplayPanel::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    showStatus();
}

bool ReplayPanel::isPlaying() const { return m_clock->isRunning(); }

void ReplayPanel::play() {
    const Run* run = m_view->run();
    if (!run || isPlaying() || run->info.duration <= 0) return;  // one instant: nothing to play
    if (m_view->time() >= run->info.duration) setTime(0);
    m_clock->start();
    m_controls->setPlaying(true);
    followPace();
}

void ReplayPanel::pause() {
    m_clock->stop();
    m_controls->setPlaying(false);
    followPace();
}

void ReplayPanel::followPace() { m_view->setReplayRate(isPlaying() ? fromSeconds(m_controls->speed()) : 0); }

void ReplayPanel::tick(double seconds) {
    const Run* run = m_view->run();
    if (!run) return pause();
    const qint64 now = m_clock->elapsedMs();
    const Nanos from = m_view->time();
    const Nanos to = std::min(run->info.duration, from + std::max<Nanos>(1, fromSeconds(seconds * m_controls->speed())));
    setTime(to);
    // A failure crossed in this tick flashes for a moment of real time, whatever the speed.
    for (std::int32_t f : m_view->replay()->failuresBetween(from, to)) {
        const auto& gpus = run->failures[static_cast<std::size_t>(f)].gpus;
        m_flashGpus.insert(m_flashGpus.end(), gpus.begin(), gpus.end());
        m_flashUntilMs = now + kFlashMs;
    }
    if (now < m_flashUntilMs) {
        if ((now / kFlashPeriodMs) % 2 == 0) m_view->setFlashing(m_flashGpus);
    } else {
        m_flashGpus.clear();
    }
    if (to >= run->info.duration) pause();
}

void ReplayPanel::setIncidentTimes(std::vector<Nanos> times) {
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());
    m_incidentTimes = std::move(times);
}

void ReplayPanel::jump(ReplayControls::Jump j) {
    const ReplayIndex* index = m_view->replay();
    if (!index) return;
    const Nanos t = m_view->time();
    const bool incidentJump = j == ReplayControls::Jump::NextIncident || j == ReplayControls::Jump::PreviousIncident;
    std::optional<Nanos> target;
    if (incidentJump && !m_incidentTimes.empty()) {
        if (j == ReplayControls::Jump::NextIncident) {
            const auto next = std::upper_bound(m_incidentTimes.begin(), m_incidentTimes.end(), t);
            if (next != m_incidentTimes.end()) target = *next;
        } else {
            const auto previous = std::lower_bound(m_incidentTimes.begin(), m_incidentTimes.end(), t);
            if (previous != m_incidentTimes.begin()) target = *std::prev(previous);
        }
    } else {
        target = jumpTarget(*index, j, t);
    }
    if (!target) return;
    setTime(*target);
    if (incidentJump) emit incidentReached(*target);
}

void ReplayPanel::showPart(const ComponentRef& part) {
    if (part.kind == ComponentKind::None) return;
    m_inspector->showPart(part);
    m_view->select(part);
    m_view->flyTo([this, part] { m_view->zoomTo(part); });
}

}  // namespace faultline
