#include "views/comparison_charts.h"
#include "widgets/chart_tool_tips.h"

#include "analysis/incidents.h"
#include "views/chart_palette.h"

#include "views/time_chart_view.h"
#include "widgets/nice_ticks.h"

#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSeries>
#include <QtCharts/QBarSet>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QStackedBarSeries>
#include <QtCharts/QValueAxis>
#include <QGraphicsLayout>
#include <QLocale>
#include <QToolTip>
#include <QCursor>

#include <algorithm>

namespace faultline {

QString bridgeBarToolTip(const QString& category, double value, const QString& unit, const QString& which) {
    return QObject::tr("%1: %2 %3 (%4)").arg(category, QLocale(QLocale::English).toString(value, 'f', 1), unit, which);
}

namespace {

// The comparison's charts share a pane below the two 3D views: tight margins leave their
// plots the room on a 1280x720 screen.
void fitSmallPane(QChart* chart) {
    chart->setMargins(QMargins(2, 2, 2, 2));
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    chart->setBackgroundRoundness(0);
}

// Bars named one word a line (Qt Charts reads axis labels as HTML): a bar a few words
// wide would otherwise be named "Plann...".
// Their font smaller than the value axis': "maintenance" fits a bar's width at 1280x720.
QBarCategoryAxis* categoryAxis(const QStringList& names) {
    auto* axis = new QBarCategoryAxis;
    for (const QString& name : names) axis->append(name.toHtmlEscaped().replace(' ', "<br>"));
    QFont font = axis->labelsFont();
    // Nine or more bars (a bridge over every cause) leave a name's longest word ~60 px at 1280x720.
    font.setPointSizeF(font.pointSizeF() * (names.size() > 8 ? 0.68 : 0.75));
    axis->setLabelsFont(font);
    return axis;
}

// A bar's name is cut where its longest word is wider than the bar's share of the plot; the
// value axis, its title and the chart's margins take about this much beside them.
constexpr int kBesideThePlot = 110;
constexpr int kAroundAName = 16;

QChartView* barChart(const QString& title, const char* name, QWidget* parent) {
    auto* view = new QChartView(new QChart, parent);
    view->setObjectName(name);
    view->chart()->setTitle(title);
    view->chart()->legend()->setAlignment(Qt::AlignBottom);
    fitSmallPane(view->chart());
    // Thousands grouped, as the figures' table writes them: 4,371,450.
    view->chart()->setLocale(QLocale(QLocale::English, QLocale::UnitedStates));
    view->chart()->setLocalizeNumbers(true);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(200, 130);
    followAppPalette(view);
    keepChartToolTips(view);
    return view;
}

// Two bar sets, A and B, over the same categories, on fresh axes.
// The legend names the runs as every chart of the comparison does; the sets keep the object
// names "A" and "B".
void fillGrouped(QChart* chart, const QStringList& categories, const QList<qreal>& a, const QList<qreal>& b, const QString& yTitle,
                 const QString& nameA, const QString& nameB) {
    chart->removeAllSeries();
    for (QAbstractAxis* axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
    auto* setA = new QBarSet(nameA);
    auto* setB = new QBarSet(nameB);
    setA->setObjectName("A");
    setB->setObjectName("B");
    setA->append(a);
    setB->append(b);
    setA->setColor(ComparisonCharts::colourA());
    setB->setColor(ComparisonCharts::colourB());
    auto* series = new QBarSeries;
    series->append(setA);
    series->append(setB);
    chart->addSeries(series);
    auto* x = categoryAxis(categories);
    auto* y = new QValueAxis;
    y->setTitleText(yTitle);
    double top = 0;
    for (qreal v : a + b) top = std::max(top, v);
    y->setRange(0, top > 0 ? top * 1.1 : 1);
    y->applyNiceNumbers();
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
}

// A waterfall from A's lost time to B's: A's total, then each part's change (a bar rising
// where B lost more, falling where it lost less), then B's total. Each bar floats on an
// invisible base at the running total, so the steps read left to right as in a bridge chart.
// The bars keep their object names ("A", "B", "B lost more", "B lost less") whatever the
// runs are called in the labels. Returns where the value axis starts.
double fillBridge(QChart* chart, const QStringList& parts, const QList<qreal>& a, const QList<qreal>& b, const QString& unit = QObject::tr("hours"),
                const QString& nameA = QObject::tr("A"), const QString& nameB = QObject::tr("B"), bool zoom = false) {
    chart->removeAllSeries();
    for (QAbstractAxis* axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
    auto* base = new QBarSet(QStringLiteral("base"));
    base->setColor(Qt::transparent);
    base->setBorderColor(Qt::transparent);
    auto* totalA = new QBarSet(nameA);
    auto* totalB = new QBarSet(nameB);
    auto* more = new QBarSet(QObject::tr("%1 lost more").arg(nameB));
    auto* less = new QBarSet(QObject::tr("%1 lost less").arg(nameB));
    totalA->setColor(ComparisonCharts::colourA());
    totalB->setColor(ComparisonCharts::colourB());
    more->setColor(QColor(200, 60, 50));
    less->setColor(QColor(60, 150, 80));
    totalA->setObjectName("A");
    totalB->setObjectName("B");
    more->setObjectName("B lost more");
    less->setObjectName("B lost less");
    double sumA = 0, sumB = 0;
    for (qreal v : a) sumA += v;
    for (qreal v : b) sumB += v;
    QStringList categories{QObject::tr("%1 total").arg(nameA)};
    *base << 0;
    *totalA << sumA;
    *totalB << 0;
    *more << 0;
    *less << 0;
    double running = sumA, top = std::max(sumA, sumB), low = std::min(sumA, sumB);
    for (qsizetype i = 0; i < parts.size(); ++i) {
        const double change = b.value(i) - a.value(i);
        categories << parts[i];
        *base << std::min(running, running + change);
        *totalA << 0;
        *totalB << 0;
        *more << std::max(change, 0.0);
        *less << std::max(-change, 0.0);
        low = std::min(low, std::min(running, running + change));
        running += change;
        top = std::max(top, running);
    }
    categories << QObject::tr("%1 total").arg(nameB);
    *base << 0;
    *totalA << 0;
    *totalB << sumB;
    *more << 0;
    *less << 0;
    auto* series = new QStackedBarSeries;
    for (QBarSet* set : {base, totalA, totalB, more, less}) series->append(set);
    chart->addSeries(series);
    chart->legend()->markers(series).first()->setVisible(false);  // the base is no data
    auto* x = categoryAxis(categories);
    auto* y = new QValueAxis;
    // Zoomed, the axis starts near the lowest step, so changes of a few percent of the totals
    // stay visible; the totals' bars then stand cut off below.
    const bool zoomed = zoom && top > 0 && top - low < 0.5 * top;
    y->setTitleText(unit);
    // Round ticks, and a zoomed axis starting at a round value below the lowest step (once
    // 4,178,602 with ticks at 4,180,817, 4,183,032...).
    applyNiceTicks(y, zoomed ? std::max(0.0, low - (top - low)) : 0, top > 0 ? top + 0.1 * (zoomed ? top - low : top) : 1);
    const double floor = y->min();
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
    for (QBarSet* set : {totalA, totalB, more, less})
        QObject::connect(set, &QBarSet::hovered, chart, [set, categories, unit](bool on, int index) {
            if (!on || set->at(index) <= 0) return QToolTip::hideText();
            QToolTip::showText(QCursor::pos(),
                               bridgeBarToolTip(categories.value(index), set->at(index), unit, set->label()));
        });
    return floor;
}

QLineSeries* line(const std::vector<TimePoint>& points, double scale, const QString& name, QColor colour) {
    auto* s = new QLineSeries;
    s->setName(name);
    QList<QPointF> list;
    list.reserve(static_cast<qsizetype>(points.size()));
    for (const TimePoint& p : points) list.append(QPointF(static_cast<double>(p.t) / static_cast<double>(kDay), p.value * scale));
    s->replace(list);
    s->setPen(QPen(colour, 2));
    return s;
}

}  // namespace

QColor ComparisonCharts::colourA() { return QColor(52, 120, 200); }
QColor ComparisonCharts::colourB() { return QColor(232, 136, 36); }

ComparisonCharts::ComparisonCharts(QWidget* parent)
    : QTabWidget(parent),
      m_lostByCause(barChart(tr("GPU-hours lost, by cause"), "lostByCauseBridge", this)),
      m_causes(barChart(tr("Root causes, per 1,000 GPU-days"), "causeBars", this)),
      m_waterfall(barChart(tr("From A's lost time to B's (hours)"), "downtimeBridge", this)),
      m_ettr(new TimeChartView(tr("Cumulative ETTR"), tr("ETTR %"), this)),
      m_steps(new TimeChartView(tr("Step time"), tr("seconds"), this)),
      m_collectives(barChart(tr("Collectives: mean time in each kind"), "collectiveBars", this)) {
    setObjectName("comparisonCharts");
    m_ettr->setObjectName("ettrOverlay");
    m_steps->setObjectName("stepOverlay");
    fitSmallPane(m_ettr->chart());
    fitSmallPane(m_steps->chart());
    addTab(m_lostByCause, tr("GPU-hours lost"));
    addTab(m_causes, tr("Root causes"));
    addTab(m_ettr, tr("ETTR"));
    addTab(m_steps, tr("Step time"));
    addTab(m_waterfall, tr("Downtime"));
    m_collectives->hide();
}

void ComparisonCharts::setRuns(const Run& a, const Run& b, const RunComparison& c) {
    const ComparisonVerdict& v = c.verdict;
    QStringList groups;
    QList<qreal> lostA, lostB;
    for (const LostGpuHoursPart& g : v.groups) {
        groups << QString::fromStdString(g.part);
        lostA << g.a;
        lostB << g.b;
    }
    const QString nameA = QString::fromStdString(v.nameA), nameB = QString::fromStdString(v.nameB);
    const double floor = fillBridge(m_lostByCause->chart(), groups, lostA, lostB, tr("GPU-hours"), nameA, nameB, true);
    // A zoomed axis says so in the title: the totals' bars stand cut off below it.
    m_lostByCause->chart()->setTitle(floor > 0 ? tr("GPU-hours lost, %1 to %2, by cause (axis from %3)").arg(nameA, nameB, QString::fromStdString(gpuHoursText(floor)))
                                               : tr("GPU-hours lost, %1 to %2, by cause").arg(nameA, nameB));
    m_lostByCause->setToolTip(QString::fromStdString(v.networkLine));
    if (!v.comparable()) {
        // No bridge from a loss the evidence cannot support: the chart says why it is empty.
        QChart* chart = m_lostByCause->chart();
        chart->removeAllSeries();
        for (QAbstractAxis* axis : chart->axes()) {
            chart->removeAxis(axis);
            delete axis;
        }
        chart->setTitle(tr("GPU-hours lost: %1 (%2)")
                            .arg(QString::fromUtf8(kNotEnoughToSay), !v.knownA && !v.knownB ? tr("either run") : !v.knownA ? nameA : nameB));
        m_lostByCause->setToolTip(QString::fromStdString(v.headline));
    }

    QStringList causes;
    QList<qreal> rateA, rateB;
    for (const CauseComparison& x : c.causes) {
        causes << QString::fromUtf8(rootCauseLabel(x.cause).data(), static_cast<qsizetype>(rootCauseLabel(x.cause).size()));
        rateA << x.ratePerKiloGpuDayA;
        rateB << x.ratePerKiloGpuDayB;
    }
    fillGrouped(m_causes->chart(), causes, rateA, rateB, QString(), nameA, nameB);  // the title gives the unit
    m_causes->chart()->setTitle(tr("Root causes, per 1,000 GPU-days"));
    m_causes->setToolTip(tr("Counts: %1 %2, %3 %4 unexpected interruptions").arg(nameA).arg(c.a.unexpected).arg(nameB).arg(c.b.unexpected));
    const FigureEvidence ratesA = rateEvidence(static_cast<std::int64_t>(c.a.gpus), c.a.duration);
    const FigureEvidence ratesB = rateEvidence(static_cast<std::int64_t>(c.b.gpus), c.b.duration);
    if (!ratesA.known || !ratesB.known) {
        // No bars of a rate a run's GPU-days cannot carry: the chart says why it is empty.
        QChart* chart = m_causes->chart();
        chart->removeAllSeries();
        for (QAbstractAxis* axis : chart->axes()) {
            chart->removeAxis(axis);
            delete axis;
        }
        chart->setTitle(tr("Root causes, per 1,000 GPU-days: %1 (%2)")
                            .arg(QString::fromUtf8(kNotEnoughToSay), !ratesA.known && !ratesB.known ? tr("either run") : !ratesA.known ? nameA : nameB));
        m_causes->setToolTip(QString::fromStdString(unknownFigureText(!ratesA.known ? ratesA : ratesB)));
    }

    const Badput& ba = c.a.ledger.whole.badput;
    const Badput& bb = c.b.ledger.whole.badput;
    auto hours = [](Nanos n) { return static_cast<qreal>(toSeconds(n) / 3600.0); };
    fillBridge(m_waterfall->chart(),
                {tr("detection"), tr("restart"), tr("reload"), tr("lost work"), tr("planned"), tr("ckpt save"), tr("stragglers")},
                {hours(ba.detection), hours(ba.restart), hours(ba.reload), hours(ba.lostWork), hours(ba.planned), hours(ba.checkpointSave),
                 hours(ba.stragglerSlowdown)},
                {hours(bb.detection), hours(bb.restart), hours(bb.reload), hours(bb.lostWork), hours(bb.planned), hours(bb.checkpointSave),
                 hours(bb.stragglerSlowdown)},
               tr("hours"), nameA, nameB);

    const int collectivesTab = indexOf(m_collectives);
    if (c.collectives.both) {
        QStringList kinds;
        QList<qreal> meanA, meanB;
        for (const CollectiveKindComparison& k : c.collectives.kinds) {
            kinds << QString::fromStdString(k.op);
            meanA << static_cast<qreal>(k.meanA) / kMillisecond;
            meanB << static_cast<qreal>(k.meanB) / kMillisecond;
        }
        fillGrouped(m_collectives->chart(), kinds, meanA, meanB, tr("ms per call"), nameA, nameB);
        m_collectives->chart()->setTitle(tr("Collectives: mean time in each kind (late ranks: %1 %2, %3 %4)")
                                             .arg(nameA)
                                             .arg(c.collectives.lateRanksA)
                                             .arg(nameB)
                                             .arg(c.collectives.lateRanksB));
        if (collectivesTab < 0) addTab(m_collectives, tr("Collectives"));
    } else if (collectivesTab >= 0) {
        removeTab(collectivesTab);
        m_collectives->hide();
    }

    const Nanos longest = std::max(a.info.duration, b.info.duration);
    for (TimeChartView* chart : {m_ettr, m_steps})
        for (QAbstractSeries* s : chart->chart()->series())
            if (s->objectName() != "cursor") {
                chart->chart()->removeSeries(s);
                delete s;
            }
    const auto ettrA = cumulativeEttr(a), ettrB = cumulativeEttr(b);
    double low = 100;
    for (const auto* series : {&ettrA, &ettrB})
        for (const TimePoint& p : *series) low = std::min(low, p.value * 100);
    m_ettr->addTimeSeries(line(ettrA, 100, nameA, colourA()), "%");
    m_ettr->addTimeSeries(line(ettrB, 100, nameB, colourB()), "%");
    m_ettr->setRange(longest, std::max(0.0, low - 2), 100);

    const auto stepsA = stepTimeSeries(a), stepsB = stepTimeSeries(b);
    double top = 0;
    for (const auto* series : {&stepsA, &stepsB})
        for (const TimePoint& p : *series) top = std::max(top, p.value);
    m_steps->addTimeSeries(line(stepsA, 1, nameA, colourA()), "s");
    m_steps->addTimeSeries(line(stepsB, 1, nameB, colourB()), "s");
    m_steps->setRange(longest, 0, top > 0 ? top * 1.1 : 1);
}

void ComparisonCharts::setTime(Nanos a) {
    m_ettr->setCursor(a);
    m_steps->setCursor(a);
}

int ComparisonCharts::widthToNameEveryBar() const {
    int need = 0;
    for (const QChartView* view : {m_lostByCause, m_causes, m_waterfall}) {
        for (QAbstractAxis* a : view->chart()->axes(Qt::Horizontal)) {
            auto* axis = qobject_cast<QBarCategoryAxis*>(a);
            if (!axis || axis->count() == 0) continue;
            const QFontMetrics metrics(axis->labelsFont());
            int widest = 0;
            for (const QString& name : axis->categories())
                for (const QString& word : name.split("<br>")) widest = std::max(widest, metrics.horizontalAdvance(word));
            need = std::max(need, static_cast<int>(axis->count()) * (widest + kAroundAName) + kBesideThePlot);
        }
    }
    return need;
}

}  // namespace faultline
