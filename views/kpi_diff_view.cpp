#include "kpi_diff_view.h"

#include <QHeaderView>

namespace faultline {

namespace {

QString cell(const KpiRow& row, const std::optional<double>& v, bool sign) {
    return v ? QString::fromStdString(formatKpiValue(row, *v, sign)) : QStringLiteral("–");
}

}  // namespace

QColor KpiDiffView::betterColour() { return QColor(46, 160, 67); }
QColor KpiDiffView::worseColour() { return QColor(218, 54, 51); }

KpiDiffView::KpiDiffView(QWidget* parent) : QTableWidget(parent) {
    setObjectName("kpiDiff");
    setColumnCount(5);
    setHorizontalHeaderLabels({tr("Figure"), tr("A"), tr("B"), tr("B − A"), tr("Change")});
    verticalHeader()->hide();
    horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    for (int c = 1; c < 5; ++c) horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setAlternatingRowColors(true);
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
}

void KpiDiffView::setComparison(const RunComparison& comparison) {
    const std::vector<KpiRow> rows = comparison.rows();
    setRowCount(static_cast<int>(rows.size()));
    for (int r = 0; r < static_cast<int>(rows.size()); ++r) {
        const KpiRow& row = rows[static_cast<std::size_t>(r)];
        QString change = QStringLiteral("–");
        // A change of a percentage is its difference in points, already in the delta column.
        if (const auto rel = row.unit == KpiRow::Unit::Fraction ? std::nullopt : row.relativeDelta()) change = QString::asprintf("%+.1f%%", 100.0 * *rel);
        const QString texts[5] = {QString::fromStdString(row.label), cell(row, row.a, false), cell(row, row.b, false),
                                  cell(row, row.delta(), true), change};
        const int verdict = row.verdict();
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
            setItem(r, c, item);
        }
    }
}

}  // namespace faultline
