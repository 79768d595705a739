#pragma once
// The comparison's KPI table: A, B, B minus A and the relative change, the change coloured
// green where B is better and red where it is worse. The rows are RunComparison::rows(), the
// same figures `faultline-cli compare` prints.
#include "analysis/run_comparison.h"

#include <QTableWidget>

namespace faultline {

class KpiDiffView : public QTableWidget {
    Q_OBJECT
public:
    explicit KpiDiffView(QWidget* parent = nullptr);
    void setComparison(const RunComparison& comparison);
    // The colours the table marks better and worse with (for tests and legends).
    static QColor betterColour();
    static QColor worseColour();
};

}  // namespace faultline
