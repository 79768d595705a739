#include "charts_view.h"

#include "analysis/goodput.h"
#include "analysis/summary.h"
#include "time_chart_view.h"
#include "widgets/heat_map.h"

#include <QGridLayout>
#include <QLabel>
#include <QToolTip>
#include <QVBoxLayout>
#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSet>
#include <QtCharts/QHorizontalBarSeries>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QStackedBarSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>

namespace faultline {

namespace {

double days(Nanos t) { return static_cast<double>(t) / static_cast<double>(kDay); }
double hours(Nanos t) { return static_cast<double>(t) / static_cast<double>(kHour); }
QString q(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

void clearChart(QChart* chart) {
    chart->removeAllSeries();
    for (QAbstractAxis* axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
}

}  // namespace

ChartsView::ChartsView(QWidget* parent)
    : QWidget(parent),
      m_ettr(new TimeChartView(tr("Effective training time (%)"), tr("%"), this)),
      m_ettrDaily(new QLineSeries(this)),
      m_ettrCumulative(new QLineSeries(this)),
      m_causes(new QChartView(new QChart, this)),
      m_stepTime(new TimeChartView(tr("Step time"), tr("s"), this)),
      m_stepSeries(new QLineSeries(this)),
      m_stragglerMarks(new QScatterSeries(this)),
      m_waterfall(new QChartView(new QChart, this)),
      m_heatMap(new HeatMap(this)) {
    setObjectName("chartsView");
    m_ettr->setObjectName("ettrChart");
    m_stepTime->setObjectName("stepTimeChart");
    m_ettrDaily->setName(tr("per day"));
    m_ettrDaily->setObjectName("ettrDaily");
    m_ettrCumulative->setName(tr("cumulative"));
    m_ettrCumulative->setObjectName("ettrCumulative");
    m_ettr->addTimeSeries(m_ettrDaily, "%");
    m_ettr->addTimeSeries(m_ettrCumulative, "%");
    m_stepSeries->setName(tr("mean step time"));
    m_stepSeries->setObjectName("stepTime");
    m_stragglerMarks->setName(tr("straggler episode begins"));
    m_stragglerMarks->setObjectName("stragglerMarks");
    m_stragglerMarks->setMarkerSize(7);
    m_stragglerMarks->setColor(QColor(230, 120, 0));
    m_stepTime->addTimeSeries(m_stepSeries, "s");
    m_stepTime->addTimeSeries(m_stragglerMarks, "s");
    m_causes->setObjectName("causesChart");
    m_causes->chart()->setTitle(tr("Interruptions by root cause"));
    m_causes->chart()->legend()->hide();
    m_waterfall->setObjectName("waterfallChart");
    m_waterfall->chart()->setTitle(tr("Where the downtime went (hours)"));
    m_waterfall->chart()->legend()->hide();
    m_heatMap->setObjectName("stragglerHeatMap");
    for (QChartView* v : {static_cast<QChartView*>(m_ettr), m_causes, static_cast<QChartView*>(m_stepTime), m_waterfall}) {
        v->setRenderHint(QPainter::Antialiasing);
        v->setMinimumSize(200, 130);
    }
    connect(m_ettr, &TimeChartView::timeClicked, this, &ChartsView::timeRequested);
    connect(m_stepTime, &TimeChartView::timeClicked, this, &ChartsView::timeRequested);
    connect(m_heatMap, &HeatMap::columnClicked, this, [this](int column) {
        emit timeRequested(m_stragglers.traceBegin + m_stragglers.windowLength * column + m_stragglers.windowLength / 2);
    });

    auto* heatBox = new QWidget(this);
    auto* heatLayout = new QVBoxLayout(heatBox);
    heatLayout->setContentsMargins(0, 0, 0, 0);
    auto* heatTitle = new QLabel(tr("Straggler score by rank over the traced window"), heatBox);
    heatTitle->setAlignment(Qt::AlignCenter);
    heatLayout->addWidget(heatTitle);
    heatLayout->addWidget(m_heatMap, 1);

    auto* grid = new QGridLayout(this);
    grid->addWidget(m_ettr, 0, 0);
    grid->addWidget(m_causes, 0, 1, 2, 1);  // eighteen causes need the height
    grid->addWidget(m_stepTime, 1, 0);
    grid->addWidget(m_waterfall, 2, 0);
    grid->addWidget(heatBox, 2, 1);
    for (int row = 0; row < 3; ++row) grid->setRowStretch(row, 1);
}

void ChartsView::setRun(std::shared_ptr<const Run> run) {
    RunSummary summary = run ? summarize(*run) : RunSummary{};
    StragglerReport stragglers = run ? analyzeStragglers(*run) : StragglerReport{};
    setRun(std::move(run), std::move(summary), std::move(stragglers));
}

void ChartsView::setRun(std::shared_ptr<const Run> run, RunSummary summary, StragglerReport stragglers) {
    m_run = std::move(run);
    m_summary = std::move(summary);
    m_stragglers = std::move(stragglers);
    fillEttr();
    fillCauses();
    fillStepTime();
    fillWaterfall();
    fillHeatMap();
    setTime(0);
}

void ChartsView::setTime(Nanos t) {
    m_ettr->setCursor(t);
    m_stepTime->setCursor(t);
    const bool traced = m_stragglers.windowLength > 0 && t >= m_stragglers.traceBegin;
    m_heatMap->setMarkerColumn(traced ? static_cast<int>((t - m_stragglers.traceBegin) / m_stragglers.windowLength) : -1);
}

void ChartsView::fillEttr() {
    QList<QPointF> daily, cumulative;
    if (m_run) {
        const GoodputLedger& ledger = m_summary.ledger;
        Nanos length = 0, kept = 0;
        for (const GoodputPeriod& d : ledger.days) {
            daily.append({days(d.begin + d.end) / 2.0, d.ettr() * 100.0});
            length += d.end - d.begin;
            kept += d.productive + d.badput.stragglerSlowdown;
            cumulative.append({days(d.end), 100.0 * static_cast<double>(kept) / static_cast<double>(std::max<Nanos>(1, length))});
        }
    }
    m_ettrDaily->replace(daily);
    m_ettrCumulative->replace(cumulative);
    double low = 100;
    for (const QPointF& p : daily) low = std::min(low, p.y());
    m_ettr->setRange(m_run ? m_run->info.duration : kDay, std::max(0.0, std::floor(low / 5.0) * 5.0 - 5.0), 100.0);
}

void ChartsView::fillCauses() {
    QChart* chart = m_causes->chart();
    clearChart(chart);
    if (!m_run) return;
    const RunSummary& summary = m_summary;
    auto* set = new QBarSet(tr("interruptions"));
    set->setObjectName("causeCounts");
    QStringList labels;
    // Bottom to top in a horizontal bar chart, so the table's first row ends up on top.
    for (auto it = llama3Causes().rbegin(); it != llama3Causes().rend(); ++it) {
        int count = 0;
        for (const CauseCount& c : summary.causes)
            if (c.cause == *it) count = c.count;
        labels << q(rootCauseLabel(*it));
        *set << count;
    }
    auto* series = new QHorizontalBarSeries;
    series->append(set);
    chart->addSeries(series);
    auto* axisY = new QBarCategoryAxis;
    axisY->append(labels);
    QFont small = axisY->labelsFont();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    axisY->setLabelsFont(small);
    axisY->setTruncateLabels(false);  // a cause's name matters more than a tidy margin
    auto* axisX = new QValueAxis;
    axisX->setLabelFormat("%d");
    chart->addAxis(axisY, Qt::AlignLeft);
    chart->addAxis(axisX, Qt::AlignBottom);
    series->attachAxis(axisY);
    series->attachAxis(axisX);
    connect(set, &QBarSet::hovered, this, [set, labels](bool state, int index) {
        if (state) QToolTip::showText(QCursor::pos(), QString("%1: %2").arg(labels.value(index)).arg(set->at(index)));
    });
}

void ChartsView::fillStepTime() {
    QList<QPointF> points, marks;
    double high = 1.0, low = 1e18;
    if (m_run && !m_run->steps.empty()) {
        // Mean step time in ~1,500 buckets: a point per pixel or so at any window size.
        const Nanos duration = std::max<Nanos>(1, m_run->info.duration);
        const Nanos bucket = std::max<Nanos>(1, duration / 1'500);
        Nanos sum = 0, at = -1;
        int n = 0;
        auto flush = [&] {
            if (n == 0) return;
            const double seconds = toSeconds(sum / n);
            points.append({days(at * bucket + bucket / 2), seconds});
            high = std::max(high, seconds);
            low = std::min(low, seconds);
        };
        for (const Step& s : m_run->steps) {
            const Nanos b = s.time / bucket;
            if (b != at) {
                flush();
                at = b;
                sum = 0;
                n = 0;
            }
            sum += s.duration;
            ++n;
        }
        flush();
        for (const StragglerEpisode& e : m_run->stragglers) {
            auto step = std::lower_bound(m_run->steps.begin(), m_run->steps.end(), e.begin, [](const Step& s, Nanos t) { return s.time < t; });
            if (step != m_run->steps.end()) marks.append({days(e.begin), toSeconds(step->duration)});
        }
    }
    m_stepSeries->replace(points);
    m_stragglerMarks->replace(marks);
    for (const QPointF& p : marks) high = std::max(high, p.y());
    if (low > high) low = 0;
    m_stepTime->setRange(m_run ? m_run->info.duration : kDay, std::max(0.0, low * 0.95), high * 1.05);
}

void ChartsView::fillWaterfall() {
    QChart* chart = m_waterfall->chart();
    clearChart(chart);
    if (!m_run) return;
    const Badput& b = m_summary.ledger.whole.badput;
    const std::vector<std::pair<QString, Nanos>> parts = {
        {tr("Detection"), b.detection}, {tr("Restart"), b.restart}, {tr("Reload"), b.reload}, {tr("Lost work"), b.lostWork}};
    // A waterfall: each bar floats on the sum of those before it; the last is the total.
    auto* base = new QBarSet("base");
    base->setColor(Qt::transparent);
    base->setBorderColor(Qt::transparent);
    auto* value = new QBarSet(tr("hours"));
    value->setObjectName("waterfallValues");
    QStringList labels;
    double running = 0;
    for (const auto& [label, nanos] : parts) {
        labels << label;
        *base << running;
        *value << hours(nanos);
        running += hours(nanos);
    }
    labels << tr("Total");
    *base << 0;
    *value << running;
    auto* series = new QStackedBarSeries;
    series->append(base);
    series->append(value);
    chart->addSeries(series);
    auto* axisX = new QBarCategoryAxis;
    axisX->append(labels);
    auto* axisY = new QValueAxis;
    axisY->setRange(0, std::max(1.0, running * 1.1));
    chart->addAxis(axisX, Qt::AlignBottom);
    chart->addAxis(axisY, Qt::AlignLeft);
    series->attachAxis(axisX);
    series->attachAxis(axisY);
    connect(value, &QBarSet::hovered, this, [value, labels](bool state, int index) {
        if (state) QToolTip::showText(QCursor::pos(), QString("%1: %2 h").arg(labels.value(index)).arg(value->at(index), 0, 'f', 1));
    });
}

void ChartsView::fillHeatMap() {
    std::vector<std::vector<double>> rows;
    QStringList labels;
    // The ranks that were ever late, worst first, then enough others to compare with.
    for (const RankStragglerScore& r : m_stragglers.ranks) {
        if (rows.size() >= 64) break;
        rows.push_back(r.timeline);
        labels << QString("rank %1").arg(r.rank);
    }
    m_heatMap->setData(std::move(rows), labels);
}

}  // namespace faultline
