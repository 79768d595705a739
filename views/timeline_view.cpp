#include "views/timeline_view.h"

#include "views/state_palette.h"
#include "analysis/hang_lanes.h"
#include "model/format.h"
#include "views/timeline_geometry.h"
#include "views/timeline_ticks.h"

#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QWheelEvent>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <ctime>

namespace faultline {

using namespace timeline_geometry;

namespace {

QColor causeColour(const Downtime& d, const TimelineColours& c) {
    if (d.planned) return qColour(c.planned);
    switch (rootCauseInfo(d.cause).scope) {
        case CauseScope::Gpu: return qColour(c.gpuCause);
        case CauseScope::Host: return qColour(c.hostCause);
        case CauseScope::Nic:
        case CauseScope::Network: return qColour(c.networkCause);
        case CauseScope::Software: return qColour(c.softwareCause);
    }
    return qColour(c.planned);
}

constexpr int kLegendHeight = 18;  // what each mark is, along the bottom
// A rank lane is never squeezed below a height its name can be read in: more ranks scroll.
constexpr int kMinLaneHeight = 14, kMaxLaneHeight = 18;
// After the user pans or zooms, jumps of the replay leave their view alone this long.
constexpr qint64 kUserHoldMs = 3000;

}  // namespace

TimelineView::TimelineView(QWidget* parent) : QWidget(parent) {
    setObjectName("timelineView");
    setMinimumSize(200, 110);
    setMouseTracking(false);
    setAttribute(Qt::WA_OpaquePaintEvent);
    // Failures and checkpoints are drawn in the state colours of the 3D view.
    connect(&StatePaletteChoice::instance(), &StatePaletteChoice::changed, this, [this] { update(); });
    m_laneScroll = new QScrollBar(Qt::Vertical, this);
    m_laneScroll->setObjectName("timelineLaneScroll");
    m_laneScroll->hide();
    connect(m_laneScroll, &QScrollBar::valueChanged, this, [this] { update(); });
}

void TimelineView::setRun(std::shared_ptr<const Run> run) {
    CollectiveLanes lanes = run ? buildCollectiveLanes(*run) : CollectiveLanes{};
    setRun(std::move(run), std::move(lanes));
}

void TimelineView::setRun(std::shared_ptr<const Run> run, CollectiveLanes lanes) {
    m_run = std::move(run);
    m_lanes = std::move(lanes);
    m_laneScroll->setValue(0);
    setVisibleRange(0, m_run ? std::max<Nanos>(1, m_run->info.duration) : kDay);
}

void TimelineView::setTime(Nanos t) {
    if (t == m_time) return;
    const Nanos previous = m_time;
    m_time = t;
    follow(previous);
    update();
}

void TimelineView::follow(Nanos previous) {
    if (!m_run || m_dragX >= 0) return;  // never while the user pans
    if (m_time >= m_begin && m_time <= m_end) return;
    const Nanos span = m_end - m_begin;
    const bool wasInView = previous >= m_begin && previous <= m_end;
    const bool jump = std::abs(m_time - previous) > span;
    const bool userLooking = m_userMoved.isValid() && m_userMoved.elapsed() < kUserHoldMs;
    // The replay ran out of the view the user was watching it in, or jumped somewhere new
    // (an incident, a search, a click elsewhere) while the user was not busy with the view:
    // turn the page, the instant a tenth in from the left.
    if (wasInView || (jump && !userLooking)) setVisibleRange(m_time - span / 10, m_time - span / 10 + span);
}

void TimelineView::setHighlightedCause(std::optional<RootCause> cause) {
    m_highlight = cause;
    update();
}

double TimelineView::zoomFactorPerClick() const {
    // A dozen clicks from the whole run to a millisecond, however long the run.
    const double range = static_cast<double>(m_run ? std::max<Nanos>(kMillisecond, m_run->info.duration) : kDay) / kMillisecond;
    return std::clamp(std::pow(range, 1.0 / 12.0), 1.25, 8.0);
}

QRect TimelineView::legendRect() const { return {0, height() - kLegendHeight, width(), kLegendHeight}; }

int TimelineView::lanesBottom() const { return height() - kLegendHeight - 2; }

void TimelineView::setVisibleRange(Nanos begin, Nanos end) {
    const Nanos duration = m_run ? std::max<Nanos>(1, m_run->info.duration) : kDay;
    Nanos span = std::clamp<Nanos>(end - begin, kMillisecond, duration);
    begin = std::clamp<Nanos>(begin, 0, duration - span);
    m_begin = begin;
    m_end = begin + span;
    updateLaneScroll();
    update();
}

void TimelineView::resizeEvent(QResizeEvent*) { updateLaneScroll(); }

int TimelineView::laneHeight() const {
    const int lanes = std::max<int>(1, static_cast<int>(m_lanes.lanes.size()));
    return std::clamp((lanesBottom() - kLanesTop) / lanes, kMinLaneHeight, kMaxLaneHeight);
}

int TimelineView::visibleLaneCount() const {
    return std::min<int>(static_cast<int>(m_lanes.lanes.size()), std::max(0, (lanesBottom() - kLanesTop) / laneHeight()));
}

int TimelineView::firstVisibleLane() const { return m_laneScroll->value(); }

void TimelineView::scrollToLane(int lane) { m_laneScroll->setValue(lane); }

void TimelineView::updateLaneScroll() {
    const int hidden = showsRankLanes() ? static_cast<int>(m_lanes.lanes.size()) - visibleLaneCount() : 0;
    m_laneScroll->setRange(0, std::max(0, hidden));
    m_laneScroll->setPageStep(std::max(1, visibleLaneCount()));
    const int w = m_laneScroll->sizeHint().width();
    m_laneScroll->setGeometry(width() - w, kLanesTop, w, std::max(0, lanesBottom() - kLanesTop));
    m_laneScroll->setVisible(hidden > 0);
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
    for (std::size_t i = 0; i < m_lanes.lanes.size(); ++i)
        if (m_lanes.lanes[i].rank == rank) return static_cast<int>(i);
    return -1;
}

QRect TimelineView::laneRect(int lane) const {
    const int h = laneHeight();
    return {kLabelWidth, kLanesTop + (lane - firstVisibleLane()) * h, width() - kLabelWidth, h - 1};
}

std::vector<TimelineView::LaneLabel> TimelineView::laneLabels() const {
    std::vector<LaneLabel> labels;
    if (!m_run || !showsRankLanes()) return labels;
    const int room = laneHeight() - 1;
    QFont small = font();
    for (int pixels = 12; pixels >= 8; --pixels) {
        small.setPixelSize(pixels);
        if (QFontMetrics(small).height() <= room) break;
    }
    const int first = firstVisibleLane();
    for (int lane = first; lane < first + visibleLaneCount(); ++lane) {
        const QRect r = laneRect(lane);
        labels.push_back({QRect(0, r.top(), kLabelWidth - 4, r.height()), tr("rank %1").arg(m_lanes.lanes[static_cast<std::size_t>(lane)].rank), small});
    }
    return labels;
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
        p.setPen(QPen(nowColour(), 2));
        p.drawLine(QPointF(x, 0), QPointF(x, legendRect().top()));
    }
    drawLegend(p);
}

std::vector<TimelineView::RulerLabel> TimelineView::rulerLabels() const {
    std::vector<RulerLabel> labels;
    if (!m_run) return labels;
    const std::int64_t start = m_run->info.startEpochNs;
    const double pixelsPerNano = std::max(1, width() - kLabelWidth) / static_cast<double>(m_end - m_begin);
    const QFontMetrics metrics = fontMetrics();
    const Nanos tick = chooseTimelineTick(pixelsPerNano, [&](Nanos step) {
        return metrics.horizontalAdvance(QString::fromStdString(timelineTickLabel(start, m_begin, step)));
    });
    for (Nanos t = firstTickAtOrAfter(start, m_begin, tick); t <= m_end; t = nextTick(start, t, tick)) {
        const QString text = QString::fromStdString(timelineTickLabel(start, t, tick));
        const QRectF box(xOf(t) + 3, 12 - metrics.ascent(), metrics.horizontalAdvance(text), metrics.height());
        if (box.left() < kLabelWidth || box.right() > width() - 1) continue;  // its tick line is drawn; a cut label is not
        labels.push_back({box, text});
    }
    return labels;
}

void TimelineView::drawRuler(QPainter& p) {
    const std::int64_t start = m_run->info.startEpochNs;
    const double pixelsPerNano = std::max(1, width() - kLabelWidth) / static_cast<double>(m_end - m_begin);
    const QFontMetrics metrics = p.fontMetrics();
    // Labels as wide as they print, with a gap: they never run into each other.
    const Nanos tick = chooseTimelineTick(pixelsPerNano, [&](Nanos step) {
        return metrics.horizontalAdvance(QString::fromStdString(timelineTickLabel(start, m_begin, step)));
    });
    p.setPen(palette().text().color());
    p.drawText(QRect(0, 0, kLabelWidth - 4, 16), Qt::AlignRight | Qt::AlignVCenter, tr("time"));
    p.drawText(QRect(0, 16, kLabelWidth - 4, 16), Qt::AlignRight | Qt::AlignVCenter, tr("step"));
    p.drawText(QRect(0, kBandTop, kLabelWidth - 4, kBandHeight), Qt::AlignRight | Qt::AlignVCenter, tr("job"));
    p.drawText(QRect(0, kCheckpointTop - 2, kLabelWidth - 4, kCheckpointHeight + 4), Qt::AlignRight | Qt::AlignVCenter, tr("ckpt"));
    const QColor grid = palette().mid().color();
    p.save();
    p.setClipRect(QRect(kLabelWidth, 0, width() - kLabelWidth, height()));
    for (Nanos t = firstTickAtOrAfter(start, m_begin, tick); t <= m_end; t = nextTick(start, t, tick)) {
        const double x = xOf(t);
        p.setPen(grid);
        p.drawLine(QPointF(x, 0), QPointF(x, legendRect().top()));
        p.setPen(palette().text().color());
        const auto& steps = m_run->steps;
        auto it = std::upper_bound(steps.begin(), steps.end(), t, [](Nanos v, const Step& s) { return v < s.time; });
        if (it != steps.begin()) p.drawText(QPointF(x + 3, 28), QString::fromStdString(formatCount(std::prev(it)->step)));
    }
    for (const RulerLabel& label : rulerLabels()) p.drawText(QPointF(label.box.left(), 12), label.text);
    p.restore();
}

void TimelineView::drawBands(QPainter& p) {
    const QRectF band(kLabelWidth, kBandTop, width() - kLabelWidth, kBandHeight);
    const StatePalette& states = activeStatePalette();
    p.fillRect(band, qColour(states.timeline.training));
    for (const Downtime& d : m_run->downtimes) {
        if (d.end < m_begin || d.begin > m_end) continue;
        // At least a pixel wide, so a minute-long restart in a 54-day view still shows.
        const double x0 = xOf(d.begin), x1 = std::max(xOf(d.end), x0 + 1.0);
        QColor colour = causeColour(d, states.timeline);
        const bool chosen = m_highlight && !d.planned && d.cause == *m_highlight;
        if (m_highlight && !chosen) colour.setAlpha(60);  // the cause asked for stands out
        p.fillRect(QRectF(x0, band.top(), x1 - x0, band.height()), colour);
        if (chosen) {
            p.setPen(QPen(QColor(250, 200, 0), 2));
            p.drawRect(QRectF(std::min(x0, x1 - 3.0) - 1, band.top() + 1, std::max(3.0, x1 - x0) + 2, band.height() - 2));
            p.setPen(Qt::NoPen);
        }
        if (d.lostWork > 0) p.fillRect(QRectF(xOf(d.begin - d.lostWork), band.top(), std::max(1.0, x0 - xOf(d.begin - d.lostWork)), 4),
                                       qColour(states.timeline.lostWork));
    }
    p.setPen(Qt::NoPen);
    p.setBrush(qColour(states.failed));  // as the failed GPUs in 3D
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
    const TimelineColours& colours = activeStatePalette().timeline;
    const QColor saveColour = qColour(activeStatePalette().checkpointing);  // as the GPUs saving in 3D
    for (const Checkpoint& c : checkpoints) {
        if (c.end < m_begin || c.begin > m_end) continue;
        const double x0 = xOf(c.begin), x1 = std::max(xOf(c.end), x0 + 1.0);
        const int column = static_cast<int>(x0);
        if (x1 - x0 <= 1.0 && column == lastColumn) continue;  // a pixel already drawn
        lastColumn = column;
        const bool save = c.kind == CheckpointKind::Save;
        p.fillRect(QRectF(x0, kCheckpointTop + (save ? 0 : kCheckpointHeight / 2), x1 - x0, kCheckpointHeight / 2),
                   save ? saveColour : qColour(colours.checkpointLoad));
    }
}

void TimelineView::drawLanes(QPainter& p) {
    const auto& records = m_run->collectives;
    const int first = firstVisibleLane(), last = first + visibleLaneCount();
    const int plotWidth = width() - kLabelWidth;
    if (last <= first || plotWidth <= 0) return;
    // Tens of thousands of boxes: paint them as pixel runs into one image, not one by one.
    QImage image(plotWidth, laneRect(last - 1).bottom() - kLanesTop + 1, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    const Rgb inside = activeStatePalette().timeline.collective;
    const QRgb colour = qRgb(inside[0], inside[1], inside[2]);
    p.setPen(palette().text().color());  // the bands left no pen: the rank labels need one
    for (const LaneLabel& label : laneLabels()) {
        p.setFont(label.font);
        p.drawText(label.box, Qt::AlignRight | Qt::AlignVCenter, label.text);
    }
    p.setFont(font());
    for (int lane = first; lane < last; ++lane) {
        const QRect r = laneRect(lane);
        const CollectiveLane& l = m_lanes.lanes[static_cast<std::size_t>(lane)];
        // This lane's records, sorted by enter (and so by exit: a rank is in one collective at a time).
        const auto begin = m_lanes.records.begin() + static_cast<std::ptrdiff_t>(l.begin);
        const auto end = m_lanes.records.begin() + static_cast<std::ptrdiff_t>(l.end);
        auto from = std::lower_bound(begin, end, m_begin, [&](std::uint32_t i, Nanos t) { return records[i].exit < t; });
        auto* row = reinterpret_cast<QRgb*>(image.scanLine(r.top() - kLanesTop));
        for (auto it = from; it != end; ++it) {
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
    drawHangOnLanes(p, first, last);
}

// From the moment a hang began, a culprit's lane is filled in the failed colour (its GPU failed
// the job) and a waiting rank's lane hatched with it: who hung the job reads off the lanes.
void TimelineView::drawHangOnLanes(QPainter& p, int first, int last) {
    if (!m_run->hang) return;
    const QColor failed = qColour(activeStatePalette().failed);
    std::optional<Nanos> begin;
    for (int lane = first; lane < last; ++lane) {
        const std::optional<RankInHang> part = rankInHang(*m_run, m_lanes.lanes[static_cast<std::size_t>(lane)].rank);
        if (!part || part->begin > m_end) continue;
        const QRect r = laneRect(lane);
        const double x0 = std::max<double>(kLabelWidth, xOf(part->begin));
        const QRectF hung(x0, r.top(), width() - x0, r.height());
        p.fillRect(hung, part->culprit ? QBrush(failed) : QBrush(failed, Qt::BDiagPattern));
        begin = std::min(begin.value_or(part->begin), part->begin);
    }
    if (!begin || *begin < m_begin) return;
    const double x = xOf(*begin);
    p.setPen(QPen(failed, 2, Qt::DashLine));
    p.drawLine(QPointF(x, kLanesTop - 4), QPointF(x, laneRect(last - 1).bottom()));
    p.drawText(QPointF(x + 4, kLanesTop - 6), tr("hang"));
}

void TimelineView::wheelEvent(QWheelEvent* event) {
    // Over the rank names the wheel scrolls the lanes, three a notch; elsewhere it zooms.
    if (m_laneScroll->isVisible() && event->position().x() < kLabelWidth && event->position().y() >= kLanesTop) {
        m_laneScroll->setValue(m_laneScroll->value() - event->angleDelta().y() / 40);
        event->accept();
        return;
    }
    const double steps = event->angleDelta().y() / 120.0;
    const double factor = std::pow(zoomFactorPerClick(), -steps);
    m_userMoved.start();
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
    m_userMoved.start();
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
