#include "timeline_view.h"

#include "model/format.h"

#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <ctime>

namespace faultline {

namespace {

constexpr int kLabelWidth = 64;   // row names on the left
constexpr int kRulerHeight = 34;  // wall time and step numbers
constexpr int kBandTop = 38, kBandHeight = 26;
constexpr int kCheckpointTop = 68, kCheckpointHeight = 12;
constexpr int kLanesTop = 86;

QColor causeColour(const Downtime& d) {
    if (d.planned) return {150, 150, 150};
    switch (rootCauseInfo(d.cause).scope) {
        case CauseScope::Gpu: return {205, 45, 45};
        case CauseScope::Host: return {150, 95, 40};
        case CauseScope::Nic:
        case CauseScope::Network: return {125, 65, 175};
        case CauseScope::Software: return {60, 110, 205};
    }
    return {60, 60, 60};
}

// Tick spacing: the first of these that leaves room between labels.
constexpr std::array<Nanos, 24> kTicks = {
    kMillisecond, 2 * kMillisecond, 5 * kMillisecond, 10 * kMillisecond, 20 * kMillisecond, 50 * kMillisecond,
    100 * kMillisecond, 200 * kMillisecond, 500 * kMillisecond, kSecond, 2 * kSecond, 5 * kSecond, 10 * kSecond,
    30 * kSecond, kMinute, 5 * kMinute, 10 * kMinute, 30 * kMinute, kHour, 3 * kHour, 6 * kHour, 12 * kHour, kDay, 7 * kDay};

QString tickLabel(std::int64_t startEpochNs, Nanos t, Nanos tick) {
    const std::int64_t abs = startEpochNs + t;
    const std::time_t seconds = static_cast<std::time_t>(abs / kSecond);
    std::tm tm{};
    gmtime_r(&seconds, &tm);
    char buf[48];
    if (tick >= kDay) std::strftime(buf, sizeof buf, "%b %d", &tm);
    else if (tick >= kMinute) std::strftime(buf, sizeof buf, "%b %d %H:%M", &tm);
    else if (tick >= kSecond) std::strftime(buf, sizeof buf, "%H:%M:%S", &tm);
    else {
        std::strftime(buf, sizeof buf, "%H:%M:%S", &tm);
        return QString("%1.%2").arg(buf).arg((abs % kSecond) / kMillisecond, 3, 10, QChar('0'));
    }
    return buf;
}

}  // namespace

TimelineView::TimelineView(QWidget* parent) : QWidget(parent) {
    setObjectName("timelineView");
    setMinimumSize(200, 80);
    setMouseTracking(false);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void TimelineView::setRun(std::shared_ptr<const Run> run) {
    CollectiveLanes lanes = run ? buildCollectiveLanes(*run) : CollectiveLanes{};
    setRun(std::move(run), std::move(lanes));
}

void TimelineView::setRun(std::shared_ptr<const Run> run, CollectiveLanes lanes) {
    m_run = std::move(run);
    m_lanes = std::move(lanes);
    setVisibleRange(0, m_run ? std::max<Nanos>(1, m_run->info.duration) : kDay);
}

void TimelineView::setTime(Nanos t) {
    if (t == m_time) return;
    m_time = t;
    update();
}

void TimelineView::setVisibleRange(Nanos begin, Nanos end) {
    const Nanos duration = m_run ? std::max<Nanos>(1, m_run->info.duration) : kDay;
    Nanos span = std::clamp<Nanos>(end - begin, kMillisecond, duration);
    begin = std::clamp<Nanos>(begin, 0, duration - span);
    m_begin = begin;
    m_end = begin + span;
    update();
}

double TimelineView::xOf(Nanos t) const {
    const double plot = std::max(1, width() - kLabelWidth);
    return kLabelWidth + plot * static_cast<double>(t - m_begin) / static_cast<double>(m_end - m_begin);
}

Nanos TimelineView::timeAt(double x) const {
    const double plot = std::max(1, width() - kLabelWidth);
    return m_begin + static_cast<Nanos>((x - kLabelWidth) / plot * static_cast<double>(m_end - m_begin));
}

bool TimelineView::showsRankLanes() const {
    return !m_lanes.lanes.empty() && m_end - m_begin <= 4 * std::max<Nanos>(kSecond, m_lanes.traceEnd - m_lanes.traceBegin) &&
           m_end > m_lanes.traceBegin && m_begin < m_lanes.traceEnd;
}

int TimelineView::laneOfRank(std::int32_t rank) const {
    const int lanes = std::min<int>(static_cast<int>(m_lanes.lanes.size()), std::max(0, (height() - kLanesTop) / 4));
    for (int i = 0; i < lanes; ++i)
        if (m_lanes.lanes[static_cast<std::size_t>(i)].rank == rank) return i;
    return -1;
}

QRect TimelineView::laneRect(int lane) const {
    const int lanes = std::min<int>(static_cast<int>(m_lanes.lanes.size()), std::max(1, (height() - kLanesTop) / 4));
    const int h = std::clamp((height() - kLanesTop) / std::max(1, lanes), 4, 18);
    return {kLabelWidth, kLanesTop + lane * h, width() - kLabelWidth, h - 1};
}

void TimelineView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (!m_run) {
        p.drawText(rect(), Qt::AlignCenter, tr("No run"));
        return;
    }
    drawRuler(p);
    drawBands(p);
    drawCheckpoints(p);
    if (showsRankLanes()) drawLanes(p);
    const double x = xOf(m_time);
    if (x >= kLabelWidth && x <= width()) {
        p.setPen(QPen(palette().highlight().color(), 2));
        p.drawLine(QPointF(x, 0), QPointF(x, height()));
    }
}

void TimelineView::drawRuler(QPainter& p) {
    const Nanos span = m_end - m_begin;
    const double perPixel = static_cast<double>(span) / std::max(1, width() - kLabelWidth);
    Nanos tick = kTicks.back();
    for (Nanos t : kTicks)
        if (static_cast<double>(t) / perPixel >= 110) {
            tick = t;
            break;
        }
    p.setPen(palette().text().color());
    p.drawText(QRect(0, 0, kLabelWidth - 4, 16), Qt::AlignRight | Qt::AlignVCenter, tr("time"));
    p.drawText(QRect(0, 16, kLabelWidth - 4, 16), Qt::AlignRight | Qt::AlignVCenter, tr("step"));
    p.drawText(QRect(0, kBandTop, kLabelWidth - 4, kBandHeight), Qt::AlignRight | Qt::AlignVCenter, tr("job"));
    p.drawText(QRect(0, kCheckpointTop - 2, kLabelWidth - 4, kCheckpointHeight + 4), Qt::AlignRight | Qt::AlignVCenter, tr("ckpt"));
    const QColor grid = palette().mid().color();
    for (Nanos t = (m_begin + tick - 1) / tick * tick; t <= m_end; t += tick) {
        const double x = xOf(t);
        p.setPen(grid);
        p.drawLine(QPointF(x, 0), QPointF(x, height()));
        p.setPen(palette().text().color());
        p.drawText(QPointF(x + 3, 12), tickLabel(m_run->info.startEpochNs, t, tick));
        const auto& steps = m_run->steps;
        auto it = std::upper_bound(steps.begin(), steps.end(), t, [](Nanos v, const Step& s) { return v < s.time; });
        if (it != steps.begin()) p.drawText(QPointF(x + 3, 28), QString::fromStdString(formatCount(std::prev(it)->step)));
    }
}

void TimelineView::drawBands(QPainter& p) {
    const QRectF band(kLabelWidth, kBandTop, width() - kLabelWidth, kBandHeight);
    p.fillRect(band, QColor(182, 214, 170));  // training
    for (const Downtime& d : m_run->downtimes) {
        if (d.end < m_begin || d.begin > m_end) continue;
        // At least a pixel wide, so a minute-long restart in a 54-day view still shows.
        const double x0 = xOf(d.begin), x1 = std::max(xOf(d.end), x0 + 1.0);
        p.fillRect(QRectF(x0, band.top(), x1 - x0, band.height()), causeColour(d));
        if (d.lostWork > 0) p.fillRect(QRectF(xOf(d.begin - d.lostWork), band.top(), std::max(1.0, x0 - xOf(d.begin - d.lostWork)), 4),
                                       QColor(230, 150, 40));
    }
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(150, 20, 20));
    for (const Failure& f : m_run->failures) {
        if (f.time < m_begin || f.time > m_end) continue;
        const double x = xOf(f.time);
        const QPointF tri[3] = {{x - 4, band.top() - 4}, {x + 4, band.top() - 4}, {x, band.top() + 3}};
        p.drawPolygon(tri, 3);
    }
    p.setBrush(Qt::NoBrush);
}

void TimelineView::drawCheckpoints(QPainter& p) {
    const auto& checkpoints = m_run->checkpoints;
    int lastColumn = -1;
    for (const Checkpoint& c : checkpoints) {
        if (c.end < m_begin || c.begin > m_end) continue;
        const double x0 = xOf(c.begin), x1 = std::max(xOf(c.end), x0 + 1.0);
        const int column = static_cast<int>(x0);
        if (x1 - x0 <= 1.0 && column == lastColumn) continue;  // a pixel already drawn
        lastColumn = column;
        const bool save = c.kind == CheckpointKind::Save;
        p.fillRect(QRectF(x0, kCheckpointTop + (save ? 0 : kCheckpointHeight / 2), x1 - x0, kCheckpointHeight / 2),
                   save ? QColor(50, 110, 220) : QColor(40, 180, 200));
    }
}

void TimelineView::drawLanes(QPainter& p) {
    const auto& records = m_run->collectives;
    const int lanes = std::min<int>(static_cast<int>(m_lanes.lanes.size()), std::max(0, (height() - kLanesTop) / 4));
    const int plotWidth = width() - kLabelWidth;
    if (lanes == 0 || plotWidth <= 0) return;
    // Tens of thousands of boxes: paint them as pixel runs into one image, not one by one.
    QImage image(plotWidth, laneRect(lanes - 1).bottom() - kLanesTop + 1, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    const QRgb colour = qRgb(90, 120, 170);
    for (int lane = 0; lane < lanes; ++lane) {
        const QRect r = laneRect(lane);
        const CollectiveLane& l = m_lanes.lanes[static_cast<std::size_t>(lane)];
        if (r.height() >= 9) p.drawText(QRect(0, r.top(), kLabelWidth - 4, r.height()), Qt::AlignRight | Qt::AlignVCenter, tr("rank %1").arg(l.rank));
        // This lane's records, sorted by enter (and so by exit: a rank is in one collective at a time).
        const auto begin = m_lanes.records.begin() + static_cast<std::ptrdiff_t>(l.begin);
        const auto end = m_lanes.records.begin() + static_cast<std::ptrdiff_t>(l.end);
        auto first = std::lower_bound(begin, end, m_begin, [&](std::uint32_t i, Nanos t) { return records[i].exit < t; });
        auto* row = reinterpret_cast<QRgb*>(image.scanLine(r.top() - kLanesTop));
        for (auto it = first; it != end; ++it) {
            const CollectiveRecord& c = records[*it];
            if (c.enter > m_end) break;
            const int x0 = std::clamp(static_cast<int>(xOf(c.enter)) - kLabelWidth, 0, plotWidth - 1);
            const int x1 = std::clamp(static_cast<int>(xOf(c.exit)) - kLabelWidth, x0, plotWidth - 1);
            std::fill(row + x0, row + x1 + 1, colour);
        }
        for (int y = r.top() + 1; y <= r.bottom(); ++y)
            std::memcpy(image.scanLine(y - kLanesTop), row, static_cast<std::size_t>(plotWidth) * sizeof(QRgb));
    }
    p.drawImage(kLabelWidth, kLanesTop, image);
}

void TimelineView::wheelEvent(QWheelEvent* event) {
    const double steps = event->angleDelta().y() / 120.0;
    const double factor = std::pow(1.25, -steps);
    const Nanos anchor = timeAt(event->position().x());
    const auto span = static_cast<Nanos>(static_cast<double>(m_end - m_begin) * factor);
    const double share = static_cast<double>(anchor - m_begin) / static_cast<double>(m_end - m_begin);
    const Nanos begin = anchor - static_cast<Nanos>(share * static_cast<double>(span));
    setVisibleRange(begin, begin + span);
    event->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) return;
    m_dragX = static_cast<int>(event->position().x());
    m_dragBegin = m_begin;
    m_dragged = false;
}

void TimelineView::mouseMoveEvent(QMouseEvent* event) {
    if (m_dragX < 0) return;
    const int dx = static_cast<int>(event->position().x()) - m_dragX;
    if (std::abs(dx) < 3 && !m_dragged) return;
    m_dragged = true;
    const Nanos span = m_end - m_begin;
    const Nanos shift = static_cast<Nanos>(static_cast<double>(dx) / std::max(1, width() - kLabelWidth) * static_cast<double>(span));
    setVisibleRange(m_dragBegin - shift, m_dragBegin - shift + span);
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || m_dragX < 0) return;
    if (!m_dragged && event->position().x() >= kLabelWidth) emit timeRequested(timeAt(event->position().x()));
    m_dragX = -1;
}

}  // namespace faultline
