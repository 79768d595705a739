#include "comparison_verdict.h"

#include "incidents.h"
#include "model/format.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>

namespace faultline {

namespace {

double hours(Nanos t) { return static_cast<double>(t) / static_cast<double>(kHour); }

// GPU-hours lost to each part of the run's badput.
std::map<std::string, double> lostParts(const Run& run, const RunSummary& s) {
    const auto gpus = static_cast<double>(s.gpus);
    std::map<std::string, double> parts;
    for (const Downtime& d : run.downtimes) {
        const std::string part = d.planned ? std::string("Planned maintenance") : std::string(rootCauseLabel(d.cause));
        parts[part] += hours(d.end - d.begin + d.lostWork) * gpus;
    }
    if (const Nanos save = s.ledger.whole.badput.checkpointSave; save > 0) parts["Checkpoint saves"] += hours(save) * gpus;
    if (const Nanos slow = s.ledger.whole.badput.stragglerSlowdown; slow > 0) parts["Straggler slowdown"] += hours(slow) * gpus;
    return parts;
}

std::string signedGpuHours(double h) { return (h > 0 ? "+" : h < 0 ? "-" : "") + gpuHoursText(std::abs(h)) + " GPU-h"; }

}  // namespace

ComparisonVerdict judgeComparison(const Run& a, const RunSummary& sa, const Run& b, const RunSummary& sb) {
    ComparisonVerdict v;
    const std::map<std::string, double> pa = lostParts(a, sa), pb = lostParts(b, sb);
    std::map<std::string, LostGpuHoursPart> parts;
    for (const auto& [name, h] : pa) {
        parts[name].a = h;
        v.lostA += h;
    }
    for (const auto& [name, h] : pb) {
        parts[name].b = h;
        v.lostB += h;
    }
    for (auto& [name, part] : parts) {
        part.part = name;
        v.parts.push_back(part);
    }
    std::stable_sort(v.parts.begin(), v.parts.end(), [](const auto& x, const auto& y) { return std::abs(x.delta()) > std::abs(y.delta()); });
    v.totalA = hours(sa.duration) * static_cast<double>(sa.gpus);
    v.totalB = hours(sb.duration) * static_cast<double>(sb.gpus);
    const double diff = v.lostB - v.lostA;
    v.even = std::abs(diff) <= kEvenShare * std::max(v.lostA, v.lostB);
    if (v.even) {
        v.headline = "A and B lost about the same: " + gpuHoursText(v.lostA) + " and " + gpuHoursText(v.lostB) + " GPU-hours (within " +
                     formatPercent(kEvenShare, 0) + ").";
        return v;
    }
    // The parts that moved the same way as the whole, largest first: what made the difference.
    for (const LostGpuHoursPart& p : v.parts)
        if (v.drivers.size() < 2 && (p.delta() > 0) == (diff > 0) && std::abs(p.delta()) >= kEvenShare * std::abs(diff)) v.drivers.push_back(p);
    const bool bBetter = diff < 0;
    const double better = bBetter ? v.lostB : v.lostA, worse = bBetter ? v.lostA : v.lostB;
    v.headline = std::string(bBetter ? "B" : "A") + " lost " + gpuHoursText(std::abs(diff)) + " fewer GPU-hours than " + (bBetter ? "A" : "B") + " (" +
                 gpuHoursText(better) + " vs " + gpuHoursText(worse) + ", " + formatPercent(std::abs(diff) / worse, 1) + " less)";
    if (!v.drivers.empty()) {
        v.headline += ": mostly " + v.drivers[0].part + " (" + signedGpuHours(v.drivers[0].delta()) + " in B)";
        if (v.drivers.size() > 1) v.headline += " and " + v.drivers[1].part + " (" + signedGpuHours(v.drivers[1].delta()) + ")";
    }
    v.headline += ".";
    return v;
}

nlohmann::json verdictToJson(const ComparisonVerdict& v) {
    nlohmann::json parts = nlohmann::json::array();
    for (const LostGpuHoursPart& p : v.parts) parts.push_back({{"part", p.part}, {"a", p.a}, {"b", p.b}, {"delta", p.delta()}});
    nlohmann::json drivers = nlohmann::json::array();
    for (const LostGpuHoursPart& p : v.drivers) drivers.push_back(p.part);
    return {{"headline", v.headline}, {"lost_gpu_hours_a", v.lostA}, {"lost_gpu_hours_b", v.lostB}, {"gpu_hours_a", v.totalA},
            {"gpu_hours_b", v.totalB}, {"even", v.even}, {"drivers", drivers}, {"parts", parts}};
}

}  // namespace faultline
