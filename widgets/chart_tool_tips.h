#pragma once
// Tooltips a chart shows itself (on hovering a bar or a point) stay while the pointer rests,
// as Qt's own tooltips do. Without this they vanish about a second after they appear: when
// the pointer rests, Qt asks the view for its tooltip (QEvent::ToolTip), and a chart view
// (a QGraphicsView) answers from its scene's items, which have none, by hiding the tooltip.
class QAbstractScrollArea;

namespace faultline {

void keepChartToolTips(QAbstractScrollArea* chartView);

}  // namespace faultline
