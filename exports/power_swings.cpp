#include "exports/power_swings.h"

#include "model/format.h"
#include "model/root_cause.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace faultline {

namespace {

std::string kindOf(bool drop, const PowerMark* mark) {
    const std::string way = drop ? "Drop" : "Rise";
    if (!mark) return way + " with no event marked";
    std::string noun;
    if (mark->kind == "failure")
        noun = mark->label == rootCauseLabel(RootCause::PlannedMaintenance) ? "planned maintenance" : "a failure";
    else if (mark->kind == "restart")
        noun = "a restart";
    else
        noun = "a " + mark->label;  // "checkpoint save", "checkpoint load"
    return way + (drop ? " at " : " after ") + noun;
}

// The last mark at or before t; marks are in time order.
const PowerMark* markBefore(const std::vector<PowerMark>& marks, Nanos t) {
    const auto after = std::upper_bound(marks.begin(), marks.end(), t, [](Nanos at, const PowerMark& m) { return at < m.time; });
    return after == marks.begin() ? nullptr : &*(after - 1);
}

// Watts, kilowatts or megawatts, by the size of the largest figure in the row.
std::string power(double megawatts, double scale, const char* per = "") {
    char b[48];
    if (scale >= 1) std::snprintf(b, sizeof b, "%.2f MW%s", megawatts, per);
    else if (scale >= 1e-3) std::snprintf(b, sizeof b, "%.1f kW%s", megawatts * 1e3, per);
    else std::snprintf(b, sizeof b, "%.0f W%s", megawatts * 1e6, per);
    return b;
}

}  // namespace

std::vector<PowerSwingKind> powerSwingKinds(const ClusterPower& p, double minShareOfPeak) {
    const double least = p.peakMegawatts * minShareOfPeak;
    std::map<std::string, PowerSwingKind> kinds;
    const std::vector<PowerPoint>& c = p.curve;
    std::size_t i = 0;
    while (i + 1 < c.size()) {
        const double step = c[i + 1].megawatts - c[i].megawatts;
        if (step == 0 || c[i + 1].time <= c[i].time) {
            ++i;
            continue;
        }
        // The run of steps the same way from i; its fastest step.
        const bool drop = step < 0;
        std::size_t end = i;
        double fastest = 0;
        Nanos fastestAt = c[i].time;
        while (end + 1 < c.size() && c[end + 1].time > c[end].time && (c[end + 1].megawatts - c[end].megawatts) * (drop ? -1 : 1) > 0) {
            const double rate = (c[end + 1].megawatts - c[end].megawatts) / toSeconds(c[end + 1].time - c[end].time);
            if (std::abs(rate) > std::abs(fastest)) {
                fastest = rate;
                fastestAt = c[end].time;
            }
            ++end;
        }
        const double from = c[i].megawatts, to = c[end].megawatts;
        if (std::abs(to - from) >= least && least > 0) {
            PowerSwingKind& k = kinds[kindOf(drop, markBefore(p.marks, c[end].time))];
            k.what = kindOf(drop, markBefore(p.marks, c[end].time));
            ++k.times;
            if (std::abs(to - from) > std::abs(k.toMegawatts - k.fromMegawatts)) {
                k.fromMegawatts = from;
                k.toMegawatts = to;
            }
            if (std::abs(fastest) > std::abs(k.fastestMegawattsPerSecond)) {
                k.fastestMegawattsPerSecond = fastest;
                k.fastestAt = fastestAt;
            }
        }
        i = end;
    }
    std::vector<PowerSwingKind> out;
    for (auto& [what, k] : kinds) out.push_back(std::move(k));
    std::stable_sort(out.begin(), out.end(), [](const PowerSwingKind& a, const PowerSwingKind& b) {
        return std::abs(a.fastestMegawattsPerSecond) > std::abs(b.fastestMegawattsPerSecond);
    });
    return out;
}

std::vector<std::string> powerSwingHeader() { return {"Swing (a tenth of the peak or more)", "Times", "Largest", "Fastest", "Fastest at (UTC)"}; }

std::vector<std::vector<std::string>> powerSwingRows(const ClusterPower& p, const RunInfo& info) {
    std::vector<std::vector<std::string>> rows;
    for (const PowerSwingKind& k : powerSwingKinds(p)) {
        const double scale = std::max(std::abs(k.fromMegawatts), std::abs(k.toMegawatts));
        const double rateScale = std::abs(k.fastestMegawattsPerSecond);
        rows.push_back({k.what, formatCount(k.times), power(k.fromMegawatts, scale) + " \u2192 " + power(k.toMegawatts, scale),
                        (k.fastestMegawattsPerSecond > 0 ? "+" : "") + power(k.fastestMegawattsPerSecond, rateScale, "/s"),
                        formatWallTime(info.startEpochNs, k.fastestAt)});
    }
    return rows;
}

}  // namespace faultline
