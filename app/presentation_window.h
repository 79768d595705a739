#pragma once
// View > Present (F5): the run told as a story, full screen, no docks or toolbars. A title
// card with the headline figures, then the N worst incidents in turn (a camera flight to
// the hardware, the replay around it, a caption from its chain of events and the reviewer's
// notes), then the closing figures. Right / Down / Page Down / Space move on, Left / Up /
// Page Up go back, Home and End jump, A turns auto-advance on and off, S opens or closes the
// presenter's notes in a window of their own (presenter_notes.h), Esc leaves.
#include "exports/report_content.h"
#include "exports/run_caption.h"

#include <QPointer>
#include <QWidget>

#include <memory>
#include <vector>

class QStackedWidget;
class QTimer;

namespace faultline {

class CaptionStrip;
class PresenterNotes;
class FabricView;
class StoryCard;

class PresentationWindow : public QWidget {
    Q_OBJECT
public:
    // `content` says what to show (buildReportContent: its selected incidents are the story's).
    explicit PresentationWindow(std::shared_ptr<const ReportContent> content, QWidget* parent = nullptr);
    ~PresentationWindow() override;

    int slideCount() const { return static_cast<int>(m_slides.size()); }
    int slide() const { return m_slide; }
    void showSlide(int index);
    void next();
    void previous();
    void setAutoAdvance(bool on);
    bool autoAdvance() const { return m_auto; }
    FabricView* fabricView() const { return m_view; }
    StoryCard* card() const { return m_card; }
    // The presenter's notes window (S), following the slides; null until first opened.
    void setPresenterNotesShown(bool shown);
    PresenterNotes* presenterNotes() const;
    Nanos time() const { return m_time; }

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    struct Slide {
        enum class Kind { Title, Incident, Closing } kind;
        int incident = -1;  // index into content->selected
    };
    void tick();
    void setTime(Nanos t);
    void armAutoAdvance();
    void updatePresenterNotes();
    QString slideTitle(int index) const;

    std::shared_ptr<const ReportContent> m_content;
    EttrSoFar m_ettr;
    std::vector<Slide> m_slides;
    int m_slide = -1;
    bool m_auto = false;
    QStackedWidget* m_stack;
    StoryCard* m_card;
    QWidget* m_stage;
    FabricView* m_view;
    CaptionStrip* m_caption;
    QTimer* m_replay;    // advances the instant through the incident
    QTimer* m_advance;   // auto-advance
    QPointer<PresenterNotes> m_notes;
    Nanos m_time = 0, m_replayFrom = 0, m_replayTo = 0;
    qint64 m_replayStartMs = 0;
};

}  // namespace faultline

namespace faultline {

struct LoadedRun;
// Opens the presentation of `run` full screen over `parent`, its `incidents` worst incidents
// in turn; reads the reviewer's notes from the run file.
PresentationWindow* presentRun(QWidget* parent, const std::shared_ptr<const LoadedRun>& run, int incidents);

}  // namespace faultline
