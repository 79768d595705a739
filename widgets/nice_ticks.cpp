#include "nice_ticks.h"

#include <algorithm>
#include <cmath>

namespace faultline {

double niceStep(double raw) {
    if (!(raw > 0) || !std::isfinite(raw)) return 1.0;
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (m * power >= raw * (1 - 1e-9)) return m * power;
    return 10.0 * power;
}

int stepDecimals(double step) {
    int decimals = 0;
    // 0.25 needs two decimals, 0.5 one, 5 none.
    while (decimals < 9 && std::abs(step * std::pow(10.0, decimals) - std::round(step * std::pow(10.0, decimals))) > 1e-6) ++decimals;
    return decimals;
}

NiceScale niceScale(double min, double max, int maxTicks) {
    if (!std::isfinite(min) || !std::isfinite(max)) return {};
    if (max < min) std::swap(min, max);
    if (max - min < 1e-12) {
        const double pad = std::max(std::abs(max) * 0.1, 1e-9);
        min -= pad;
        max += pad;
    }
    const double step = niceStep((max - min) / std::max(1, maxTicks));
    return {std::floor(min / step + 1e-9) * step, std::ceil(max / step - 1e-9) * step, step};
}

void applyNiceTicks(QValueAxis* axis, double min, double max, int maxTicks) {
    const NiceScale s = niceScale(min, max, maxTicks);
    // Fixed ticks while the range and the interval change: Qt Charts lays out every dynamic
    // tick of a new range at the old interval, and a run of one instant (a step of 1e-10)
    // followed by one of two minutes is twenty billion ticks, the window frozen.
    axis->setTickType(QValueAxis::TicksFixed);
    axis->setRange(s.min, s.max);
    axis->setTickAnchor(0.0);
    axis->setTickInterval(s.step);
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setLabelFormat(QString("%.%1f").arg(stepDecimals(s.step)));
}

}  // namespace faultline
