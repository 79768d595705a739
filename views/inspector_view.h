#pragma once
// What was picked or found: its name, where it sits (zone, rack, host, index, PCI bus id)
// and its history in this run (failures, straggler episodes; a click on one moves the replay
// there). Finds GPUs, hosts, racks, switches, cables, PCI bus ids, ranks and incidents by
// prefix or substring, with a completion list.
#include "analysis/run_search.h"
#include "analysis/straggler_analysis.h"
#include "model/host_jobs.h"
#include "model/replay_state.h"
#include "model/run.h"

#include <QWidget>

#include <map>
#include <memory>
#include <optional>
#include <string>

class QCompleter;
class QLabel;
class QLineEdit;
class QListWidget;
class QStringListModel;

namespace faultline {

class GpuMetricChart;
class MetricAtInstant;

// A GPU ("r0012-h1-gpu3"), host ("r0012-h1") or switch ("ctsw-z01-03") by its name.
std::optional<ComponentRef> findPart(const Topology& topology, const std::string& name);

class InspectorView : public QWidget {
    Q_OBJECT
public:
    explicit InspectorView(QWidget* parent = nullptr);
    ~InspectorView() override;

    // The run and its replay index, which the caller keeps alive with the run.
    void setRun(std::shared_ptr<const Run> run, const ReplayIndex* replay);
    // Makes the run's incidents searchable ("incident 4").
    void setIncidents(const std::vector<Incident>& incidents);
    // The late ranks the trace analysis found, listed in their GPU's history as the summary
    // names them.
    void setLateRanks(const StragglerReport& stragglers);
    // Searches as the user does; false when nothing matches.
    bool searchFor(const QString& text);
    QCompleter* completer() const { return m_completer; }
    // The instant whose state the "now" line names.
    void setTime(Nanos t);
    void showPart(const ComponentRef& part);
    ComponentRef part() const { return m_part; }
    // The metric the 3D view is coloured by (View > Colour By); a picked GPU's chart and "now"
    // line show it, or its power (else the run's first metric) while the view shows states.
    void setMetric(std::optional<std::int32_t> metric);
    std::int32_t metricShown() const { return m_metricShown; }
    GpuMetricChart* metricChart() const { return m_chart; }

signals:
    // The user searched for a part by name and it exists; kind None when nothing matched
    // (the old outline goes).
    void found(const faultline::ComponentRef& part);
    // A history entry or an incident found: the replay goes to its time.
    void timeRequested(faultline::Nanos t);
    // "Show the hang" was clicked for a GPU whose rank took part in the run's hang.
    void hangRequested(std::int32_t rank);

private:
    void search();
    void updateCompletions(const QString& text);
    void go(const SearchHit& hit);
    void fill();
    void fillNow();
    void fillHang();
    void fillBlastRadius();
    void fillMetric();

    std::shared_ptr<const Run> m_run;
    const ReplayIndex* m_replay = nullptr;
    Nanos m_time = 0;
    ComponentRef m_part;
    QLineEdit* m_find;
    QLabel* m_title;
    QLabel* m_details;
    QLabel* m_now;
    QLabel* m_blast;  // what a switch, cable or host cuts off when it fails
    QLabel* m_hang;   // this GPU's rank's part in the run's hang, with a link to it
    QLabel* m_nextChecks;  // what to check next for its latest failure, with the source
    QListWidget* m_history;
    GpuMetricChart* m_chart;
    std::optional<std::int32_t> m_metric;
    std::int32_t m_metricShown = -1;
    std::unique_ptr<MetricAtInstant> m_reading;  // the metric shown, at the finest level kept
    std::unique_ptr<HostJobs> m_hostJobs;        // who held a host when: the "now" line names the job
    QCompleter* m_completer;
    QStringListModel* m_completions;
    // Built on the first search, not on every run opened: names of 100,000 GPUs and their
    // cables take a moment.
    const RunSearchIndex& index();
    RunSearchIndex m_index;
    std::vector<Incident> m_incidents;
    struct LateRank {
        std::int32_t rank = 0;
        Nanos worst = 0;  // when it arrived latest
        std::string text;
    };
    std::map<std::int32_t, LateRank> m_lateByGpu;
    bool m_indexStale = true;
    std::vector<SearchHit> m_shownHits;  // what the completion list shows, in order
};

}  // namespace faultline
