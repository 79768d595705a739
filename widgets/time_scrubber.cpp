#include "time_scrubber.h"

#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace faultline {

namespace {
constexpr double kMargin = 8;  // room for the handle at either end
}

TimeScrubber::TimeScrubber(QWidget* parent) : QWidget(parent) {
    setMinimumHeight(24);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setCursor(Qt::PointingHandCursor);
}

void TimeScrubber::setRange(std::int64_t maximum) {
    m_maximum = std::max<std::int64_t>(1, maximum);
    m_value = std::clamp<std::int64_t>(m_value, 0, m_maximum);
    update();
}

void TimeScrubber::setValue(std::int64_t value) {
    value = std::clamp<std::int64_t>(value, 0, m_maximum);
    if (value == m_value) return;
    m_value = value;
    update();
}

void TimeScrubber::setMarks(std::vector<std::int64_t> marks) {
    m_marks = std::move(marks);
    update();
}

QRectF TimeScrubber::track() const { return QRectF(kMargin, height() / 2.0 - 3, width() - 2 * kMargin, 6); }

void TimeScrubber::setMarkColour(const QColor& colour) {
    m_markColour = colour;
    update();
}

int TimeScrubber::xOf(std::int64_t value) const {
    const QRectF t = track();
    return static_cast<int>(std::lround(t.left() + t.width() * static_cast<double>(value) / static_cast<double>(m_maximum)));
}

std::int64_t TimeScrubber::valueAt(double x) const {
    const QRectF t = track();
    const double f = std::clamp((x - t.left()) / std::max(1.0, t.width()), 0.0, 1.0);
    return static_cast<std::int64_t>(std::llround(f * static_cast<double>(m_maximum)));
}

void TimeScrubber::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QRectF t = track();
    p.setPen(Qt::NoPen);
    p.setBrush(palette().color(QPalette::Mid));
    p.drawRoundedRect(t, 3, 3);
    p.setBrush(palette().color(QPalette::Highlight));
    p.drawRoundedRect(QRectF(t.left(), t.top(), xOf(m_value) - t.left(), t.height()), 3, 3);
    // Marks: thin red ticks; many close together read as a denser band.
    QColor mark = m_markColour;
    mark.setAlpha(170);
    p.setPen(QPen(mark, 1));
    for (std::int64_t m : m_marks) {
        const int x = xOf(m);
        p.drawLine(QPointF(x + 0.5, t.top() - 5), QPointF(x + 0.5, t.bottom() + 5));
    }
    p.setPen(QPen(palette().color(QPalette::Dark), 1));
    p.setBrush(palette().color(QPalette::Button));
    p.drawEllipse(QPointF(xOf(m_value), height() / 2.0), 7, 7);
}

void TimeScrubber::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) return;
    setValue(valueAt(event->position().x()));
    emit scrubbed(m_value);
}

void TimeScrubber::mouseMoveEvent(QMouseEvent* event) {
    if (!(event->buttons() & Qt::LeftButton)) return;
    setValue(valueAt(event->position().x()));
    emit scrubbed(m_value);
}

}  // namespace faultline
