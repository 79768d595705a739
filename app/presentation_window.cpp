#include "presentation_window.h"
#include "presenter_notes.h"

#include "model/format.h"
#include "exports/report_figures.h"
#include "exports/run_caption.h"
#include "story_card.h"
#include "analysis/blast_radius.h"
#include "analysis/part_place.h"
#include "views/fabric/fabric_view.h"
#include "views/fabric/incident_camera.h"

#include <QDateTime>

#include <algorithm>
#include <QKeyEvent>
#include <QLayout>
#include <QPainter>
#include <QStackedWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace faultline {

namespace {
constexpr int kFlightMs = 1600;         // the camera's flight to the hardware
constexpr int kReplayMs = 12000;        // the replay around an incident, in real time
constexpr Nanos kLead = 10 * kMinute;   // replayed before the first symptom
constexpr Nanos kTail = 5 * kMinute;    // and after training resumed
constexpr int kCardSeconds = 10, kIncidentSeconds = 18;  // auto-advance
}  // namespace

// The caption strip under the live 3D view: the same painting as the video's frames.
class CaptionStrip : public QWidget {
public:
    explicit CaptionStrip(QWidget* parent) : QWidget(parent) { setObjectName("captionStrip"); }
    void setCaption(RunCaption caption) {
        m_caption = std::move(caption);
        update();
    }

protected:
    void paintEvent(QPaintEvent*) override {
        QPainter p(this);
        p.setRenderHint(QPainter::TextAntialiasing);
        paintCaption(p, rect(), m_caption);
    }

private:
    RunCaption m_caption;
};

PresentationWindow::PresentationWindow(std::shared_ptr<const ReportContent> content, QWidget* parent)
    : QWidget(parent, Qt::Window),
      m_content(std::move(content)),
      m_ettr(*m_content->run),
      m_stack(new QStackedWidget(this)),
      m_card(new StoryCard(this)),
      m_stage(new QWidget(this)),
      m_view(new FabricView(m_stage)),
      m_caption(new CaptionStrip(m_stage)),
      m_replay(new QTimer(this)),
      m_advance(new QTimer(this)) {
    setObjectName("presentationWindow");
    setWindowTitle(tr("%1 — Faultline presentation").arg(QString::fromStdString(m_content->run->info.name)));
    setAttribute(Qt::WA_DeleteOnClose);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);
    auto* stage = new QVBoxLayout(m_stage);
    stage->setContentsMargins(0, 0, 0, 0);
    stage->setSpacing(0);
    stage->addWidget(m_view, 1);
    stage->addWidget(m_caption);
    m_stack->addWidget(m_card);
    m_stack->addWidget(m_stage);
    m_view->setRun(m_content->run);
    m_view->setFocusPolicy(Qt::NoFocus);  // keys are the presenter's, not the camera's
    setFocusPolicy(Qt::StrongFocus);
    m_replay->setInterval(33);
    connect(m_replay, &QTimer::timeout, this, &PresentationWindow::tick);
    m_advance->setSingleShot(true);
    connect(m_advance, &QTimer::timeout, this, &PresentationWindow::next);

    m_slides.push_back({Slide::Kind::Title});
    for (std::size_t i = 0; i < m_content->selected.size(); ++i) m_slides.push_back({Slide::Kind::Incident, static_cast<int>(i)});
    m_slides.push_back({Slide::Kind::Closing});
    showSlide(0);
}

PresentationWindow::~PresentationWindow() {
    if (m_notes) m_notes->deleteLater();  // its own window: it goes with the slides
}

void PresentationWindow::setPresenterNotesShown(bool shown) {
    if (!shown) {
        if (m_notes) m_notes->hide();
        return;
    }
    if (!m_notes) {
        m_notes = new PresenterNotes(m_content);
        m_notes->setAttribute(Qt::WA_DeleteOnClose);
    }
    updatePresenterNotes();
    m_notes->show();
    activateWindow();  // the keys stay the presentation's
}

PresenterNotes* PresentationWindow::presenterNotes() const { return m_notes.data(); }

QString PresentationWindow::slideTitle(int index) const {
    const Slide& s = m_slides.at(static_cast<std::size_t>(index));
    if (s.kind == Slide::Kind::Title) return tr("the title card");
    if (s.kind == Slide::Kind::Closing) return tr("the closing figures");
    return QString::fromStdString(incidentTitle(m_content->selected.at(static_cast<std::size_t>(s.incident)).incident));
}

void PresentationWindow::updatePresenterNotes() {
    if (!m_notes || m_slide < 0) return;
    const Slide& s = m_slides[static_cast<std::size_t>(m_slide)];
    const int incident = s.kind == Slide::Kind::Incident ? s.incident : (s.kind == Slide::Kind::Title ? -1 : -2);
    m_notes->showSlide(m_slide, slideCount(), incident, m_slide + 1 < slideCount() ? slideTitle(m_slide + 1) : QString());
}

void PresentationWindow::setTime(Nanos t) {
    m_time = std::clamp<Nanos>(t, 0, m_content->run->info.duration);
    m_view->setTime(m_time);
    const Slide& s = m_slides[static_cast<std::size_t>(m_slide)];
    if (s.kind != Slide::Kind::Incident) return;
    const ReportIncident& r = m_content->selected[static_cast<std::size_t>(s.incident)];
    // A failure flashes for the first moments after it struck.
    if (m_time >= r.incident.begin && m_time < r.incident.begin + 2 * kMinute) m_view->setFlashing(r.incident.gpus);
    RunCaption c = captionAt(*m_content->run, *m_view->replay(), m_ettr, m_time);
    QString event;
    for (const IncidentEvent& e : r.incident.chain)
        if (e.time <= m_time) event = QString::fromStdString(e.what);
    QString note = QString("%1 of %2 · %3 · %4")
                       .arg(s.incident + 1)
                       .arg(m_content->selected.size())
                       .arg(QString::fromStdString(incidentTitle(r.incident)), QString::fromStdString(incidentCostText(r.incident)));
    if (!event.isEmpty()) note += " · " + event;
    if (r.note && !r.note->notes.empty()) note += " · Reviewer: " + QString::fromStdString(noteExcerpt(r.note->notes, 1000)).section('\n', 0, 0);
    c.note = note;
    c.where = QString::fromStdString(incidentPlace(*m_content->run, r.incident));
    m_caption->setCaption(c);
}

void PresentationWindow::showSlide(int index) {
    index = std::clamp(index, 0, slideCount() - 1);
    m_slide = index;
    m_replay->stop();
    updatePresenterNotes();
    const Slide& s = m_slides[static_cast<std::size_t>(index)];
    if (s.kind != Slide::Kind::Incident) {
        m_card->setCard(m_content.get(), s.kind == Slide::Kind::Title ? StoryCard::Kind::Title : StoryCard::Kind::Closing);
        m_stack->setCurrentWidget(m_card);
        armAutoAdvance();
        return;
    }
    m_stack->setCurrentWidget(m_stage);
    // Three lines (the incident's own too), in type for the back of the room.
    m_caption->setFixedHeight(slideCaptionHeight(height()));
    m_stage->layout()->activate();  // the 3D view's true size, for the camera's aim below
    const Incident& inc = m_content->selected[static_cast<std::size_t>(s.incident)].incident;
    m_replayFrom = std::max<Nanos>(0, inc.begin - kLead);
    m_replayTo = std::min(m_content->run->info.duration, (inc.end ? *inc.end : inc.begin + 30 * kMinute) + kTail);
    setTime(m_replayFrom);
    // The same flight as selecting the incident in the main window: the failed hardware's
    // whole scope, its blast radius labelled.
    flyToIncident(*m_view, failedPart(*m_content->run, inc), inc.gpus, kFlightMs, suspectGpus(*m_content->run, inc));
    // The replay starts once the camera has arrived.
    m_replayStartMs = QDateTime::currentMSecsSinceEpoch() + kFlightMs;
    m_replay->start();
    armAutoAdvance();
}

void PresentationWindow::tick() {
    const qint64 elapsed = QDateTime::currentMSecsSinceEpoch() - m_replayStartMs;
    if (elapsed < 0) return;
    const double k = std::min(1.0, static_cast<double>(elapsed) / kReplayMs);
    setTime(m_replayFrom + static_cast<Nanos>(k * static_cast<double>(m_replayTo - m_replayFrom)));
    if (k >= 1.0) m_replay->stop();
}

void PresentationWindow::armAutoAdvance() {
    m_advance->stop();
    if (!m_auto || m_slide + 1 >= slideCount()) return;
    const bool card = m_slides[static_cast<std::size_t>(m_slide)].kind != Slide::Kind::Incident;
    m_advance->start((card ? kCardSeconds : kIncidentSeconds) * 1000);
}

void PresentationWindow::next() {
    if (m_slide + 1 < slideCount()) showSlide(m_slide + 1);
}

void PresentationWindow::previous() {
    if (m_slide > 0) showSlide(m_slide - 1);
}

void PresentationWindow::setAutoAdvance(bool on) {
    m_auto = on;
    armAutoAdvance();
}

void PresentationWindow::keyPressEvent(QKeyEvent* event) {
    switch (event->key()) {
        case Qt::Key_Right: case Qt::Key_Down: case Qt::Key_PageDown: case Qt::Key_Space: case Qt::Key_N: next(); break;
        case Qt::Key_Left: case Qt::Key_Up: case Qt::Key_PageUp: case Qt::Key_Backspace: case Qt::Key_P: previous(); break;
        case Qt::Key_Home: showSlide(0); break;
        case Qt::Key_End: showSlide(slideCount() - 1); break;
        case Qt::Key_A: setAutoAdvance(!m_auto); break;
        case Qt::Key_S: setPresenterNotesShown(!m_notes || !m_notes->isVisible()); break;
        case Qt::Key_Escape: close(); break;
        default: QWidget::keyPressEvent(event); return;
    }
    event->accept();
}

}  // namespace faultline

#include "model/incident_notes.h"
#include "views/run_loader.h"

namespace faultline {

PresentationWindow* presentRun(QWidget* parent, const std::shared_ptr<const LoadedRun>& run, int incidents) {
    std::map<Nanos, IncidentNote> notes;
    try {
        notes = readIncidentNotes(run->path.toStdString());
    } catch (const std::exception&) {
        // A run without readable notes still presents; the captions just carry none.
    }
    auto content = std::make_shared<ReportContent>(buildReportContent(std::shared_ptr<const Run>(run, &run->run), notes, incidents, &run->stragglers));
    auto* window = new PresentationWindow(std::move(content), parent);
    window->showFullScreen();
    window->activateWindow();
    window->setFocus();
    return window;
}

}  // namespace faultline
