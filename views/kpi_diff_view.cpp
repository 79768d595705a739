#include "views/kpi_diff_view.h"

#include "analysis/figure_evidence.h"

#include <QHeaderView>

namespace faultline {

namespace {

// The table's cells are the CLI's; an unknown is a dash of the width of a figure.
QString cell(const std::string& text) { return text == "-" ? QStringLiteral("–") : QString::fromStdString(text); }

}  // namespace

QColor KpiDiffView::betterColour() { return QColor(46, 160, 67); }
QColor KpiDiffView::worseColour() { return QColor(218, 54, 51); }

KpiDiffView::KpiDiffView(QWidget* parent) : QTableWidget(parent) {
    setObjectName("kpiDiff");
    setColumnCount(5);
    setHorizontalHeaderLabels({tr("Figure"), tr("A"), tr("B"), tr("B − A"), tr("Change")});
    verticalHeader()->hide();
    // Every column as wide as its text: a narrow pane scrolls rather than cut a figure's name;
    // a wide one gives the spare width to the last column.
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    horizontalHeader()->setStretchLastSection(true);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setAlternatingRowColors(true);
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
}

void KpiDiffView::setComparison(const RunComparison& comparison) {
    const std::vector<KpiTableRow> rows = kpiTable(comparison);
    setRowCount(static_cast<int>(rows.size()));
    for (int r = 0; r < static_cast<int>(rows.size()); ++r) {
        const KpiTableRow& row = rows[static_cast<std::size_t>(r)];
        const QString texts[5] = {QString::fromStdString(row.label), cell(row.a), cell(row.b), cell(row.delta), cell(row.change)};
        const int verdict = row.verdict == "better" ? 1 : row.verdict == "worse" ? -1 : 0;
        for (int c = 0; c < 5; ++c) {
            auto* item = new QTableWidgetItem(texts[c]);
            item->setTextAlignment(c == 0 ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignRight | Qt::AlignVCenter);
            if (c >= 3 && verdict != 0) {
                item->setForeground(verdict > 0 ? betterColour() : worseColour());
                QFont bold = item->font();
                bold.setBold(true);
                item->setFont(bold);
                item->setToolTip(verdict > 0 ? tr("B is better") : tr("B is worse"));
            }
            // The rule's words are too wide for a figure's column at 1280x720: short in the
            // cell, whole in the tooltip (and in the CLI and the report).
            if ((c == 1 || c == 2) && texts[c] == QLatin1String(kNotEnoughToSay)) {
                item->setText(tr("not enough to say"));
                item->setToolTip(tr("Not enough of the run to say: this run lacks the evidence the figure needs"));
            }
            setItem(r, c, item);
        }
    }
}

}  // namespace faultline
