#include "views/hang_view.h"

#include "model/format.h"
#include "views/state_palette.h"
#include "views/timeline_ticks.h"

#include <QHelpEvent>
#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace faultline {

namespace {

constexpr int kLaneLabelWidth = 150;  // "rank 16383 waiting"
constexpr int kHangRulerHeight = 22;
constexpr int kLaneHeight = 18;


QString roleText(HangRole role) {
    switch (role) {
        case HangRole::Culprit: return QObject::tr("culprit");
        case HangRole::Waiting: return QObject::tr("waiting");
        case HangRole::Other: break;
    }
    return {};
}

}  // namespace

HangView::HangView(QWidget* parent) : QWidget(parent) {
    setObjectName("hangView");
    setMinimumSize(320, 160);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setFocusPolicy(Qt::WheelFocus);
    m_scroll = new QScrollBar(Qt::Vertical, this);
    m_scroll->setObjectName("hangLaneScroll");
    connect(m_scroll, &QScrollBar::valueChanged, this, [this] { update(); });
    // The culprits are drawn in the failed colour of the 3D view, whichever palette is chosen.
    connect(&StatePaletteChoice::instance(), &StatePaletteChoice::changed, this, [this] { update(); });
}

void HangView::setRun(std::shared_ptr<const Run> run, CollectiveLanes lanes, std::size_t origin) {
    m_run = std::move(run);
    m_lanes = std::move(lanes);
    m_hang = m_run ? buildHangLanes(*m_run, m_lanes, origin) : std::nullopt;
    m_laneOfRank.clear();
    m_stuckRecords.clear();
    if (m_hang) {
        for (std::size_t i = 0; i < m_hang->lanes.size(); ++i) {
            const auto rank = static_cast<std::size_t>(m_hang->lanes[i].rank);
            if (rank >= m_laneOfRank.size()) m_laneOfRank.resize(rank + 1, -1);
            m_laneOfRank[rank] = static_cast<int>(i);
        }
        for (const HangFlow& f : m_hang->flows)
            if (f.fromRecord) m_stuckRecords.push_back(*f.fromRecord);
        std::sort(m_stuckRecords.begin(), m_stuckRecords.end());
    }
    m_scroll->setValue(0);
    updateScrollRange();
    update();
}

int HangView::visibleLaneCount() const { return std::max(0, (height() - kHangRulerHeight) / kLaneHeight); }

void HangView::updateScrollRange() {
    const int lanes = m_hang ? static_cast<int>(m_hang->lanes.size()) : 0;
    m_scroll->setRange(0, std::max(0, lanes - visibleLaneCount()));
    m_scroll->setPageStep(std::max(1, visibleLaneCount()));
    m_scroll->setVisible(m_scroll->maximum() > 0);
}

void HangView::resizeEvent(QResizeEvent*) {
    m_scroll->setGeometry(width() - m_scroll->sizeHint().width(), kHangRulerHeight, m_scroll->sizeHint().width(), height() - kHangRulerHeight);
    updateScrollRange();
}

int HangView::firstVisibleLane() const { return m_scroll->value(); }
void HangView::scrollToLane(int lane) { m_scroll->setValue(lane); }

int HangView::laneOfRank(std::int32_t rank) const {
    return rank >= 0 && static_cast<std::size_t>(rank) < m_laneOfRank.size() ? m_laneOfRank[static_cast<std::size_t>(rank)] : -1;
}

QRect HangView::laneRect(int lane) const {
    const int right = m_scroll->isVisible() ? m_scroll->x() : width();
    return {0, kHangRulerHeight + (lane - firstVisibleLane()) * kLaneHeight, right, kLaneHeight};
}

double HangView::xOf(Nanos t) const {
    if (!m_hang) return kLaneLabelWidth;
    const int right = m_scroll->isVisible() ? m_scroll->x() : width();
    const double span = static_cast<double>(std::max<Nanos>(1, m_hang->viewEnd - m_hang->viewBegin));
    return kLaneLabelWidth + static_cast<double>(t - m_hang->viewBegin) / span * std::max(1, right - kLaneLabelWidth);
}

void HangView::wheelEvent(QWheelEvent* event) {
    const int lanes = event->angleDelta().y() / 40;  // three lanes a notch
    m_scroll->setValue(m_scroll->value() - lanes);
    event->accept();
}

bool HangView::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = toolTipAt(help->pos());
        if (text.isEmpty()) QToolTip::hideText();
        else QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

void HangView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (!m_run || !m_hang) {
        p.setPen(palette().text().color());
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
                   tr("No hang in this run: import the job's NCCL Flight Recorder dumps to see who hung it."));
        return;
    }
    drawRuler(p);
    drawLanes(p);
    drawFlows(p);
}

std::vector<HangView::RulerLabel> HangView::rulerLabels() const {
    std::vector<RulerLabel> labels;
    if (!m_hang || !m_run) return labels;
    const std::int64_t start = m_run->info.startEpochNs;
    const double pixelsPerNano = (xOf(m_hang->viewEnd) - xOf(m_hang->viewBegin)) / static_cast<double>(std::max<Nanos>(1, m_hang->viewEnd - m_hang->viewBegin));
    const QFontMetrics metrics = fontMetrics();
    const Nanos tick = chooseTimelineTick(pixelsPerNano, [&](Nanos step) {
        return metrics.horizontalAdvance(QString::fromStdString(timelineTickLabel(start, m_hang->viewBegin, step)));
    });
    for (Nanos t = firstTickAtOrAfter(start, m_hang->viewBegin, tick); t <= m_hang->viewEnd; t = nextTick(start, t, tick)) {
        const QString text = QString::fromStdString(timelineTickLabel(start, t, tick));
        const QRectF box(xOf(t) + 3, 14 - metrics.ascent(), metrics.horizontalAdvance(text), metrics.height());
        if (box.left() < kLaneLabelWidth || box.right() > width() - 2) continue;  // its tick line is drawn; a cut label is not
        labels.push_back({box, text});
    }
    return labels;
}

void HangView::drawRuler(QPainter& p) {
    const std::int64_t start = m_run->info.startEpochNs;
    const double pixelsPerNano = (xOf(m_hang->viewEnd) - xOf(m_hang->viewBegin)) / static_cast<double>(std::max<Nanos>(1, m_hang->viewEnd - m_hang->viewBegin));
    const QFontMetrics metrics = p.fontMetrics();
    const Nanos tick = chooseTimelineTick(pixelsPerNano, [&](Nanos step) {
        return metrics.horizontalAdvance(QString::fromStdString(timelineTickLabel(start, m_hang->viewBegin, step)));
    });
    p.setPen(palette().text().color());
    p.drawText(QRect(4, 0, kLaneLabelWidth - 8, kHangRulerHeight), Qt::AlignLeft | Qt::AlignVCenter, tr("rank"));
    p.save();
    p.setClipRect(QRect(kLaneLabelWidth, 0, width() - kLaneLabelWidth, height()));
    p.setPen(palette().mid().color());
    for (Nanos t = firstTickAtOrAfter(start, m_hang->viewBegin, tick); t <= m_hang->viewEnd; t = nextTick(start, t, tick))
        p.drawLine(QPointF(xOf(t), kHangRulerHeight - 4), QPointF(xOf(t), height()));
    p.setPen(palette().text().color());
    for (const RulerLabel& label : rulerLabels()) p.drawText(QPointF(label.box.left(), 14), label.text);
    // When the first rank entered the collective the culprits never joined.
    const Rgb failed = activeStatePalette().failed;
    const double x = xOf(m_hang->hangBegin);
    p.setPen(QPen(qColour(failed), 2, Qt::DashLine));
    p.drawLine(QPointF(x, kHangRulerHeight), QPointF(x, height()));
    p.restore();
}

void HangView::drawLanes(QPainter& p) {
    const Rgb failed = activeStatePalette().failed;
    const Rgb down = activeStatePalette().down;
    const int first = firstVisibleLane();
    const int last = std::min<int>(static_cast<int>(m_hang->lanes.size()), first + visibleLaneCount() + 1);
    const int plotRight = m_scroll->isVisible() ? m_scroll->x() : width();
    const int plotWidth = std::max(1, plotRight - kLaneLabelWidth);
    // Thousands of collectives on screen: painted as pixel runs into one image, not box by box.
    QImage boxes(plotWidth, std::max(1, (last - first) * kLaneHeight), QImage::Format_ARGB32_Premultiplied);
    boxes.fill(Qt::transparent);
    const QRgb box = palette().highlight().color().rgba();
    std::vector<QRectF> stuck;
    QFont bold = p.font();
    bold.setBold(true);
    const QFont normal = p.font();
    for (int lane = first; lane < last; ++lane) {
        const HangLane& hl = m_hang->lanes[static_cast<std::size_t>(lane)];
        const QRect r = laneRect(lane);
        const bool culprit = hl.role == HangRole::Culprit;
        if (culprit) {
            QColor tint = qColour(failed);
            tint.setAlpha(40);  // the culprit's whole lane, so it is found at a glance
            p.fillRect(QRect(0, r.top(), r.width(), r.height()), tint);
        } else if (lane % 2) {
            p.fillRect(QRect(0, r.top(), r.width(), r.height()), palette().alternateBase());
        }
        p.setFont(culprit ? bold : normal);
        p.setPen(culprit ? qColour(failed) : palette().text().color());
        const QString role = roleText(hl.role);
        p.drawText(QRect(4, r.top(), kLaneLabelWidth - 8, r.height()), Qt::AlignLeft | Qt::AlignVCenter,
                   role.isEmpty() ? tr("rank %1").arg(hl.rank) : tr("rank %1  %2").arg(hl.rank).arg(role));
        if (culprit) {
            const auto waiting = std::count_if(m_hang->flows.begin(), m_hang->flows.end(), [&](const HangFlow& f) { return f.to == hl.rank; });
            p.drawText(QRect(kLaneLabelWidth, r.top(), r.width() - kLaneLabelWidth - 6, r.height()), Qt::AlignRight | Qt::AlignVCenter,
                       waiting == 1 ? tr("1 rank waits for it") : tr("%1 ranks wait for it").arg(QString::fromStdString(formatCount(waiting))));
        }
        if (hl.lane == SIZE_MAX) continue;
        const CollectiveLane& l = m_lanes.lanes[hl.lane];
        // This rank's records are in time order; none runs longer than a day.
        auto it = std::partition_point(m_lanes.records.begin() + static_cast<std::ptrdiff_t>(l.begin),
                                       m_lanes.records.begin() + static_cast<std::ptrdiff_t>(l.end),
                                       [&](std::uint32_t i) { return m_run->collectives[i].enter < m_hang->viewBegin - kDay; });
        const auto end = m_lanes.records.begin() + static_cast<std::ptrdiff_t>(l.end);
        const int top = (lane - first) * kLaneHeight + 3, bottom = (lane - first + 1) * kLaneHeight - 3;
        for (; it != end; ++it) {
            const CollectiveRecord& c = m_run->collectives[*it];
            if (c.enter > m_hang->viewEnd) break;
            if (c.exit < m_hang->viewBegin) continue;
            const double x0 = xOf(c.enter) - kLaneLabelWidth;
            const int from = std::clamp(static_cast<int>(x0), 0, plotWidth);
            const int to = std::clamp(std::max(static_cast<int>(std::ceil(xOf(c.exit) - kLaneLabelWidth)), from + 2), 0, plotWidth);
            for (int y = top; y < bottom; ++y) std::fill_n(reinterpret_cast<QRgb*>(boxes.scanLine(y)) + from, to - from, box);
            // Entered and never left: it waits from here to the end of what the dumps saw.
            if (isStuck(*it)) stuck.emplace_back(kLaneLabelWidth + x0, r.top() + 3, xOf(m_hang->viewEnd) - kLaneLabelWidth - x0, r.height() - 6);
        }
    }
    p.drawImage(kLaneLabelWidth, kHangRulerHeight, boxes);
    p.setPen(QPen(qColour(down), 1));
    for (const QRectF& s : stuck) {
        p.fillRect(s, QBrush(qColour(down), Qt::BDiagPattern));
        p.drawRect(s);
    }
    p.setFont(normal);
}

void HangView::drawFlows(QPainter& p) {
    const Rgb failed = activeStatePalette().failed;
    const QColor colour = qColour(failed);
    p.save();
    p.setClipRect(QRect(kLaneLabelWidth, kHangRulerHeight, width() - kLaneLabelWidth, height() - kHangRulerHeight));
    p.setRenderHint(QPainter::Antialiasing);
    const int first = firstVisibleLane(), last = first + visibleLaneCount();
    for (const HangFlow& f : m_hang->flows) {
        if (!f.fromRecord || !f.toRecord) continue;
        // Drawn from the waiting ranks on screen: thousands of ranks waiting for one culprit
        // would otherwise draw thousands of arrows into its lane (the lane says how many wait).
        const int from = laneOfRank(f.from), to = laneOfRank(f.to);
        if (from < first || from > last) continue;
        const CollectiveRecord& stuck = m_run->collectives[*f.fromRecord];
        const CollectiveRecord& joined = m_run->collectives[*f.toRecord];
        const QPointF a(xOf(stuck.enter), laneRect(from).center().y());
        const QPointF b(xOf(joined.exit) + 2, laneRect(to).center().y());
        QPainterPath path(a);
        path.cubicTo(QPointF(a.x() - 40, a.y()), QPointF(b.x() + 40, b.y()), b);
        p.setPen(QPen(colour, 1.5));
        p.setBrush(Qt::NoBrush);
        p.drawPath(path);
        // The head points at the culprit (the curve arrives from the right): the rank this one waits for.
        const QPointF left = b + QPointF(8, -4), right = b + QPointF(8, 4);
        p.setBrush(colour);
        p.drawPolygon(QPolygonF({b, left, right}));
    }
    p.restore();
}

std::optional<std::size_t> HangView::recordAt(int lane, const QPoint& pos) const {
    if (!m_hang || lane < 0 || lane >= static_cast<int>(m_hang->lanes.size())) return std::nullopt;
    const HangLane& hl = m_hang->lanes[static_cast<std::size_t>(lane)];
    if (hl.lane == SIZE_MAX) return std::nullopt;
    const CollectiveLane& l = m_lanes.lanes[hl.lane];
    std::optional<std::size_t> best;
    for (std::size_t i = l.begin; i < l.end; ++i) {
        const std::size_t index = m_lanes.records[i];
        const CollectiveRecord& c = m_run->collectives[index];
        const double x0 = xOf(c.enter), x1 = std::max(xOf(c.exit), x0 + 2);
        if (pos.x() >= x0 - 1 && pos.x() <= x1 + 1) best = index;
    }
    return best;
}

QString HangView::toolTipAt(const QPoint& pos) const {
    if (!m_hang || pos.y() < kHangRulerHeight) return {};
    const int lane = firstVisibleLane() + (pos.y() - kHangRulerHeight) / kLaneHeight;
    if (lane >= static_cast<int>(m_hang->lanes.size())) return {};
    const HangLane& hl = m_hang->lanes[static_cast<std::size_t>(lane)];
    QString who = tr("rank %1").arg(hl.rank);
    if (hl.rank >= 0 && static_cast<std::size_t>(hl.rank) < m_run->rankToGpu.size())
        who += tr(" on %1").arg(QString::fromStdString(m_run->topology.gpuName(m_run->rankToGpu[static_cast<std::size_t>(hl.rank)])));
    if (hl.role == HangRole::Culprit) who += tr(": the culprit, it never joined the collective the others wait in");
    if (hl.role == HangRole::Waiting) who += tr(": waiting for the culprit");
    if (pos.x() < kLaneLabelWidth) return who;
    const std::optional<std::size_t> record = recordAt(lane, pos);
    if (!record) return who;
    const CollectiveRecord& c = m_run->collectives[*record];
    const ProcessGroup& g = m_run->processGroups[static_cast<std::size_t>(c.group)];
    QString text = who + "\n" + tr("%1 #%2 in process group %3, entered %4")
                                    .arg(QString::fromStdString(m_run->collectiveOps[static_cast<std::size_t>(c.op)]))
                                    .arg(c.seq)
                                    .arg(QString::fromStdString(g.name))
                                    .arg(QString::fromStdString(formatWallTime(m_run->info.startEpochNs, c.enter)));
    text += isStuck(*record) ? tr(", never completed: stuck here") : tr(", took %1").arg(QString::fromStdString(formatShortDuration(c.exit - c.enter)));
    return text;
}

}  // namespace faultline
