#pragma once
// The run's figures as charts, each linked to the replay's instant: effective training time
// per day and cumulative; interruptions by root cause in the Llama 3 table's order; step time
// with straggler episodes marked; where the downtime went; and a ranks x time heat map of
// straggler scores from the collective traces; the cluster's power draw in MW.
#include "analysis/straggler_analysis.h"
#include "analysis/summary.h"

#include <QWidget>

#include <array>
#include <memory>
#include <optional>

class QBarSet;
class QChartView;
class QLabel;
class QLineSeries;
class QScatterSeries;

namespace faultline {

class HeatMap;
class PowerChart;
class TimeChartView;

class ChartsView : public QWidget {
    Q_OBJECT
public:
    explicit ChartsView(QWidget* parent = nullptr);

    // With the figures worked out already (off the GUI thread, as the app does)...
    void setRun(std::shared_ptr<const Run> run, RunSummary summary, StragglerReport stragglers);
    // ...or working them out here.
    void setRun(std::shared_ptr<const Run> run);
    void setTime(Nanos t);
    // No run to chart (the one asked for could not be opened): says why instead of empty axes,
    // until a run is set.
    void showNoRun(const QString& why);
    QString noRunText() const;  // empty while charts are shown
    // Marks one cause's bar as chosen (a click on it, or the incident filter); nullopt clears.
    void setHighlightedCause(std::optional<RootCause> cause);
    // The stragglers' marks in the active state palette (gpu_palette.h), after it changed.
    void refreshStateColours();
    std::optional<RootCause> highlightedCause() const { return m_highlight; }
    // The root-cause chart's rows, bottom to top, as its bars are indexed.
    const std::vector<RootCause>& causeRows() const { return m_causeRows; }
    // The charts side by side in two columns, or one under another when the view is narrow.
    int columns() const { return m_columns; }

signals:
    // A click on a time chart or the heat map: move the replay there.
    void timeRequested(faultline::Nanos t);
    // A click on a root cause's bar: show that cause's incidents (a second click clears).
    void causeClicked(std::optional<faultline::RootCause> cause);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void arrange(int columns);
    std::array<QWidget*, 6> charts() const;
    void fillEttr();
    void fillCauses();
    void fillStepTime();
    void fillWaterfall();
    void fillHeatMap();

    std::shared_ptr<const Run> m_run;
    RunSummary m_summary;
    StragglerReport m_stragglers;
    TimeChartView* m_ettr;
    QLineSeries* m_ettrDaily;
    QLineSeries* m_ettrCumulative;
    QChartView* m_causes;
    TimeChartView* m_stepTime;
    QLineSeries* m_stepSeries;
    QScatterSeries* m_stragglerMarks;
    QChartView* m_waterfall;
    HeatMap* m_heatMap;
    PowerChart* m_power;  // the cluster's draw in MW (power_chart.h)
    QBarSet* m_causeSet = nullptr;
    std::vector<RootCause> m_causeRows;
    std::optional<RootCause> m_highlight;
    QWidget* m_heatBox;
    QLabel* m_noRun;
    int m_columns = 0;
};

}  // namespace faultline
