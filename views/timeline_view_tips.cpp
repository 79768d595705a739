// The timeline explains itself: the legend along the bottom and the tooltip of whatever is
// under the mouse (a downtime, a failure, a checkpoint, a rank's collective, the ruler).
#include "views/timeline_view.h"
#include "views/state_palette.h"
#include "views/timeline_geometry.h"
#include "analysis/hang_lanes.h"

#include "model/format.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace faultline {

using namespace timeline_geometry;

namespace {

struct LegendItem {
    QColor colour;
    QString label;
    QString meaning;
    bool marker = false;  // a triangle (failures) rather than a swatch
};

std::vector<LegendItem> legendItems(const StatePalette& states, const QColor& cursor) {
    const TimelineColours& c = states.timeline;
    return {
        {qColour(c.training), QObject::tr("training"), QObject::tr("The job was training")},
        {qColour(c.gpuCause), QObject::tr("GPU"), QObject::tr("Downtime caused by a GPU fault")},
        {qColour(c.hostCause), QObject::tr("host"), QObject::tr("Downtime caused by a host fault (memory, power, OS)")},
        {qColour(c.networkCause), QObject::tr("network"), QObject::tr("Downtime caused by a NIC, cable or switch")},
        {qColour(c.softwareCause), QObject::tr("software"), QObject::tr("Downtime caused by software")},
        {qColour(c.planned), QObject::tr("planned"), QObject::tr("Planned maintenance")},
        {qColour(c.lostWork), QObject::tr("lost work"), QObject::tr("Work since the last checkpoint, lost and redone")},
        {qColour(states.failed), QObject::tr("failure"), QObject::tr("A failure's first symptom"), true},
        {qColour(states.checkpointing), QObject::tr("ckpt save"), QObject::tr("Checkpoint saved")},
        {qColour(c.checkpointLoad), QObject::tr("ckpt load"), QObject::tr("Checkpoint loaded after a restart")},
        {qColour(c.collective), QObject::tr("collective"), QObject::tr("A rank inside a collective (rank lanes, zoomed into a trace)")},
        {cursor, QObject::tr("now"), QObject::tr("The replay's instant")},
    };
}

// Where each legend item sits, left to right.
std::vector<QRect> legendLayout(const std::vector<LegendItem>& items, const QFontMetrics& metrics, const QRect& strip) {
    std::vector<QRect> out;
    int x = strip.left() + kLabelWidth;
    for (const LegendItem& item : items) {
        const int w = 14 + metrics.horizontalAdvance(item.label) + 12;
        out.emplace_back(x, strip.top(), w, strip.height());
        x += w;
    }
    return out;
}

// The wall time, to the millisecond (or microsecond) when the view is that close.
QString wallTime(const Run& run, Nanos span, Nanos t) {
    QString text = QString::fromStdString(formatWallTime(run.info.startEpochNs, t));
    if (span >= kMinute) return text;
    const std::int64_t sub = ((run.info.startEpochNs + t) % kSecond + kSecond) % kSecond;
    const QString fraction = span < 10 * kMillisecond ? QString(".%1").arg(sub / kMicrosecond, 6, 10, QChar('0'))
                                                      : QString(".%1").arg(sub / kMillisecond, 3, 10, QChar('0'));
    return text.replace(" UTC", fraction + " UTC");
}

QString causeText(RootCause cause) {
    const std::string_view label = rootCauseLabel(cause);
    return QString::fromUtf8(label.data(), static_cast<qsizetype>(label.size()));
}

QString shortDuration(Nanos d) { return QString::fromStdString(formatShortDuration(d)); }

}  // namespace

bool TimelineView::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = toolTipAt(help->pos());
        if (text.isEmpty()) {
            QToolTip::hideText();
            event->ignore();
        } else {
            QToolTip::showText(help->globalPos(), text, this);
        }
        return true;
    }
    return QWidget::event(event);
}

void TimelineView::drawLegend(QPainter& p) {
    const QRect strip = legendRect();
    p.fillRect(strip, palette().window());
    const auto items = legendItems(activeStatePalette(), nowColour());
    const auto rects = legendLayout(items, p.fontMetrics(), strip);
    p.setPen(palette().text().color());
    p.drawText(QRect(0, strip.top(), kLabelWidth - 4, strip.height()), Qt::AlignRight | Qt::AlignVCenter, tr("legend"));
    for (std::size_t i = 0; i < items.size(); ++i) {
        const QRect& r = rects[i];
        if (r.right() > strip.right()) break;
        const QRect swatch(r.left(), r.center().y() - 5, 10, 10);
        if (items[i].marker) {
            p.setPen(Qt::NoPen);
            p.setBrush(items[i].colour);
            const QPointF tri[3] = {{swatch.left() + 0.0, swatch.top() + 1.0}, {swatch.right() + 1.0, swatch.top() + 1.0}, {swatch.center().x() + 0.5, swatch.bottom() + 1.0}};
            p.drawPolygon(tri, 3);
            p.setBrush(Qt::NoBrush);
        } else if (i + 1 == items.size()) {
            p.setPen(QPen(items[i].colour, 2));
            p.drawLine(swatch.center().x(), swatch.top(), swatch.center().x(), swatch.bottom());
        } else {
            p.fillRect(swatch, items[i].colour);
        }
        p.setPen(palette().text().color());
        p.drawText(QRect(r.left() + 14, r.top(), r.width() - 14, r.height()), Qt::AlignLeft | Qt::AlignVCenter, items[i].label);
    }
}

std::vector<std::pair<QString, QColor>> TimelineView::legendColours() const {
    std::vector<std::pair<QString, QColor>> out;
    for (const LegendItem& item : legendItems(activeStatePalette(), nowColour())) out.emplace_back(item.label, item.colour);
    return out;
}

// The replay's instant in the text's colour: the theme's highlight is a blue among the blues.
QColor TimelineView::nowColour() const { return palette().text().color(); }

QString TimelineView::describeLegend(const QPoint& pos) const {
    const auto items = legendItems(activeStatePalette(), nowColour());
    const auto rects = legendLayout(items, fontMetrics(), legendRect());
    for (std::size_t i = 0; i < items.size(); ++i)
        if (rects[i].contains(pos)) return items[i].label + ": " + items[i].meaning;
    return tr("Legend: what each mark on the timeline is");
}

QString TimelineView::toolTipAt(const QPoint& pos) const {
    if (!m_run) return {};
    if (legendRect().contains(pos)) return describeLegend(pos);
    if (pos.x() < kLabelWidth) return {};
    const Nanos t = timeAt(pos.x());
    const QString when = wallTime(*m_run, m_end - m_begin, t);
    if (pos.y() < kRulerHeight) {
        const auto& steps = m_run->steps;
        auto it = std::upper_bound(steps.begin(), steps.end(), t, [](Nanos v, const Step& s) { return v < s.time; });
        const QString step = it == steps.begin() ? QString() : tr("\nstep %1").arg(QString::fromStdString(formatCount(std::prev(it)->step)));
        return tr("%1 (%2 into the run)").arg(when, shortDuration(std::max<Nanos>(0, t))) + step;
    }
    if (pos.y() >= kBandTop - 6 && pos.y() < kBandTop + kBandHeight) return describeBand(t, pos.x());
    if (pos.y() >= kCheckpointTop - 2 && pos.y() < kCheckpointTop + kCheckpointHeight + 2) {
        const Nanos slack = static_cast<Nanos>(3.0 * static_cast<double>(m_end - m_begin) / std::max(1, width() - kLabelWidth));
        for (const Checkpoint& c : m_run->checkpoints) {
            if (c.begin > t + slack) break;
            if (c.end + slack < t) continue;
            const bool save = c.kind == CheckpointKind::Save;
            QString text = (save ? tr("Checkpoint save of step %1") : tr("Checkpoint load of step %1")).arg(QString::fromStdString(formatCount(c.step)));
            text += tr("\n%1, took %2").arg(wallTime(*m_run, m_end - m_begin, c.begin), shortDuration(c.end - c.begin));
            if (c.bytes > 0) text += tr(", %1").arg(QString::fromStdString(formatBytes(c.bytes)));
            return text;
        }
        return tr("No checkpoint at %1").arg(when);
    }
    if (showsRankLanes())
        for (int lane = firstVisibleLane(); lane < firstVisibleLane() + visibleLaneCount(); ++lane) {
            const QRect r = laneRect(lane);
            if (r.top() > pos.y()) break;
            if (r.contains(pos)) return describeLane(lane, t);
        }
    return {};
}

QString TimelineView::describeBand(Nanos t, double x) const {
    const QString start = wallTime(*m_run, m_end - m_begin, t);
    // Failure markers first: a few pixels either side count as on it.
    const Nanos slack = static_cast<Nanos>(5.0 * static_cast<double>(m_end - m_begin) / std::max(1, width() - kLabelWidth));
    const Failure* nearest = nullptr;
    for (const Failure& f : m_run->failures)
        if (std::abs(f.time - t) <= slack && (!nearest || std::abs(f.time - t) < std::abs(nearest->time - t))) nearest = &f;
    if (nearest) {
        QString text = tr("Failure: %1").arg(causeText(nearest->cause));
        if (nearest->xid) text += tr(" (Xid %1)").arg(nearest->xid);
        text += tr("\n%1").arg(wallTime(*m_run, m_end - m_begin, nearest->time));
        if (!nearest->gpus.empty()) text += tr(", %1 out").arg(QString::fromStdString(formatCounted(static_cast<std::int64_t>(nearest->gpus.size()), "GPU", "GPUs")));
        if (!nearest->detail.empty()) text += "\n" + QString::fromStdString(nearest->detail).left(300);
        return text;
    }
    const Nanos pixel = static_cast<Nanos>(static_cast<double>(m_end - m_begin) / std::max(1, width() - kLabelWidth));
    for (const Downtime& d : m_run->downtimes) {
        if (d.begin > t + pixel || d.end + pixel < t) continue;
        const QString cause = d.planned ? tr("planned maintenance") : causeText(d.cause);
        QString text = tr("Interruption: %1\n%2, down %3").arg(cause, wallTime(*m_run, m_end - m_begin, d.begin),
                                                                  shortDuration(d.end - d.begin));
        text += tr("\ndetected after %1, relaunched after %2").arg(shortDuration(d.detected - d.begin), shortDuration(d.restarted - d.begin));
        if (d.lostWork > 0) text += tr("\nlost work %1 (since the last checkpoint)").arg(shortDuration(d.lostWork));
        if (d.failure >= 0 && static_cast<std::size_t>(d.failure) < m_run->failures.size())
            text += "\n" + QString::fromStdString(m_run->failures[static_cast<std::size_t>(d.failure)].detail).left(300);
        return text;
    }
    (void)x;
    return tr("Training at %1").arg(start);
}

QString TimelineView::describeLane(int lane, Nanos t) const {
    const CollectiveLane& l = m_lanes.lanes[static_cast<std::size_t>(lane)];
    if (const std::optional<RankInHang> part = rankInHang(*m_run, l.rank); part && t >= part->begin) {
        const HangFinding& f = *part->finding;
        const QString collective = tr("%1 #%2 in process group %3").arg(QString::fromStdString(f.op)).arg(f.seq).arg(QString::fromStdString(f.processGroup));
        return part->culprit ? tr("rank %1: hung since %2, never joined %3 (the hang's culprit)").arg(l.rank).arg(wallTime(*m_run, m_end - m_begin, part->begin), collective)
                             : tr("rank %1: waiting since %2 in %3 for the hang's culprit").arg(l.rank).arg(wallTime(*m_run, m_end - m_begin, part->begin), collective);
    }
    const auto& records = m_run->collectives;
    const Nanos slack = static_cast<Nanos>(2.0 * static_cast<double>(m_end - m_begin) / std::max(1, width() - kLabelWidth));
    const auto begin = m_lanes.records.begin() + static_cast<std::ptrdiff_t>(l.begin);
    const auto end = m_lanes.records.begin() + static_cast<std::ptrdiff_t>(l.end);
    auto it = std::lower_bound(begin, end, t - slack, [&](std::uint32_t i, Nanos v) { return records[i].exit < v; });
    if (it != end && records[*it].enter <= t + slack) {
        const CollectiveRecord& c = records[*it];
        const std::string& op = m_run->collectiveOps.at(static_cast<std::size_t>(c.op));
        QString text = tr("rank %1: %2 #%3, %4").arg(l.rank).arg(QString::fromStdString(op)).arg(c.seq).arg(shortDuration(c.exit - c.enter));
        if (c.bytes > 0) text += tr(", %1").arg(QString::fromStdString(formatBytes(c.bytes)));
        text += tr("\nentered %1").arg(wallTime(*m_run, m_end - m_begin, c.enter));
        return text;
    }
    return tr("rank %1: computing (in no collective) at %2").arg(l.rank).arg(wallTime(*m_run, m_end - m_begin, t));
}

}  // namespace faultline
