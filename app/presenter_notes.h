#pragma once
// The presenter's notes for a presentation, in a window of their own to put on the laptop's
// screen while the slides fill the projector: the slide shown (n of N), the reviewer's notes
// for its incident in full, its confirmed cause and tags, and what comes next. Opened and
// closed with S in the presentation.
#include "exports/report_content.h"

#include <QWidget>

#include <memory>

class QLabel;
class QTextBrowser;

namespace faultline {

class PresenterNotes : public QWidget {
    Q_OBJECT
public:
    explicit PresenterNotes(std::shared_ptr<const ReportContent> content, QWidget* parent = nullptr);

    // The slide shown now: `incident` indexes content->selected; -1 for the title card, -2
    // for the closing card.
    void showSlide(int slide, int slides, int incident, const QString& next);
    QString notesText() const;

private:
    std::shared_ptr<const ReportContent> m_content;
    QLabel* m_where;
    QTextBrowser* m_notes;
    QLabel* m_next;
};

}  // namespace faultline
