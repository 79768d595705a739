#pragma once
// Qt Charts draw in their own theme's colours (white, whatever the window's palette): these
// keep a chart's background, titles, axes, grid and legend in the window's palette, through
// theme changes and axes added later. The series keep their own colours.
class QChart;
class QChartView;
class QPalette;

namespace faultline {

void applyPaletteToChart(QChart* chart, const QPalette& palette);
// Applies it now and again whenever the view's palette changes or it is drawn anew.
void followAppPalette(QChartView* view);

}  // namespace faultline
