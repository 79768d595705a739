#pragma once
// A chart over the run's time (x in days): a cursor line at the replay's instant, a tooltip
// naming the value under the mouse, and a click that asks the replay to go there.
#include "model/time.h"

#include <QtCharts/QChartView>

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
    // Adds a series on the shared axes, with a tooltip for its points.
    void addTimeSeries(QXYSeries* series, const QString& unit, double scale = 1.0);
    void setCursor(Nanos t);
    void setRange(Nanos duration, double yMin, double yMax);

signals:
    void timeClicked(faultline::Nanos t);

protected:
    void mousePressEvent(QMouseEvent* event) override;

private:
    QValueAxis* m_x;
    QValueAxis* m_y;
    QLineSeries* m_cursor;
};

}  // namespace faultline
