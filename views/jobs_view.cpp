#include "views/jobs_view.h"

#include "analysis/jobs_report.h"

#include <QCheckBox>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace faultline {

JobsView::JobsView(QWidget* parent)
    : QWidget(parent), m_all(new QCheckBox(tr("All jobs and steps"), this)), m_empty(new QLabel(this)), m_table(new QTableWidget(this)) {
    setObjectName("jobsView");
    m_all->setObjectName("jobsShowAll");
    m_all->setToolTip(tr("Also list the steps and every job the files named that did not train this run"));
    m_empty->setObjectName("jobsEmpty");
    m_empty->setWordWrap(true);
    m_table->setObjectName("jobsTable");
    const QStringList headers{tr("Job"), tr("Name"), tr("State"), tr("Exit"), tr("Start"), tr("End"), tr("Nodes"), tr("GPUs"), tr("Then")};
    m_table->setColumnCount(static_cast<int>(headers.size()));
    m_table->setHorizontalHeaderLabels(headers);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_all);
    layout->addWidget(m_empty);
    layout->addWidget(m_table, 1);
    connect(m_all, &QCheckBox::toggled, this, [this] { fill(); });
    connect(m_table, &QTableWidget::cellClicked, this, [this](int row, int) { picked(row); });
    connect(m_table, &QTableWidget::cellActivated, this, [this](int row, int) { picked(row); });
    fill();
}

void JobsView::setRun(std::shared_ptr<const Run> run) {
    m_run = std::move(run);
    // A fleet's jobs are what its hardware was doing: every one of them is the run's story,
    // not only the pre-training job.
    const bool fleet = m_run && m_run->topology.clusterCount() > 1;
    if (fleet && !m_all->isChecked()) {
        m_all->setChecked(true);  // fills
        return;
    }
    fill();
}

void JobsView::setShowAll(bool all) { m_all->setChecked(all); }

int JobsView::rowCount() const { return m_table->rowCount(); }

std::int32_t JobsView::jobAt(int row) const {
    return row >= 0 && row < static_cast<int>(m_rowJob.size()) ? m_rowJob[static_cast<std::size_t>(row)] : -1;
}

void JobsView::fill() {
    m_table->setRowCount(0);
    m_rowJob.clear();
    m_rowStart.clear();
    const std::vector<JobRow> rows = m_run ? jobRows(*m_run, m_all->isChecked()) : std::vector<JobRow>();
    const bool none = !m_run || m_run->jobs.empty();
    m_empty->setText(none ? tr("No jobs in this run: it was simulated, or imported without scheduler records (sacct) or job banners.")
                          : rows.empty() ? tr("No job trained this run; \"All jobs and steps\" lists the jobs the files named.") : QString());
    m_empty->setVisible(none || rows.empty());
    m_all->setEnabled(!none);
    m_table->setRowCount(static_cast<int>(rows.size()));
    for (int r = 0; r < static_cast<int>(rows.size()); ++r) {
        const JobRow& row = rows[static_cast<std::size_t>(r)];
        const QStringList cells{QString::fromStdString(row.id),       QString::fromStdString(row.name),  QString::fromStdString(row.state),
                                QString::fromStdString(row.exitCode), QString::fromStdString(row.start), QString::fromStdString(row.end),
                                QString::number(row.nodes),           QString::number(row.gpus),         QString::fromStdString(row.then)};
        for (int c = 0; c < static_cast<int>(cells.size()); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (c == 6 || c == 7) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (!row.inRun) item->setForeground(palette().color(QPalette::Disabled, QPalette::Text));  // not the run's own
            m_table->setItem(r, c, item);
        }
        m_rowJob.push_back(row.job);
        m_rowStart.push_back(row.startTime);
    }
    m_table->resizeColumnsToContents();
}

void JobsView::picked(int row) {
    if (row < 0 || row >= static_cast<int>(m_rowStart.size())) return;
    if (const auto& t = m_rowStart[static_cast<std::size_t>(row)]) emit timeRequested(*t);
    if (const std::int32_t job = jobAt(row); job >= 0) emit jobPicked(job);
}

}  // namespace faultline
