#include "views/charts_view.h"
#include "widgets/qt_text.h"

#include "views/chart_palette.h"
#include "views/power_chart.h"
#include "views/state_palette.h"

#include "analysis/goodput.h"
#include "analysis/summary.h"
#include "views/time_chart_view.h"
#include "widgets/heat_map.h"
#include "widgets/nice_ticks.h"

#include "model/format.h"
#include "widgets/chart_tool_tips.h"

#include <QGridLayout>
#include <QLabel>
#include <QToolTip>
#include <QVBoxLayout>
#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSet>
#include <QtCharts/QHorizontalBarSeries>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QHorizontalStackedBarSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>

namespace faultline {

namespace {

double hours(Nanos t) { return static_cast<double>(t) / static_cast<double>(kHour); }

// A message over a chart in place of an empty plot; an empty text hides it.
void showChartMessage(QChartView* view, const QString& text) {
    auto* label = view->findChild<QLabel*>("chartMessage", Qt::FindDirectChildrenOnly);
    if (!label) {
        label = new QLabel(view);
        label->setObjectName("chartMessage");
        label->setAlignment(Qt::AlignCenter);
        label->setWordWrap(true);
        label->setAutoFillBackground(true);
        // A layout of its own keeps the message over the whole chart as the view resizes.
        auto* over = new QVBoxLayout(view);
        over->setContentsMargins(20, 56, 20, 20);  // below the chart's title
        over->addWidget(label);
    }
    label->setText(text);
    label->setVisible(!text.isEmpty());
    for (QAbstractAxis* axis : view->chart()->axes()) axis->setVisible(text.isEmpty());  // no scale for nothing
    label->raise();
}

QString runLength(Nanos d) { return QString::fromStdString(formatDuration(d)); }

void clearChart(QChart* chart) {
    chart->removeAllSeries();
    for (QAbstractAxis* axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
}

}  // namespace

namespace {
// Below these a chart elides its axis labels, legend and categories ("mean ste...", "Det...").
constexpr int kChartMinWidth = 440;  // two side by side from twice this
constexpr int kChartMinHeight = 250;
constexpr int kCausesMinHeight = 420;  // a line for each of the eighteen causes
constexpr int kNarrowMinWidth = 360;   // one column: the time charts' legends and ticks whole
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
      m_heatMap(new HeatMap(this)),
      m_power(new PowerChart(this)) {
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
    m_stragglerMarks->setName(tr("straggler starts"));
    m_stragglerMarks->setObjectName("stragglerMarks");
    m_stragglerMarks->setMarkerSize(7);
    refreshStateColours();
    connect(&StatePaletteChoice::instance(), &StatePaletteChoice::changed, this, &ChartsView::refreshStateColours);
    m_stepTime->addTimeSeries(m_stepSeries, "s");
    m_stepTime->addTimeSeries(m_stragglerMarks, "s");
    keepChartToolTips(m_causes);
    keepChartToolTips(m_waterfall);
    m_causes->setObjectName("causesChart");
    m_causes->chart()->setTitle(tr("Interruptions by root cause"));
    m_causes->chart()->legend()->hide();
    m_waterfall->setObjectName("waterfallChart");
    m_waterfall->chart()->setTitle(tr("Where the downtime went (hours)"));
    m_waterfall->chart()->legend()->hide();
    m_heatMap->setObjectName("stragglerHeatMap");
    for (QChartView* v : {static_cast<QChartView*>(m_ettr), m_causes, static_cast<QChartView*>(m_stepTime), m_waterfall}) {
        v->setRenderHint(QPainter::Antialiasing);
        v->setMinimumSize(240, v == m_causes ? kCausesMinHeight : kChartMinHeight);
    }
    for (QChartView* v : {m_causes, m_waterfall}) followAppPalette(v);  // the time charts follow it themselves
    connect(m_ettr, &TimeChartView::timeClicked, this, &ChartsView::timeRequested);
    connect(m_stepTime, &TimeChartView::timeClicked, this, &ChartsView::timeRequested);
    connect(m_power, &TimeChartView::timeClicked, this, &ChartsView::timeRequested);
    m_power->setRenderHint(QPainter::Antialiasing);
    // As high as the other time charts: at 170 px its plot was 40 px high and Qt Charts
    // elided the day ticks and the axis title to "...".
    m_power->setMinimumSize(240, kChartMinHeight);
    connect(m_heatMap, &HeatMap::columnClicked, this, [this](int column) {
        emit timeRequested(m_stragglers.traceBegin + m_stragglers.windowLength * column + m_stragglers.windowLength / 2);
    });

    m_heatBox = new QWidget(this);
    auto* heatLayout = new QVBoxLayout(m_heatBox);
    heatLayout->setContentsMargins(0, 0, 0, 0);
    auto* heatTitle = new QLabel(tr("Straggler score by rank over the traced window"), m_heatBox);
    heatTitle->setAlignment(Qt::AlignCenter);
    heatTitle->setWordWrap(true);
    heatLayout->addWidget(heatTitle);
    heatLayout->addWidget(m_heatMap, 1);
    auto* grid = new QGridLayout(this);
    // Why there are no charts (a run that failed to open), in place of empty axes.
    m_noRun = new QLabel(this);
    m_noRun->setObjectName("chartsNoRun");
    m_noRun->setWordWrap(true);
    m_noRun->setAlignment(Qt::AlignCenter);
    m_noRun->hide();
    grid->addWidget(m_noRun, 0, 0, 1, 2);  // shown only while the charts are not
    arrange(2);
}

void ChartsView::arrange(int columns) {
    if (columns == m_columns) return;
    m_columns = columns;
    auto* grid = static_cast<QGridLayout*>(layout());
    for (QWidget* w : {static_cast<QWidget*>(m_ettr), static_cast<QWidget*>(m_stepTime), static_cast<QWidget*>(m_causes),
                       static_cast<QWidget*>(m_waterfall), m_heatBox, static_cast<QWidget*>(m_power)})
        grid->removeWidget(w);
    for (int r = 0; r < 6; ++r) grid->setRowStretch(r, 0);
    if (columns == 2) {
        grid->addWidget(m_ettr, 0, 0);
        grid->addWidget(m_stepTime, 0, 1);
        // The causes across the whole width: their names whole, eighteen bars with room.
        grid->addWidget(m_causes, 1, 0, 1, 2);
        grid->addWidget(m_waterfall, 2, 0);
        grid->addWidget(m_heatBox, 2, 1);
        grid->addWidget(m_power, 3, 0, 1, 2);  // the cluster's draw over the whole run, full width
        grid->setRowStretch(0, 2);
        grid->setRowStretch(1, 3);
        grid->setRowStretch(2, 2);
        grid->setRowStretch(3, 2);
    } else {
        // Narrow (a dock beside the 3D view): one chart under another, each wide enough for
        // its text, and the panel scrolls.
        int row = 0;
        for (QWidget* w : {static_cast<QWidget*>(m_ettr), static_cast<QWidget*>(m_stepTime), static_cast<QWidget*>(m_causes),
                           static_cast<QWidget*>(m_waterfall), m_heatBox, static_cast<QWidget*>(m_power)}) {
            grid->addWidget(w, row, 0);
            grid->setRowStretch(row++, w == m_causes ? 3 : 2);
        }
    }
    // Every row at its chart's minimum, the power chart's too, with the grid's spacing and
    // margins: a panel sized to less cut the power chart off at its foot.
    grid->activate();
    setMinimumSize(std::max(kNarrowMinWidth, grid->minimumSize().width()), grid->minimumSize().height());
}

void ChartsView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    arrange(width() >= 2 * kChartMinWidth + 20 ? 2 : 1);
}

void ChartsView::setRun(std::shared_ptr<const Run> run) {
    RunSummary summary = run ? summarize(*run) : RunSummary{};
    StragglerReport stragglers = run ? analyzeStragglers(*run) : StragglerReport{};
    setRun(std::move(run), std::move(summary), std::move(stragglers));
}

void ChartsView::showNoRun(const QString& why) {
    if (m_run) return;  // the run shown stays
    for (QWidget* w : charts()) w->hide();
    m_noRun->setText(tr("No charts: %1").arg(why));
    m_noRun->show();
}

QString ChartsView::noRunText() const { return m_noRun->isHidden() ? QString() : m_noRun->text(); }

std::array<QWidget*, 6> ChartsView::charts() const {
    return {m_ettr, m_stepTime, m_causes, m_waterfall, m_heatBox, m_power};
}

void ChartsView::setRun(std::shared_ptr<const Run> run, RunSummary summary, StragglerReport stragglers) {
    m_noRun->hide();
    for (QWidget* w : charts()) w->show();
    m_run = std::move(run);
    m_summary = std::move(summary);
    m_stragglers = std::move(stragglers);
    fillEttr();
    fillCauses();
    fillStepTime();
    fillWaterfall();
    fillHeatMap();
    m_power->setRun(m_run.get());
    setTime(0);
}

void ChartsView::setTime(Nanos t) {
    m_ettr->setCursor(t);
    m_stepTime->setCursor(t);
    m_power->setCursor(t);
    const bool traced = m_stragglers.windowLength > 0 && t >= m_stragglers.traceBegin;
    m_heatMap->setMarkerColumn(traced ? static_cast<int>((t - m_stragglers.traceBegin) / m_stragglers.windowLength) : -1);
}

void ChartsView::fillEttr() {
    QList<QPointF> daily, cumulative;
    const Nanos duration = m_run ? m_run->info.duration : kDay;
    m_ettr->setTimeScale(duration);
    const GoodputLedger& ledger = m_summary.ledger;
    if (m_run && m_summary.ettrKnown && ledger.days.size() >= 2) {
        Nanos length = 0, kept = 0;
        for (const GoodputPeriod& d : ledger.days) {
            daily.append({m_ettr->toX((d.begin + d.end) / 2), d.ettr() * 100.0});
            length += d.end - d.begin;
            kept += d.productive + d.badput.stragglerSlowdown;
            cumulative.append({m_ettr->toX(d.end), 100.0 * static_cast<double>(kept) / static_cast<double>(std::max<Nanos>(1, length))});
        }
    }
    m_ettrDaily->replace(daily);
    m_ettrCumulative->replace(cumulative);
    double low = 100;
    for (const QPointF& p : daily) low = std::min(low, p.y());
    m_ettr->setRange(duration, std::max(0.0, std::floor(low / 5.0) * 5.0 - 5.0), 100.0);
    QString message;
    if (!m_run) message = tr("No run");
    else if (!m_summary.ettrKnown)
        message = tr("Effective training time: %1.").arg(QString::fromStdString(unknownFigureText(m_summary.evidenceFor(SummaryFigure::Ettr))));
    else if (const std::string caveat = ettrCaveat(m_summary); daily.isEmpty())
        message = tr("ETTR over the whole %1 run: %2%3.\nA per-day chart needs a run of two days or more.")
                      .arg(runLength(duration), QString::fromStdString(formatPercent(m_summary.ettr)),
                           caveat.empty() ? QString() : QString::fromStdString(", " + caveat));
    m_ettr->setEmptyMessage(message);
}

void ChartsView::fillCauses() {
    QChart* chart = m_causes->chart();
    clearChart(chart);
    m_causeSet = nullptr;
    if (!m_run) return;
    const RunSummary& summary = m_summary;
    auto* set = new QBarSet(tr("interruptions"));
    set->setObjectName("causeCounts");
    set->setSelectedColor(QColor(250, 190, 0));
    m_causeSet = set;
    m_causeRows.clear();
    QStringList labels;
    int most = 0, total = 0;
    // The Llama 3 table's causes, then any other cause the run has (Unknown: the logs did not
    // say): every interruption the summary counts is a bar here.
    std::vector<RootCause> rows(llama3Causes().begin(), llama3Causes().end());
    for (const CauseCount& c : summary.causes)
        if (std::find(rows.begin(), rows.end(), c.cause) == rows.end()) rows.push_back(c.cause);
    // Bottom to top in a horizontal bar chart, so the table's first row ends up on top.
    for (auto it = rows.rbegin(); it != rows.rend(); ++it) {
        int count = 0;
        for (const CauseCount& c : summary.causes)
            if (c.cause == *it) count = c.count;
        labels << qtText(rootCauseLabel(*it));
        m_causeRows.push_back(*it);
        *set << count;
        most = std::max(most, count);
        total += count;
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
    chart->addAxis(axisY, Qt::AlignLeft);
    chart->addAxis(axisX, Qt::AlignBottom);
    series->attachAxis(axisY);
    series->attachAxis(axisX);
    // Whole interruptions on round ticks: 0/5/10, 0/50/100/150.
    const NiceScale scale = niceScale(0, std::max(1, most), 5);
    applyNiceTicks(axisX, 0, std::max(1.0, scale.max), 5);
    if (axisX->tickInterval() < 1) {
        axisX->setTickInterval(1);
        axisX->setLabelFormat("%.0f");
    }
    axisX->setTitleText(tr("interruptions"));  // a click on a bar lists them: its tooltip says so
    connect(set, &QBarSet::hovered, this, [this, set, labels, total](bool state, int index) {
        if (!state) return QToolTip::hideText();
        const int n = static_cast<int>(set->at(index));
        QToolTip::showText(QCursor::pos(),
                           tr("%1: %2").arg(labels.value(index), QString::fromStdString(formatCounted(n, "interruption", "interruptions"))) +
                               (total > 0 ? tr(", %1% of all").arg(100.0 * n / total, 0, 'f', 0) : QString()) +
                               (n > 0 ? tr("\nClick to list them and mark them on the timeline") : QString()),
                           m_causes);
    });
    connect(set, &QBarSet::clicked, this, [this](int index) {
        if (index < 0 || index >= static_cast<int>(m_causeRows.size())) return;
        const RootCause cause = m_causeRows[static_cast<std::size_t>(index)];
        const std::optional<RootCause> chosen = m_highlight == cause ? std::nullopt : std::optional<RootCause>(cause);
        setHighlightedCause(chosen);
        emit causeClicked(chosen);
    });
    // The chart counts unexpected interruptions; planned ones are in the incident table.
    showChartMessage(m_causes, total > 0             ? QString()
                               : summary.planned > 0 ? tr("No unexpected interruptions in this run (%1 planned)").arg(summary.planned)
                                                     : tr("No interruptions in this run"));
    setHighlightedCause(m_highlight);
}

void ChartsView::refreshStateColours() {
    const Rgb deep = activeStatePalette().stragglingDeep;  // as the slowest stragglers in 3D
    m_stragglerMarks->setColor(QColor(deep[0], deep[1], deep[2]));
}

void ChartsView::setHighlightedCause(std::optional<RootCause> cause) {
    m_highlight = cause;
    if (!m_causeSet) return;
    m_causeSet->deselectAllBars();
    if (!cause) return;
    const auto it = std::find(m_causeRows.begin(), m_causeRows.end(), *cause);
    if (it != m_causeRows.end()) m_causeSet->selectBar(static_cast<int>(it - m_causeRows.begin()));
}

void ChartsView::fillStepTime() {
    QList<QPointF> points, marks;
    const Nanos duration = m_run ? std::max<Nanos>(1, m_run->info.duration) : kDay;
    m_stepTime->setTimeScale(duration);
    Nanos longest = 0;
    if (m_run)
        for (const Step& s : m_run->steps) longest = std::max(longest, s.duration);
    // Milliseconds for steps under a second (a trace's), seconds otherwise: never "0.0 0.0 0.0".
    const bool ms = longest > 0 && longest < kSecond;
    const double unit = ms ? static_cast<double>(kMillisecond) : static_cast<double>(kSecond);
    const QString unitName = ms ? tr("ms") : tr("s");
    double high = 0, low = 1e18;
    if (m_run && !m_run->steps.empty()) {
        // Mean step time in ~1,500 buckets: a point per pixel or so at any window size.
        const Nanos bucket = std::max<Nanos>(1, duration / 1'500);
        Nanos sum = 0, at = -1;
        int n = 0;
        auto flush = [&] {
            if (n == 0) return;
            const double value = static_cast<double>(sum / n) / unit;
            points.append({m_stepTime->toX(at * bucket + bucket / 2), value});
            high = std::max(high, value);
            low = std::min(low, value);
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
            if (step != m_run->steps.end()) marks.append({m_stepTime->toX(e.begin), static_cast<double>(step->duration) / unit});
        }
    }
    m_stepSeries->replace(points);
    m_stragglerMarks->replace(marks);
    m_stepTime->setSeriesUnit(m_stepSeries, unitName);
    m_stepTime->setSeriesUnit(m_stragglerMarks, unitName);
    m_stepTime->yAxis()->setTitleText(unitName);
    for (const QPointF& p : marks) high = std::max(high, p.y());
    if (low > high) low = 0;
    if (high <= 0) high = 1;
    m_stepTime->setRange(duration, std::max(0.0, low * 0.95), high * 1.05);
    m_stepTime->setEmptyMessage(!m_run ? tr("No run")
                                : points.isEmpty() ? tr("No step times in this run: its files hold no training log or trace with steps.")
                                                   : QString());
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
    // Lying down, the names whole at the left however narrow the dock; the parts pile up to the total.
    auto* series = new QHorizontalStackedBarSeries;
    series->append(base);
    series->append(value);
    chart->addSeries(series);
    auto* partsAxis = new QBarCategoryAxis;
    partsAxis->append(labels);
    auto* hoursAxis = new QValueAxis;
    applyNiceTicks(hoursAxis, 0, std::max(running * 1.05, 1e-3), 5);
    chart->addAxis(partsAxis, Qt::AlignLeft);
    chart->addAxis(hoursAxis, Qt::AlignBottom);
    series->attachAxis(partsAxis);
    series->attachAxis(hoursAxis);
    connect(value, &QBarSet::hovered, this, [this, value, labels](bool state, int index) {
        if (!state) return QToolTip::hideText();
        const Nanos nanos = static_cast<Nanos>(value->at(index) * static_cast<double>(kHour));
        QToolTip::showText(QCursor::pos(), tr("%1: %2 of downtime").arg(labels.value(index), runLength(nanos)), m_waterfall);
    });
    showChartMessage(m_waterfall, running <= 0 ? tr("No downtime in this run") : QString());
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
    // Its columns are windows of the traced span: the axis reads in the trace's own scale.
    const Nanos span = m_stragglers.windowLength * m_heatMap->columns();
    const Nanos unit = span >= 3 * kHour ? kHour : span >= 3 * kMinute ? kMinute : span >= 3 * kSecond ? kSecond : kMillisecond;
    const QString unitName = unit == kHour ? tr("h") : unit == kMinute ? tr("min") : unit == kSecond ? tr("s") : tr("ms");
    const double from = static_cast<double>(m_stragglers.traceBegin) / static_cast<double>(unit);
    m_heatMap->setColumnAxis(from, from + static_cast<double>(span) / static_cast<double>(unit),
                             tr("%1 since the run's start").arg(unitName));
    m_heatMap->setScaleTitle(tr("time the other ranks waited on this one"));
}

}  // namespace faultline
