#pragma once
// The Jobs panel: the scheduler jobs that trained the run, as `faultline-cli jobs` lists them
// (id with its restarts, name, state, exit code, start, end, nodes, GPUs, and what followed
// its end); "All jobs and steps" lists every job the files named, and is ticked for a fleet,
// whose many jobs are its story. Read-only: picking a job
// moves the replay to its start and frames its hardware in the 3D view.
#include "model/run.h"

#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QCheckBox;
class QLabel;
class QTableWidget;

namespace faultline {

class JobsView : public QWidget {
    Q_OBJECT
public:
    explicit JobsView(QWidget* parent = nullptr);

    void setRun(std::shared_ptr<const Run> run);
    void setShowAll(bool all);
    int rowCount() const;
    // The job a row lists (an index into Run::jobs), -1 for none.
    std::int32_t jobAt(int row) const;

signals:
    // A job was picked: the replay goes to its start (run time).
    void timeRequested(faultline::Nanos time);
    // ... and the 3D view frames its hardware (an index into Run::jobs).
    void jobPicked(std::int32_t job);

private:
    void fill();
    void picked(int row);

    std::shared_ptr<const Run> m_run;
    QCheckBox* m_all;
    QLabel* m_empty;
    QTableWidget* m_table;
    std::vector<std::int32_t> m_rowJob;
    std::vector<std::optional<Nanos>> m_rowStart;
};

}  // namespace faultline
