#pragma once
// What was picked or found: its name, where it sits (zone, rack, host, index, PCI bus id)
// and its history in this run (failures, straggler episodes). Finds a GPU, host or switch
// by name.
#include "model/replay_state.h"
#include "model/run.h"

#include <QWidget>

#include <memory>
#include <optional>

class QLabel;
class QLineEdit;
class QListWidget;

namespace faultline {

// A GPU ("r0012-h1-gpu3"), host ("r0012-h1") or switch ("ctsw-z01-03") by its name.
std::optional<ComponentRef> findPart(const Topology& topology, const std::string& name);

class InspectorView : public QWidget {
    Q_OBJECT
public:
    explicit InspectorView(QWidget* parent = nullptr);

    // The run and its replay index, which the caller keeps alive with the run.
    void setRun(std::shared_ptr<const Run> run, const ReplayIndex* replay);
    // The instant whose state the "now" line names.
    void setTime(Nanos t);
    void showPart(const ComponentRef& part);
    ComponentRef part() const { return m_part; }

signals:
    // The user searched for a part by name and it exists.
    void found(const faultline::ComponentRef& part);

private:
    void search();
    void fill();
    void fillNow();

    std::shared_ptr<const Run> m_run;
    const ReplayIndex* m_replay = nullptr;
    Nanos m_time = 0;
    ComponentRef m_part;
    QLineEdit* m_find;
    QLabel* m_title;
    QLabel* m_details;
    QLabel* m_now;
    QListWidget* m_history;
};

}  // namespace faultline
