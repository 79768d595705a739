#pragma once
// The Repeat Offenders panel: the GPUs, hosts, racks and switches that failed more than once
// (`faultline-cli incidents --repeat` lists the same), each with its failures below it. Picking
// a part shows it in the 3D view and the inspector; picking one of its failures also moves the
// replay there.
#include "analysis/repeat_offenders.h"

#include <QWidget>

#include <memory>

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace faultline {

class RepeatOffendersView : public QWidget {
    Q_OBJECT
public:
    explicit RepeatOffendersView(QWidget* parent = nullptr);

    void setRun(std::shared_ptr<const Run> run);
    int offenderCount() const;

signals:
    void partRequested(const faultline::ComponentRef& part);
    void timeRequested(faultline::Nanos time);

private:
    void picked(QTreeWidgetItem* item);

    std::shared_ptr<const Run> m_run;
    std::vector<RepeatOffender> m_offenders;
    QLabel* m_empty;
    QTreeWidget* m_tree;
};

}  // namespace faultline
