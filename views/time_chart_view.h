#pragma once
// A chart over the run's time: x in the unit that fits the run (days for weeks, ms for a
// 21 ms trace) on round ticks, a cursor line at the replay's instant, a tooltip naming the
// value under the mouse, a click that asks the replay to go there, and a message in place
// of the plot when the run has nothing to show in it.
#include "model/time.h"

#include <QtCharts/QChartView>

class QLabel;
class QLineSeries;
class QValueAxis;
class QXYSeries;

namespace faultline {

class TimeChartView : public QChartView {
    Q_OBJECT
public:
    TimeChartView(const QString& title, const QString& yTitle, QWidget* parent = nullptr);

    QValueAxis* xAxis() const { return m_x; }
    QValueAxis* yAxis() const { return m_y; }
    // Adds a series on the shared axes, with a tooltip for its points in `unit`.
    void addTimeSeries(QXYSeries* series, const QString& unit, double scale = 1.0);
    // The unit a series' tooltip names its values in.
    void setSeriesUnit(QXYSeries* series, const QString& unit);
    // Picks the x unit for a run this long; call before filling the series.
    void setTimeScale(Nanos duration);
    // Run time to x and back, in the unit chosen.
    double toX(Nanos t) const { return static_cast<double>(t) / static_cast<double>(m_unit); }
    Nanos fromX(double x) const { return static_cast<Nanos>(x * static_cast<double>(m_unit)); }
    QString unitName() const { return m_unitName; }
    void setCursor(Nanos t);
    void setRange(Nanos duration, double yMin, double yMax);
    // The x axis over [from, to] of the run alone (a GPU's readings cover part of a run).
    void setRange(Nanos from, Nanos to, double yMin, double yMax);
    // Shown over the chart in place of an empty plot; an empty text hides it.
    void setEmptyMessage(const QString& text);
    QString emptyMessage() const;
    // The tooltip the mouse at `pos` (viewport coordinates) shows; empty where none.
    QString toolTipAt(const QPointF& pos) const;

signals:
    void timeClicked(faultline::Nanos t);

protected:
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    struct Tracked {
        QXYSeries* series;
        QString unit;
        double scale;
    };
    QValueAxis* m_x;
    QValueAxis* m_y;
    QLineSeries* m_cursor;
    QLabel* m_empty;
    std::vector<Tracked> m_tracked;
    void applyTicks();

    Nanos m_unit = kDay;
    Nanos m_from = 0;
    Nanos m_duration = kDay;
    double m_yMin = 0, m_yMax = 1;
    QString m_unitName;
};

}  // namespace faultline
