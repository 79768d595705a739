#include "presenter_notes.h"
#include "widgets/qt_text.h"

#include "model/incident_notes.h"

#include <QLabel>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace faultline {

PresenterNotes::PresenterNotes(std::shared_ptr<const ReportContent> content, QWidget* parent)
    : QWidget(parent, Qt::Window), m_content(std::move(content)), m_where(new QLabel(this)), m_notes(new QTextBrowser(this)),
      m_next(new QLabel(this)) {
    setObjectName("presenterNotes");
    setWindowTitle(tr("Presenter notes — %1").arg(qtText(m_content->run->info.name)));
    m_where->setObjectName("presenterSlide");
    QFont bold = m_where->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.3);
    m_where->setFont(bold);
    m_where->setWordWrap(true);
    m_notes->setObjectName("presenterNotesText");
    QFont large = m_notes->font();
    large.setPointSizeF(large.pointSizeF() * 1.4);  // read at arm's length while talking
    m_notes->setFont(large);
    m_next->setObjectName("presenterNext");
    m_next->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_where);
    layout->addWidget(m_notes, 1);
    layout->addWidget(m_next);
    resize(640, 480);
}

void PresenterNotes::showSlide(int slide, int slides, int incident, const QString& next) {
    const QString position = tr("Slide %1 of %2").arg(slide + 1).arg(slides);
    m_next->setText(next.isEmpty() ? tr("This is the last slide.") : tr("Next: %1").arg(next));
    if (incident < 0) {
        m_where->setText(position + " · " + (incident == -1 ? tr("Title card") : tr("Closing figures")));
        const RunSummary& s = m_content->summary;
        m_notes->setPlainText(incident == -1 ? tr("%1: %2 incidents in turn, worst by time lost first.")
                                                   .arg(qtText(m_content->run->info.name))
                                                   .arg(m_content->selected.size())
                                             : tr("%1 unexpected interruptions, %2 planned.").arg(s.unexpected).arg(s.planned));
        return;
    }
    const ReportIncident& r = m_content->selected.at(static_cast<std::size_t>(incident));
    m_where->setText(position + " · " + qtText(incidentTitle(r.incident)));
    QString text = qtText(r.incident.headline) + "\n\n";
    if (!r.note || (r.note->notes.empty() && !r.note->confirmedCause && r.note->tags.empty())) {
        text += tr("No reviewer's notes for this incident.");
    } else {
        if (!r.note->notes.empty()) text += qtText(r.note->notes) + "\n\n";
        if (r.note->confirmedCause) text += tr("Confirmed cause: %1").arg(qtText(std::string(rootCauseLabel(*r.note->confirmedCause)))) + "\n";
        if (!r.note->tags.empty()) text += tr("Tags: %1").arg(qtText(joinTags(r.note->tags))) + "\n";
    }
    m_notes->setPlainText(text.trimmed());
}

QString PresenterNotes::notesText() const { return m_notes->toPlainText(); }

}  // namespace faultline
