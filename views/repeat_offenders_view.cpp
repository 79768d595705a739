#include "views/repeat_offenders_view.h"
#include "widgets/qt_text.h"

#include "model/format.h"

#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace faultline {

namespace {

constexpr int kOffenderRole = Qt::UserRole;     // the offender's index, on its row
constexpr int kFailureRole = Qt::UserRole + 1;  // the failure's index into Run::failures, on a failure's row

}  // namespace

RepeatOffendersView::RepeatOffendersView(QWidget* parent) : QWidget(parent), m_empty(new QLabel(this)), m_tree(new QTreeWidget(this)) {
    setObjectName("repeatOffendersView");
    m_empty->setObjectName("repeatOffendersEmpty");
    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_tree->setObjectName("repeatOffenders");
    m_tree->setHeaderLabels({tr("Part"), tr("Failures"), tr("Shortest gap"), tr("Mean gap"), tr("Causes")});
    m_tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_tree->setAlternatingRowColors(true);
    m_tree->setToolTip(tr("Parts that failed more than once. Pick one to show it in the 3D view; pick one of its failures to go there."));
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(4, 4, 4, 4);
    column->addWidget(m_empty);
    column->addWidget(m_tree, 1);
    connect(m_tree, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* item) { picked(item); });
    connect(m_tree, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) { picked(item); });
    setRun(nullptr);
}

int RepeatOffendersView::offenderCount() const { return static_cast<int>(m_offenders.size()); }

void RepeatOffendersView::setRun(std::shared_ptr<const Run> shown) {
    m_run = std::move(shown);
    m_offenders = m_run ? findRepeatOffenders(*m_run) : std::vector<RepeatOffender>();
    m_tree->clear();
    m_empty->setText(!m_run ? tr("No run") : tr("No GPU, host, rack or switch failed more than once in this run."));
    m_empty->setVisible(m_offenders.empty());
    m_tree->setVisible(!m_offenders.empty());
    if (!m_run) return;
    const Run& run = *m_run;
    for (std::size_t i = 0; i < m_offenders.size(); ++i) {
        const RepeatOffender& o = m_offenders[i];
        auto* row = new QTreeWidgetItem(m_tree, {tr("%1 %2").arg(offenderLevelName(o.level), qtText(o.name)), QString::number(o.failures.size()),
                                                 qtText(formatDuration(o.shortestGap)), qtText(formatDuration(o.meanGap)), qtText(offenderCausesText(o, run))});
        row->setData(0, kOffenderRole, static_cast<int>(i));
        row->setData(0, kFailureRole, -1);
        for (int c = 1; c <= 3; ++c) row->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
        for (std::int32_t f : o.failures) {
            const Failure& failure = run.failures[static_cast<std::size_t>(f)];
            auto* child = new QTreeWidgetItem(row, {qtText(formatWallTime(run.info.startEpochNs, failure.time)), QString(), QString(), QString(),
                                                    qtText(std::string(rootCauseLabel(failure.cause)) + (failure.detail.empty() ? "" : ": " + failure.detail))});
            child->setData(0, kOffenderRole, static_cast<int>(i));
            child->setData(0, kFailureRole, f);
            child->setToolTip(4, qtText(failure.detail));
        }
    }
}

void RepeatOffendersView::picked(QTreeWidgetItem* item) {
    if (!item || !m_run) return;
    const int offender = item->data(0, kOffenderRole).toInt();
    const int failure = item->data(0, kFailureRole).toInt();
    if (offender < 0 || offender >= offenderCount()) return;
    if (failure >= 0) emit timeRequested(m_run->failures[static_cast<std::size_t>(failure)].time);
    const ComponentRef part = offenderPart(m_offenders[static_cast<std::size_t>(offender)], m_run->topology);
    if (part.kind != ComponentKind::None) emit partRequested(part);
}

}  // namespace faultline
