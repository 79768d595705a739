#include "views/time_chart_view.h"
#include "widgets/chart_tool_tips.h"

#include "views/chart_palette.h"

#include "widgets/nice_ticks.h"

#include <QLabel>
#include <QMouseEvent>
#include <QToolTip>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <cmath>

namespace faultline {

TimeChartView::TimeChartView(const QString& title, const QString& yTitle, QWidget* parent)
    : QChartView(new QChart, parent),
      m_x(new QValueAxis(this)),
      m_y(new QValueAxis(this)),
      m_cursor(new QLineSeries(this)),
      m_empty(new QLabel(this)) {
    chart()->setTitle(title);
    followAppPalette(this);
    keepChartToolTips(this);
    chart()->legend()->setAlignment(Qt::AlignBottom);
    m_y->setTitleText(yTitle);
    chart()->addAxis(m_x, Qt::AlignBottom);
    chart()->addAxis(m_y, Qt::AlignLeft);
    m_cursor->setName(tr("now"));
    m_cursor->setObjectName("cursor");
    m_cursor->setPen(QPen(QColor(30, 100, 220), 2));
    chart()->addSeries(m_cursor);
    m_cursor->attachAxis(m_x);
    m_cursor->attachAxis(m_y);
    // The cursor explains itself (the replay's instant); the legend keeps its room for the data.
    for (QLegendMarker* marker : chart()->legend()->markers(m_cursor)) marker->setVisible(false);
    m_empty->setObjectName("emptyMessage");
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setAutoFillBackground(true);
    m_empty->hide();
    setRenderHint(QPainter::Antialiasing);
    setMinimumSize(200, 130);
    setMouseTracking(true);
    viewport()->setMouseTracking(true);
    setTimeScale(kDay * 2);
}

void TimeChartView::addTimeSeries(QXYSeries* series, const QString& unit, double scale) {
    chart()->addSeries(series);
    series->attachAxis(m_x);
    series->attachAxis(m_y);
    m_tracked.push_back({series, unit, scale});
}

void TimeChartView::setSeriesUnit(QXYSeries* series, const QString& unit) {
    for (Tracked& t : m_tracked)
        if (t.series == series) t.unit = unit;
}

void TimeChartView::setTimeScale(Nanos duration) {
    struct Unit {
        Nanos size;
        const char* name;
    };
    // The largest unit of which the run holds at least a couple and a half.
    static const Unit units[] = {{kDay, "days"}, {kHour, "hours"}, {kMinute, "minutes"}, {kSecond, "seconds"}, {kMillisecond, "ms"}};
    m_unit = kMicrosecond;
    m_unitName = tr("µs");
    for (const Unit& u : units)
        if (duration >= u.size * 3 / 2) {
            m_unit = u.size;
            m_unitName = tr(u.name);
            break;
        }
    m_x->setTitleText(m_unit == kDay ? tr("day of the run") : tr("%1 since the run's start").arg(m_unitName));
}

void TimeChartView::setRange(Nanos duration, double yMin, double yMax) { setRange(0, duration, yMin, yMax); }

void TimeChartView::setRange(Nanos from, Nanos to, double yMin, double yMax) {
    setTimeScale(to - from);
    m_from = from;
    m_duration = to;
    m_yMin = yMin;
    m_yMax = yMax;
    applyTicks();
}

void TimeChartView::applyTicks() {
    // As many round ticks as the chart has room for labels: fewer when it is small, so
    // labels print whole rather than as "...".
    const int plotWidth = std::max(120, width() - 110), plotHeight = std::max(60, height() - 120);
    const double x0 = toX(m_from), x1 = std::max(x0 + 1e-9, toX(m_duration));
    applyNiceTicks(m_x, x0, x1, std::clamp(plotWidth / 80, 2, 10));
    m_x->setMin(x0);
    m_x->setMax(x1);  // the run, not a round number past its end
    applyNiceTicks(m_y, m_yMin, m_yMax, std::clamp(plotHeight / 30, 2, 8));
}

void TimeChartView::setEmptyMessage(const QString& text) {
    m_empty->setText(text);
    m_empty->setVisible(!text.isEmpty());
    m_x->setVisible(text.isEmpty());  // no scale for nothing
    m_y->setVisible(text.isEmpty());
    m_empty->setGeometry(rect().adjusted(20, 56, -20, -20));
    m_empty->raise();
}

QString TimeChartView::emptyMessage() const { return m_empty->isHidden() ? QString() : m_empty->text(); }

void TimeChartView::resizeEvent(QResizeEvent* event) {
    QChartView::resizeEvent(event);
    applyTicks();
    m_empty->setGeometry(rect().adjusted(20, 56, -20, -20));
}

void TimeChartView::setCursor(Nanos t) {
    const double x = toX(t);
    m_cursor->replace({QPointF(x, m_y->min()), QPointF(x, m_y->max())});
}

QString TimeChartView::toolTipAt(const QPointF& pos) const {
    const QPointF scene = mapToScene(pos.toPoint());
    if (!chart()->plotArea().contains(scene)) return {};
    const double x = chart()->mapToValue(scene).x();
    // Each series' point nearest in time, when it is within a few pixels.
    const double perPixel = (m_x->max() - m_x->min()) / std::max(1.0, chart()->plotArea().width());
    QStringList lines;
    for (const Tracked& t : m_tracked) {
        if (!t.series->isVisible() || t.series->count() == 0) continue;
        const QList<QPointF> points = t.series->points();
        auto it = std::lower_bound(points.begin(), points.end(), x, [](const QPointF& p, double v) { return p.x() < v; });
        const QPointF* best = nullptr;
        for (auto c : {it, it == points.begin() ? it : std::prev(it)})
            if (c != points.end() && (!best || std::abs(c->x() - x) < std::abs(best->x() - x))) best = &*c;
        if (!best || std::abs(best->x() - x) > 12 * perPixel) continue;
        const QString value = tr("%1 %2 (at %3 %4)")
                                  .arg(best->y() * t.scale, 0, 'f', std::abs(best->y() * t.scale) < 10 ? 2 : 1)
                                  .arg(t.unit)
                                  .arg(best->x(), 0, 'f', 2)
                                  .arg(m_unitName);
        // A series without a name (the chart's title names it) is not introduced by a colon.
        lines << (t.series->name().isEmpty() ? value : tr("%1: %2").arg(t.series->name(), value));
    }
    return lines.join('\n');
}

void TimeChartView::mouseMoveEvent(QMouseEvent* event) {
    const QString text = toolTipAt(event->position());
    if (text.isEmpty()) QToolTip::hideText();
    else QToolTip::showText(event->globalPosition().toPoint(), text, this);
    QChartView::mouseMoveEvent(event);
}

void TimeChartView::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton && chart()->plotArea().contains(mapToScene(event->position().toPoint()))) {
        const QPointF value = chart()->mapToValue(mapToScene(event->position().toPoint()));
        emit timeClicked(fromX(value.x()));
    }
    QChartView::mousePressEvent(event);
}

}  // namespace faultline
