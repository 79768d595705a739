#include "views/gpu_metric_chart.h"

#include "views/metric_scale.h"
#include "views/state_palette.h"

#include <QtCharts/QAreaSeries>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <cmath>

namespace faultline {

namespace {

// Points a narrow inspector chart draws usefully; raw samples beyond it read a summary level.
constexpr std::size_t kMaxPoints = 1500;

}  // namespace

GpuMetricChart::GpuMetricChart(QWidget* parent)
    : TimeChartView(QString(), QString(), parent),
      m_readings(new QLineSeries(this)),
      m_failures(new QScatterSeries(this)),
      m_stragglerTop(new QLineSeries(this)),
      m_stragglers(new QAreaSeries(m_stragglerTop)) {
    setObjectName("gpuMetricChart");
    m_readings->setObjectName("metricReadings");
    m_failures->setObjectName("metricFailures");
    m_failures->setName(tr("failure"));
    m_failures->setMarkerSize(9);
    m_failures->setBorderColor(Qt::transparent);
    m_stragglers->setObjectName("metricStragglers");
    m_stragglers->setName(tr("straggling"));
    m_stragglers->setPen(Qt::NoPen);
    // Shading first, so the readings and marks are drawn over it.
    chart()->addSeries(m_stragglers);
    m_stragglers->attachAxis(xAxis());
    m_stragglers->attachAxis(yAxis());
    addTimeSeries(m_readings, QString());
    addTimeSeries(m_failures, QString());
    for (QLegendMarker* marker : chart()->legend()->markers(m_readings)) marker->setVisible(false);  // the title names it
    // Narrow beside the 3D view: the plot gets the room, not the frame around it.
    setMinimumSize(180, 210);
    chart()->setMargins(QMargins(0, 0, 0, 0));
    chart()->setBackgroundRoundness(0);
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    for (QValueAxis* axis : {xAxis(), yAxis()}) {
        axis->setLabelsFont(small);
        axis->setTitleFont(small);
    }
    chart()->legend()->setFont(small);
    recolour();
    connect(&StatePaletteChoice::instance(), &StatePaletteChoice::changed, this, &GpuMetricChart::recolour);
    clear();
}

void GpuMetricChart::recolour() {
    const StatePalette& palette = activeStatePalette();
    m_failures->setColor(qColour(palette.failed));
    m_stragglers->setBrush(qColour(palette.stragglingLight, 110));
    m_readings->setPen(QPen(qColour(palette.metric.scale[1]), 1.5));
}

void GpuMetricChart::clear() {
    m_run = nullptr;
    m_gpu = m_metric = -1;
    m_readings->clear();
    m_failures->clear();
    m_stragglerTop->clear();
    chart()->setTitle(QString());
    setEmptyMessage(tr("No telemetry"));
}

void GpuMetricChart::showReadings(const Run* run, std::int32_t gpu, std::int32_t metric) {
    const Telemetry& tm = run->telemetry;
    m_run = run, m_gpu = gpu, m_metric = metric;
    const std::string& name = tm.metrics.at(static_cast<std::size_t>(metric));
    const MetricScale scale = metricScale(name, std::nan(""), std::nan(""));
    chart()->setTitle(QString::fromStdString(scale.title));
    yAxis()->setTitleText(QString::fromStdString(scale.unit));
    m_readings->setName(QString::fromStdString(std::string(metricInfo(name).label)));  // its tooltip's lines say what they read
    setSeriesUnit(m_readings, QString::fromStdString(scale.unit));

    // The readings: raw samples when kept and few enough, else the finest level that fits.
    // This GPU's series alone: a run file reads its rows, not a level of every GPU.
    std::vector<std::pair<Nanos, float>> samples;
    const std::vector<TelemetryRawSeries> raw = tm.hasRawSeries() ? tm.rawSeriesOf(metric, {gpu}) : std::vector<TelemetryRawSeries>{};
    if (!raw.empty() && raw.front().times.size() <= kMaxPoints) {
        for (std::size_t k = 0; k < raw.front().times.size(); ++k) samples.push_back({raw.front().times[k], raw.front().values[k]});
    } else {
        for (std::size_t l = 0; l < tm.levels.size(); ++l) {
            const Nanos bucket = tm.levels[l].bucket;
            const std::vector<TelemetrySummarySeries> series = tm.levelSeries(l, metric, {gpu});
            if (series.empty() || (series.front().buckets.size() > kMaxPoints && l + 1 != tm.levels.size())) continue;
            // Buckets are in epoch time; each mean drawn at its bucket's middle.
            const TelemetrySummarySeries& s = series.front();
            for (std::size_t k = 0; k < s.buckets.size(); ++k) samples.push_back({s.buckets[k] * bucket + bucket / 2 - run->info.startEpochNs, s.mean[k]});
            break;
        }
    }
    std::vector<Nanos> failureTimes;
    for (const Failure& f : run->failures)
        if (std::find(f.gpus.begin(), f.gpus.end(), gpu) != f.gpus.end()) failureTimes.push_back(f.time);
    std::vector<std::pair<Nanos, Nanos>> episodes;
    for (const StragglerEpisode& e : run->stragglers)
        if (e.gpu == gpu) episodes.push_back({e.begin, e.end});
    if (samples.empty()) {
        m_readings->clear();
        m_failures->clear();
        m_stragglerTop->clear();
        setEmptyMessage(tr("No %1 readings for this GPU").arg(QString::fromStdString(std::string(metricInfo(name).label))));
        return;
    }
    // The window: the readings and this GPU's events, a little margin either side.
    Nanos first = samples.front().first, last = samples.back().first;
    for (Nanos t : failureTimes) first = std::min(first, t), last = std::max(last, t);
    for (const auto& [b, e] : episodes) first = std::min(first, b), last = std::max(last, e);
    const Nanos margin = std::max<Nanos>(kSecond, (last - first) / 20);
    const Nanos from = std::max<Nanos>(0, first - margin), to = std::min(run->info.duration, last + margin);
    setTimeScale(std::max(to, from + kSecond) - from);  // the unit toX converts to
    QList<QPointF> points;
    double lo = samples.front().second, hi = lo;
    for (const auto& [t, v] : samples) {
        points.append({toX(t), v});
        lo = std::min<double>(lo, v), hi = std::max<double>(hi, v);
    }
    const double pad = std::max(1e-6, (hi - lo) * 0.08);
    const double yMin = lo >= 0 && lo - pad < 0 ? 0 : lo - pad, yMax = hi + pad;
    m_readings->replace(points);
    // A failure at the reading then (the newest at or before it), on the line where the eye is.
    QList<QPointF> marks;
    for (Nanos t : failureTimes) {
        const double x = toX(t);
        const auto after = std::upper_bound(points.begin(), points.end(), x, [](double v, const QPointF& p) { return v < p.x(); });
        marks.append({x, after == points.begin() ? yMin : std::prev(after)->y()});
    }
    m_failures->replace(marks);
    QList<QPointF> band;
    for (const auto& [b, e] : episodes) band << QPointF(toX(b), yMin) << QPointF(toX(b), yMax) << QPointF(toX(e), yMax) << QPointF(toX(e), yMin);
    m_stragglerTop->replace(band);
    setRange(from, std::max(to, from + kSecond), yMin, yMax);
    // The legend keys only the marks this GPU has.
    for (QAbstractSeries* series : {static_cast<QAbstractSeries*>(m_failures), static_cast<QAbstractSeries*>(m_stragglers)})
        for (QLegendMarker* marker : chart()->legend()->markers(series)) marker->setVisible(series == m_failures ? !marks.isEmpty() : !band.isEmpty());
    chart()->legend()->setVisible(!marks.isEmpty() || !band.isEmpty());
    setEmptyMessage(QString());
}

}  // namespace faultline
