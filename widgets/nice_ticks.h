#pragma once
// Round axis ticks: steps of 1, 2 or 5 times a power of ten (0/50/100/150, never
// 0/37/75/112), and a range widened to whole steps.
#include <QtCharts/QValueAxis>

namespace faultline {

struct NiceScale {
    double min = 0, max = 1, step = 1;
};

// At most `maxTicks` intervals between `min` and `max`, each a round step.
NiceScale niceScale(double min, double max, int maxTicks = 6);
// 1, 2, 2.5 or 5 times a power of ten, at least `raw`.
double niceStep(double raw);

// The decimals a label needs to show every tick of this step exactly.
int stepDecimals(double step);

// Puts the axis on round ticks over [min, max] (widened to whole steps), labelled with as
// many decimals as the step needs.
void applyNiceTicks(QValueAxis* axis, double min, double max, int maxTicks = 6);

}  // namespace faultline
