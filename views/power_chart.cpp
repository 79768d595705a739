#include "views/power_chart.h"

#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>

namespace faultline {

namespace {
// The height of the checkpoint saves' row, a share of the axis: under the idle level (72 W of
// 700 is a tenth of the peak), clear of the axis line.
constexpr double kCheckpointRow = 0.04;
}  // namespace

PowerChart::PowerChart(QWidget* parent)
    : TimeChartView(tr("Cluster power draw"), tr("MW"), parent),
      m_curve(new QLineSeries(this)),
      m_failures(new QScatterSeries(this)),
      m_restarts(new QScatterSeries(this)),
      m_checkpoints(new QScatterSeries(this)) {
    setObjectName("powerChart");
    m_curve->setName(tr("draw"));  // short, beside three marks in a narrow dock
    m_curve->setObjectName("powerCurve");
    m_failures->setName(tr("failures"));
    m_failures->setObjectName("powerFailures");
    m_restarts->setName(tr("restarts"));
    m_restarts->setObjectName("powerRestarts");
    m_checkpoints->setName(tr("saves"));  // checkpoint saves: short, for a narrow dock
    m_checkpoints->setObjectName("powerCheckpoints");
    // The marks in the colours a reader already knows from the hall: red fails, green comes back.
    m_failures->setColor(QColor(0xd6, 0x27, 0x28));
    m_restarts->setColor(QColor(0x2c, 0xa0, 0x2c));
    m_checkpoints->setColor(QColor(0x94, 0x67, 0xbd));
    for (QScatterSeries* s : {m_failures, m_restarts, m_checkpoints}) {
        s->setMarkerSize(7);
        s->setBorderColor(Qt::transparent);
    }
    m_checkpoints->setMarkerSize(4);
    addTimeSeries(m_curve, "MW");
    addTimeSeries(m_checkpoints, "MW");
    addTimeSeries(m_restarts, "MW");
    addTimeSeries(m_failures, "MW");
    setRun(nullptr);
}

void PowerChart::setRun(const Run* run) {
    m_power = run ? clusterPower(*run) : ClusterPower{};
    const Nanos duration = run ? std::max<Nanos>(1, run->info.duration) : kDay;
    setTimeScale(duration);
    const bool kilowatts = m_power.peakMegawatts < 1;
    const double scale = kilowatts ? 1000 : 1;
    const QString unit = kilowatts ? tr("kW") : tr("MW");
    QList<QPointF> curve;
    // A line per change: the draw holds between points (a bucket's sum, or the model's level).
    for (std::size_t i = 0; i < m_power.curve.size(); ++i) {
        const PowerPoint& p = m_power.curve[i];
        curve.append({toX(p.time), p.megawatts * scale});
        if (m_power.fromTelemetry && i + 1 < m_power.curve.size()) curve.append({toX(m_power.curve[i + 1].time), p.megawatts * scale});
    }
    auto drawAt = [&](Nanos t) {
        double mw = m_power.curve.empty() ? 0 : m_power.curve.front().megawatts;
        for (const PowerPoint& p : m_power.curve) {
            if (p.time > t) break;
            mw = p.megawatts;
        }
        return mw * scale;
    };
    // Failures and restarts on the curve where they struck; checkpoint saves (hundreds of
    // them, at the training level) in a row along the chart's foot, where they once hid the
    // curve's top.
    const double top = std::max(1e-9, m_power.peakMegawatts * scale * 1.1);
    QList<QPointF> failures, restarts, checkpoints;
    for (const PowerMark& m : m_power.marks) {
        if (m.kind == "checkpoint") checkpoints.append({toX(m.time), top * kCheckpointRow});
        else (m.kind == "failure" ? failures : restarts).append({toX(m.time), drawAt(m.time)});
    }
    m_curve->replace(curve);
    m_failures->replace(failures);
    m_restarts->replace(restarts);
    m_checkpoints->replace(checkpoints);
    for (QXYSeries* s : {static_cast<QXYSeries*>(m_curve), static_cast<QXYSeries*>(m_failures), static_cast<QXYSeries*>(m_restarts),
                         static_cast<QXYSeries*>(m_checkpoints)})
        setSeriesUnit(s, unit);
    yAxis()->setTitleText(unit);
    setRange(duration, 0, top);
    setEmptyMessage(!run ? tr("No run") : QString());
    setToolTip(QString::fromStdString(m_power.source));
}

}  // namespace faultline
