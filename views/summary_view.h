#pragma once
// The run at a glance: what ran where for how long, how much of it was effective training,
// where the downtime went and what caused the interruptions.
#include <QWidget>

class QLabel;
class QTableWidget;

namespace faultline {

struct RunSummary;
class StatTile;

class SummaryView : public QWidget {
    Q_OBJECT
public:
    explicit SummaryView(QWidget* parent = nullptr);
    void setSummary(const RunSummary& summary);
    // The lines that lead the summary: what the run holds (runHighlights).
    void setHighlights(const QStringList& lines);
    QString highlightsText() const;

private:
    QLabel* m_title;
    QLabel* m_subtitle;
    QLabel* m_highlights;
    StatTile* m_ettr;
    StatTile* m_interruptions;
    StatTile* m_mtbf;
    StatTile* m_checkpoints;
    StatTile* m_detection;
    StatTile* m_restart;
    StatTile* m_reload;
    StatTile* m_lostWork;
    QTableWidget* m_causes;
};

}  // namespace faultline
