#include "views/replay_controls.h"

#include "model/replay_state.h"
#include "views/state_palette.h"

#include "widgets/media_icons.h"
#include "widgets/time_scrubber.h"

#include <QComboBox>
#include <QEvent>

#include <cmath>
#include <iterator>
#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

namespace faultline {

namespace {

struct Speed {
    const char* label;
    double factor;  // replay seconds per real second
};
// From a millisecond a second (a trace's collectives) to whole days per second: a
// failure's minutes, or the whole 54 days.
constexpr Speed kSpeeds[] = {{"1 ms/s", 0.001}, {"10 ms/s", 0.01}, {"100 ms/s", 0.1}, {"real time", 1}, {"1 min/s", 60},
                             {"10 min/s", 600}, {"1 h/s", 3600},   {"6 h/s", 21600},  {"1 day/s", 86400},
                             {"4 days/s", 4 * 86400.0}};
constexpr int kDefaultSpeed = 6;  // 1 h/s, until a run says how long it is
// A new run's speed plays it whole in about this long.
constexpr double kWholeRunSeconds = 60.0;

}  // namespace

ReplayControls::ReplayControls(QWidget* parent)
    : QWidget(parent), m_scrubber(new TimeScrubber(this)), m_speed(new QComboBox(this)), m_time(new QLabel(this)) {
    setObjectName("replayControls");
    m_scrubber->setObjectName("timeScrubber");
    // Its failure marks in the failed state's colour, as the 3D view and the timeline draw it.
    auto markColour = [this] {
        const Rgb failed = activeStatePalette().failed;
        m_scrubber->setMarkColour(QColor(failed[0], failed[1], failed[2]));
    };
    markColour();
    connect(&StatePaletteChoice::instance(), &StatePaletteChoice::changed, m_scrubber, markColour);
    m_time->setObjectName("replayTime");
    m_time->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_time->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_time->setMinimumWidth(60);
    m_speed->setObjectName("replaySpeed");
    for (const Speed& s : kSpeeds) m_speed->addItem(tr(s.label), s.factor);
    m_speed->setCurrentIndex(kDefaultSpeed);
    m_speed->setToolTip(tr("Replay speed"));

    auto* row = new QHBoxLayout;
    row->addWidget(button(QString(), tr("Previous incident (Page Up)"), "previousIncident"));
    row->addWidget(button(QStringLiteral("◀◀"), tr("Previous event ([)"), "previousEvent"));
    row->addWidget(button(QStringLiteral("◀|"), tr("Previous training step (,)"), "previousStep"));
    m_play = button(QString(), tr("Play / pause (Space)"), "playPause");
    row->addWidget(m_play);
    row->addWidget(button(QStringLiteral("|▶"), tr("Next training step (.)"), "nextStep"));
    row->addWidget(button(QStringLiteral("▶▶"), tr("Next event (])"), "nextEvent"));
    row->addWidget(button(QString(), tr("Next incident (Page Down)"), "nextIncident"));
    row->addWidget(m_speed);
    // Not every font has the media symbols: the incident and play buttons take drawn icons.
    setPlaying(false);
    row->addSpacing(12);
    row->addWidget(m_time, 1);
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(8, 4, 8, 6);
    column->addWidget(m_scrubber);
    column->addLayout(row);

    connect(m_scrubber, &TimeScrubber::scrubbed, this, &ReplayControls::scrubbed);
    connect(m_play, &QToolButton::clicked, this, &ReplayControls::playToggled);
    connect(m_speed, &QComboBox::currentIndexChanged, this, [this] { emit speedChanged(speed()); });
    const std::pair<const char*, Jump> jumps[] = {
        {"previousIncident", Jump::PreviousIncident}, {"previousEvent", Jump::PreviousEvent},
        {"previousStep", Jump::PreviousStep},         {"nextStep", Jump::NextStep},
        {"nextEvent", Jump::NextEvent},               {"nextIncident", Jump::NextIncident}};
    for (auto [name, j] : jumps)
        connect(findChild<QToolButton*>(name), &QToolButton::clicked, this, [this, j = j] { emit jump(j); });
}

QToolButton* ReplayControls::button(const QString& text, const QString& tip, const char* name) {
    auto* b = new QToolButton(this);
    b->setObjectName(name);
    b->setText(text);
    b->setToolTip(tip);
    b->setAutoRaise(true);
    return b;
}

void ReplayControls::setDuration(std::int64_t duration, std::vector<std::int64_t> incidents) {
    m_scrubber->setRange(duration);
    m_scrubber->setMarks(std::move(incidents));
    // Evidence of one instant (a one-line crash) has nothing to scrub or play: a scrubber of
    // no length reads as a bug, so it goes, and the time label says the instant.
    const bool span = duration > 0;
    m_scrubber->setVisible(span);
    for (QToolButton* b : findChildren<QToolButton*>()) b->setEnabled(span);
    // The speed that plays the whole run in about a minute: 1 ms/s for a 21 ms trace, 1 day/s
    // for 54 days.
    const double wanted = std::max(1e-9, static_cast<double>(duration) / 1e9 / kWholeRunSeconds);
    int best = 0;
    for (int i = 0; i < static_cast<int>(std::size(kSpeeds)); ++i)
        if (std::abs(std::log(kSpeeds[i].factor / wanted)) < std::abs(std::log(kSpeeds[best].factor / wanted))) best = i;
    m_speed->setCurrentIndex(best);
}

void ReplayControls::setTime(std::int64_t t, const QString& text) {
    m_scrubber->setValue(t);
    m_time->setText(text);
}

void ReplayControls::setPlaying(bool playing) {
    m_playing = playing;
    m_play->setProperty("playing", playing);
    refreshIcons();
}

void ReplayControls::refreshIcons() {
    const QColor colour = palette().color(QPalette::ButtonText);
    const QColor off = palette().color(QPalette::Disabled, QPalette::ButtonText);
    // Disabled (evidence of one instant), an icon greys as the text buttons beside it do.
    auto icon = [&](MediaIcon kind) {
        QIcon out = mediaIcon(kind, colour);
        const QIcon greyed = mediaIcon(kind, off);
        for (const QSize& size : greyed.availableSizes()) out.addPixmap(greyed.pixmap(size), QIcon::Disabled);
        return out;
    };
    findChild<QToolButton*>("previousIncident")->setIcon(icon(MediaIcon::SkipBackward));
    findChild<QToolButton*>("nextIncident")->setIcon(icon(MediaIcon::SkipForward));
    m_play->setIcon(icon(m_playing ? MediaIcon::Pause : MediaIcon::Play));
}

void ReplayControls::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange) refreshIcons();
    QWidget::changeEvent(event);
}

double ReplayControls::speed() const { return m_speed->currentData().toDouble(); }

std::optional<Nanos> jumpTarget(const ReplayIndex& index, ReplayControls::Jump jump, Nanos t) {
    switch (jump) {
        case ReplayControls::Jump::PreviousIncident: return index.previousIncident(t);
        case ReplayControls::Jump::PreviousEvent: return index.previousEvent(t);
        case ReplayControls::Jump::PreviousStep: return index.previousStep(t);
        case ReplayControls::Jump::NextStep: return index.nextStep(t);
        case ReplayControls::Jump::NextEvent: return index.nextEvent(t);
        case ReplayControls::Jump::NextIncident: return index.nextIncident(t);
    }
    return std::nullopt;
}

}  // namespace faultline
