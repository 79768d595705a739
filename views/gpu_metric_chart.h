#pragma once
// One GPU's readings of one metric over the run, in the inspector: the line a Grafana panel
// of that GPU shows (raw samples where the run keeps them, else bucket means), with the GPU's
// failures marked on it and its straggler episodes shaded, the replay's instant as a cursor.
#include "model/run.h"
#include "views/time_chart_view.h"

#include <optional>

class QAreaSeries;
class QLineSeries;
class QScatterSeries;

namespace faultline {

class GpuMetricChart : public TimeChartView {
    Q_OBJECT
public:
    explicit GpuMetricChart(QWidget* parent = nullptr);

    // The run outlives the chart's use of it (the inspector holds it).
    void showReadings(const Run* run, std::int32_t gpu, std::int32_t metric);
    void clear();
    std::int32_t gpu() const { return m_gpu; }
    std::int32_t metric() const { return m_metric; }
    // The series drawn: readings, failure marks (at their instants), straggler shading.
    QLineSeries* readings() const { return m_readings; }
    QScatterSeries* failures() const { return m_failures; }
    QAreaSeries* stragglers() const { return m_stragglers; }

private:
    void recolour();

    QLineSeries* m_readings;
    QScatterSeries* m_failures;
    QLineSeries* m_stragglerTop;
    QAreaSeries* m_stragglers;
    const Run* m_run = nullptr;
    std::int32_t m_gpu = -1, m_metric = -1;
};

}  // namespace faultline
