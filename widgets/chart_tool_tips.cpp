#include "chart_tool_tips.h"

#include <QAbstractScrollArea>
#include <QEvent>
#include <QObject>
#include <QToolTip>

namespace faultline {

namespace {

// Swallows the resting pointer's tooltip request while the chart's own tooltip is up; the
// chart hides it itself when the pointer leaves the item (or the tooltip expires as Qt's do).
class ChartToolTipKeeper : public QObject {
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::ToolTip && QToolTip::isVisible()) {
            event->accept();
            return true;
        }
        return QObject::eventFilter(watched, event);
    }
};

}  // namespace

void keepChartToolTips(QAbstractScrollArea* chartView) {
    chartView->viewport()->installEventFilter(new ChartToolTipKeeper(chartView));
}

}  // namespace faultline
