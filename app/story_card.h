#pragma once
// The full-screen cards of a presentation: the title card (run, dates, the headline figures)
// and the closing figures. Type is sized from the card's height, so it reads from the back
// of a room at any screen size.
#include "exports/report_content.h"

#include <QStringList>
#include <QWidget>

namespace faultline {

class StoryCard : public QWidget {
    Q_OBJECT
public:
    enum class Kind { Title, Closing };
    explicit StoryCard(QWidget* parent = nullptr);
    void setCard(const ReportContent* content, Kind kind);
    Kind kind() const { return m_kind; }
    // The title's type size in pixels at the current height (for tests: large enough?).
    int titlePixelSize() const;
    // The figures whose text did not fit its tile even in the smallest type, at the last paint.
    const QStringList& cutTexts() const { return m_cut; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    const ReportContent* m_content = nullptr;
    Kind m_kind = Kind::Title;
    QStringList m_cut;
};

}  // namespace faultline
