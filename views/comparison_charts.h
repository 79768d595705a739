#pragma once
// The comparison's charts, A against B: root causes as grouped bars (counts, or rates per
// 1,000 GPU-days so runs of different size compare fairly), cumulative ETTR and step time
// over time overlaid, and a waterfall from A's lost time to B's, part by part (detection,
// restart, reload, lost work, planned, checkpoint saves, stragglers). First of all, the same
// bridge in GPU-hours by cause group, the network first: what a fabric comparison asks.
#include "analysis/run_comparison.h"

#include <QTabWidget>

class QChartView;

namespace faultline {

class TimeChartView;

// What hovering a bridge's bar says: "Network: 91,832.7 GPU-hours (B)", thousands separated
// as every figure of the app.
QString bridgeBarToolTip(const QString& category, double value, const QString& unit, const QString& which);

class ComparisonCharts : public QTabWidget {
    Q_OBJECT
public:
    explicit ComparisonCharts(QWidget* parent = nullptr);
    void setRuns(const Run& a, const Run& b, const RunComparison& comparison);
    // The cursor line at A's instant (the comparison's clock).
    void setTime(Nanos a);

    // The width the charts need to name every bar whole, one word a line: the figures' table
    // gives way to it (the bridge's nine bars once read "Planned mainten..." at 1280x720).
    int widthToNameEveryBar() const;
    static QColor colourA();
    static QColor colourB();

private:
    QChartView* m_lostByCause;  // the bridge from A's GPU-hours lost to B's, by cause group
    QChartView* m_causes;
    QChartView* m_waterfall;  // the bridge from A's lost time to B's
    TimeChartView* m_ettr;
    TimeChartView* m_steps;
    QChartView* m_collectives;  // a tab only where both runs hold collective traces
};

}  // namespace faultline
