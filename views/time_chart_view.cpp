#include "time_chart_view.h"

#include <QMouseEvent>

#include <algorithm>
#include <QToolTip>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>

namespace faultline {

TimeChartView::TimeChartView(const QString& title, const QString& yTitle, QWidget* parent)
    : QChartView(new QChart, parent), m_x(new QValueAxis(this)), m_y(new QValueAxis(this)), m_cursor(new QLineSeries(this)) {
    chart()->setTitle(title);
    chart()->legend()->setAlignment(Qt::AlignBottom);
    m_x->setTitleText(tr("day of the run"));
    m_x->setLabelFormat("%.0f");
    m_y->setTitleText(yTitle);
    chart()->addAxis(m_x, Qt::AlignBottom);
    chart()->addAxis(m_y, Qt::AlignLeft);
    m_cursor->setName(tr("now"));
    m_cursor->setObjectName("cursor");
    m_cursor->setPen(QPen(QColor(30, 100, 220), 2));
    chart()->addSeries(m_cursor);
    m_cursor->attachAxis(m_x);
    m_cursor->attachAxis(m_y);
    setRenderHint(QPainter::Antialiasing);
    setMinimumSize(200, 130);
}

void TimeChartView::addTimeSeries(QXYSeries* series, const QString& unit, double scale) {
    chart()->addSeries(series);
    series->attachAxis(m_x);
    series->attachAxis(m_y);
    connect(series, &QXYSeries::hovered, this, [this, series, unit, scale](const QPointF& p, bool state) {
        if (!state) return;
        QToolTip::showText(QCursor::pos(), tr("%1\nday %2: %3 %4").arg(series->name()).arg(p.x(), 0, 'f', 2).arg(p.y() * scale, 0, 'f', 2).arg(unit), this);
    });
}

void TimeChartView::setRange(Nanos duration, double yMin, double yMax) {
    const double days = std::max(1e-9, static_cast<double>(duration) / static_cast<double>(kDay));
    m_x->setRange(0, days);
    m_x->setLabelFormat(days < 5 ? "%.1f" : "%.0f");
    m_x->setTickCount(std::clamp(static_cast<int>(days) + 1, 3, 10));
    m_y->setRange(yMin, yMax);
    m_y->applyNiceNumbers();
}

void TimeChartView::setCursor(Nanos t) {
    const double x = static_cast<double>(t) / static_cast<double>(kDay);
    m_cursor->replace({QPointF(x, m_y->min()), QPointF(x, m_y->max())});
}

void TimeChartView::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton && chart()->plotArea().contains(event->position())) {
        const QPointF value = chart()->mapToValue(event->position());
        emit timeClicked(static_cast<Nanos>(value.x() * static_cast<double>(kDay)));
    }
    QChartView::mousePressEvent(event);
}

}  // namespace faultline
