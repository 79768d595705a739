#pragma once
// The run laid out in time, from the whole run down to milliseconds: training and downtime
// bands coloured by cause, checkpoint saves and loads, failures as markers, planned
// maintenance, wall time and step numbers along the top, and the replay's instant. Zoomed
// into a traced window it shows one lane per rank with its collectives, so arrival skew and
// the late rank are visible. Wheel zooms around the mouse (the whole run to a millisecond in
// a dozen clicks), dragging pans, a click moves the replay there, hovering names what is
// under the mouse, and a legend along the bottom says what each mark is. The view follows
// the replay while its instant is in view, and after jumps, but never while the user pans.
#include "model/root_cause.h"
#include "model/collective_lanes.h"
#include "model/run.h"

#include <QColor>
#include <QFont>
#include <QElapsedTimer>
#include <QWidget>

#include <memory>
#include <utility>
#include <vector>
#include <optional>

class QScrollBar;

namespace faultline {

class TimelineView : public QWidget {
    Q_OBJECT
public:
    explicit TimelineView(QWidget* parent = nullptr);

    void setRun(std::shared_ptr<const Run> run);
    // With the rank lanes sorted already (off the GUI thread, as the app does).
    void setRun(std::shared_ptr<const Run> run, CollectiveLanes lanes);
    void setTime(Nanos t);
    Nanos time() const { return m_time; }
    // Draws the downtimes of this cause outlined and the others faded; nullopt for none.
    void setHighlightedCause(std::optional<RootCause> cause);
    std::optional<RootCause> highlightedCause() const { return m_highlight; }
    // What the tooltip at `pos` says: the mark under it, its time and value; empty for none.
    QString toolTipAt(const QPoint& pos) const;
    // The time one wheel click multiplies or divides the visible span by.
    double zoomFactorPerClick() const;
    // The legend's strip along the bottom, and its entries' names and colours as drawn now.
    QRect legendRect() const;
    std::vector<std::pair<QString, QColor>> legendColours() const;
    void setVisibleRange(Nanos begin, Nanos end);
    Nanos visibleBegin() const { return m_begin; }
    Nanos visibleEnd() const { return m_end; }
    // Where on screen a time is drawn, and which time a column shows.
    double xOf(Nanos t) const;
    Nanos timeAt(double x) const;
    // The rank lanes are drawn when the visible span is this short and shows collectives.
    bool showsRankLanes() const;
    int laneOfRank(std::int32_t rank) const;  // -1 when the rank has no lane
    // A lane's rectangle as scrolled now: lanes keep a readable height, and when more ranks
    // than fit are traced the lanes scroll (their scroll bar, or the wheel over their names).
    QRect laneRect(int lane) const;
    int firstVisibleLane() const;
    int visibleLaneCount() const;
    void scrollToLane(int lane);
    // The lanes' rank names as drawn: each inside its own lane, in a font that fits it, so no
    // two ever overlap.
    struct LaneLabel {
        QRect box;
        QString text;
        QFont font;
    };
    std::vector<LaneLabel> laneLabels() const;
    // The ruler's time labels as drawn (each text's box, and the text): one that would run
    // past the right edge is left out rather than cut ("06:55:05.9|").
    struct RulerLabel {
        QRectF box;
        QString text;
    };
    std::vector<RulerLabel> rulerLabels() const;

signals:
    void timeRequested(faultline::Nanos t);

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void drawRuler(QPainter& p);
    void drawBands(QPainter& p);
    void drawCheckpoints(QPainter& p);
    void drawLanes(QPainter& p);
    void drawHangOnLanes(QPainter& p, int first, int last);
    void drawLegend(QPainter& p);
    void follow(Nanos previous);
    QString describeBand(Nanos t, double x) const;
    QString describeLane(int lane, Nanos t) const;
    QString describeLegend(const QPoint& pos) const;
    QColor nowColour() const;
    int lanesBottom() const;
    int laneHeight() const;
    void updateLaneScroll();

    std::shared_ptr<const Run> m_run;
    CollectiveLanes m_lanes;
    Nanos m_begin = 0, m_end = 1;
    Nanos m_time = 0;
    int m_dragX = -1;
    Nanos m_dragBegin = 0;
    bool m_dragged = false;
    std::optional<RootCause> m_highlight;
    QElapsedTimer m_userMoved;  // since the user last panned or zoomed
    QScrollBar* m_laneScroll = nullptr;
};

}  // namespace faultline
