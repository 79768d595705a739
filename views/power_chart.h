#pragma once
// The cluster's power draw over the run (analysis/cluster_power.h) as a time chart in the
// Charts panel: the curve in MW (kW for a single host's capture) keyed in the legend, failures
// and restarts marked on it, checkpoint saves in a row along its foot; linked to the replay's
// instant like the other time charts.
#include "views/time_chart_view.h"

#include "analysis/cluster_power.h"

class QLineSeries;
class QScatterSeries;

namespace faultline {

class PowerChart : public TimeChartView {
    Q_OBJECT
public:
    explicit PowerChart(QWidget* parent = nullptr);
    // nullptr clears it.
    void setRun(const Run* run);
    const ClusterPower& power() const { return m_power; }

private:
    ClusterPower m_power;
    QLineSeries* m_curve;
    QScatterSeries* m_failures;
    QScatterSeries* m_restarts;
    QScatterSeries* m_checkpoints;
};

}  // namespace faultline
