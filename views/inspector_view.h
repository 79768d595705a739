#pragma once
// What was picked or found: its name, where it sits (zone, rack, host, index, PCI bus id)
// and its history in this run (failures, straggler episodes). Finds a GPU, host or switch
// by name.
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

    void setRun(std::shared_ptr<const Run> run);
    void setTime(Nanos t);
    void showPart(const ComponentRef& part);
    ComponentRef part() const { return m_part; }

signals:
    // The user searched for a part by name and it exists.
    void found(const faultline::ComponentRef& part);

private:
    void search();
    void fill();

    std::shared_ptr<const Run> m_run;
    ComponentRef m_part;
    QLineEdit* m_find;
    QLabel* m_title;
    QLabel* m_details;
    QListWidget* m_history;
};

}  // namespace faultline
