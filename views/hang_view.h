#pragma once
// Who hung the job, drawn as Perfetto and Nsight draw flows: one lane a rank (the culprits
// first, in red, then the ranks waiting for them, then the rest), each rank's collectives
// around the hang, the collective each waiting rank is stuck in, and an arrow from it to the
// culprit it waits for, at the last collective that culprit joined. Only the lanes on screen
// are painted, so a job of 16,384 ranks scrolls as smoothly as one of 16.
#include "analysis/hang_lanes.h"
#include "model/collective_lanes.h"
#include "model/run.h"

#include <QWidget>

#include <algorithm>
#include <memory>
#include <vector>

class QScrollBar;

namespace faultline {

class HangView : public QWidget {
    Q_OBJECT
public:
    explicit HangView(QWidget* parent = nullptr);

    // Shows `origin` of the run's hang; a run without one shows a line saying so.
    void setRun(std::shared_ptr<const Run> run, CollectiveLanes lanes, std::size_t origin = 0);
    const std::optional<HangLanes>& hangLanes() const { return m_hang; }
    // The lane a rank is drawn in, -1 when it has none; the lane's rectangle (scrolled).
    int laneOfRank(std::int32_t rank) const;
    QRect laneRect(int lane) const;
    int firstVisibleLane() const;
    void scrollToLane(int lane);
    double xOf(Nanos t) const;
    // What the tooltip at `pos` says: the collective under it, or the lane's rank and role.
    QString toolTipAt(const QPoint& pos) const;
    // The ruler's time labels as drawn (where each text's box sits, and the text): a label
    // that would run past the right edge is left out rather than cut.
    struct RulerLabel {
        QRectF box;
        QString text;
    };
    std::vector<RulerLabel> rulerLabels() const;

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;

private:
    void drawRuler(QPainter& p);
    void drawLanes(QPainter& p);
    void drawFlows(QPainter& p);
    int visibleLaneCount() const;
    void updateScrollRange();
    // The collective drawn under `pos` in `lane`, if any.
    std::optional<std::size_t> recordAt(int lane, const QPoint& pos) const;
    bool isStuck(std::size_t record) const { return std::binary_search(m_stuckRecords.begin(), m_stuckRecords.end(), record); }

    std::shared_ptr<const Run> m_run;
    CollectiveLanes m_lanes;
    std::optional<HangLanes> m_hang;
    std::vector<int> m_laneOfRank;              // rank -> lane drawn, -1 for none
    std::vector<std::size_t> m_stuckRecords;    // the collectives waiting ranks are stuck in, sorted
    QScrollBar* m_scroll = nullptr;
};

}  // namespace faultline
