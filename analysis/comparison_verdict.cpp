#include "comparison_verdict.h"

#include "cause_groups.h"
#include "incidents.h"
#include "opening_instant.h"
#include "straggler_excess.h"
#include "model/format.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>

namespace faultline {

namespace {

double hours(Nanos t) { return static_cast<double>(t) / static_cast<double>(kHour); }

constexpr const char* kNetworkSlowdown = "Network slowdown";
constexpr const char* kStragglers = "Straggler slowdown";
constexpr const char* kSaves = "Checkpoint saves";

// The part of the run's straggler slowdown spent waiting on stragglers the network caused.
Nanos networkSlowdown(const Run& run, Nanos total) {
    double waited = 0;
    forEachStragglerExcess(run, [&](Nanos b, Nanos e, double share, const StragglerEpisode& worst) {
        if (isNetworkStraggler(worst.cause))
            waited += static_cast<double>(std::min(run.info.duration, e) - std::max<Nanos>(0, b)) * share;
    });
    return std::clamp(static_cast<Nanos>(std::llround(waited)), Nanos{0}, total);
}

struct Lost {
    std::map<std::string, double> parts;   // by root cause label, saves, slowdowns
    std::map<CauseGroup, double> groups;   // the same by cause group (no saves, no slowdowns)
    double network = 0;                    // network group plus network slowdown
};

// GPU-hours lost to each part of the run's badput.
Lost lostParts(const Run& run, const RunSummary& s) {
    const auto gpus = static_cast<double>(s.gpus);
    Lost lost;
    for (const Downtime& d : run.downtimes) {
        const RootCause cause = d.planned ? RootCause::PlannedMaintenance : d.cause;
        const std::string part = d.planned ? std::string("Planned maintenance") : std::string(rootCauseLabel(cause));
        const double h = hours(d.end - d.begin + d.lostWork) * gpus;
        lost.parts[part] += h;
        lost.groups[causeGroup(cause)] += h;
    }
    if (const Nanos save = s.ledger.whole.badput.checkpointSave; save > 0) lost.parts[kSaves] += hours(save) * gpus;
    const Nanos slow = s.ledger.whole.badput.stragglerSlowdown;
    const Nanos network = networkSlowdown(run, slow);
    if (network > 0) lost.parts[kNetworkSlowdown] += hours(network) * gpus;
    if (slow > network) lost.parts[kStragglers] += hours(slow - network) * gpus;
    lost.network = lost.groups[CauseGroup::Network] + hours(network) * gpus;
    return lost;
}

// What a leadership audience calls the fabric.
std::string fabricShortName(FabricKind fabric) {
    switch (fabric) {
        case FabricKind::RoceClos: return "RoCE";
        case FabricKind::InfinibandFatTree: return "InfiniBand";
        case FabricKind::GenericTree: break;
    }
    return "the switch tree";
}

std::vector<LostGpuHoursPart> groupsOf(const Lost& a, const Lost& b) {
    std::vector<LostGpuHoursPart> out;
    out.push_back({"Network", a.network, b.network});
    for (CauseGroup g : {CauseGroup::Gpu, CauseGroup::Host, CauseGroup::Software, CauseGroup::Planned}) {
        auto at = [g](const Lost& l) { return l.groups.contains(g) ? l.groups.at(g) : 0.0; };
        out.push_back({std::string(causeGroupName(g)), at(a), at(b)});
    }
    for (const char* part : {kSaves, kStragglers}) {
        auto at = [part](const Lost& l) { return l.parts.contains(part) ? l.parts.at(part) : 0.0; };
        out.push_back({part, at(a), at(b)});
    }
    return out;
}

std::string networkLineOf(const ComparisonVerdict& v) {
    if (v.networkA <= 0 && v.networkB <= 0) return {};
    const double diff = v.networkB - v.networkA;
    const std::string what = " GPU-hours: switch, cable and NIC failures and traffic the fabric slowed)";
    if (std::abs(diff) <= kEvenShare * std::max(v.networkA, v.networkB))
        return v.nameA + " and " + v.nameB + " lost about the same to the network (" + gpuHoursText(v.networkA) + " and " +
               gpuHoursText(v.networkB) + what + ".";
    const bool bBetter = diff < 0;
    return (bBetter ? v.nameB : v.nameA) + " lost " + gpuHoursText(std::abs(diff)) + " fewer GPU-hours to the network than " +
           (bBetter ? v.nameA : v.nameB) + " (" + gpuHoursText(bBetter ? v.networkB : v.networkA) + " vs " +
           gpuHoursText(bBetter ? v.networkA : v.networkB) + what + ".";
}

// What a run is, said where its losses cannot be compared: its length and GPUs, or where its
// evidence is short, the incidents it holds and how long its files cover.
std::string runKind(const Run& run, const RunSummary& s) {
    const std::string length = formatDuration(s.duration);
    if (s.known(SummaryFigure::Goodput))
        return "a run of " + length + " on " + formatCounted(static_cast<std::int64_t>(s.gpus), "GPU", "GPUs");
    const std::vector<Incident> incidents = buildIncidents(run);
    if (isShortEvidence(run, incidents))
        return "a short record of " + formatCounted(static_cast<std::int64_t>(incidents.size()), "incident", "incidents") + " (" + length +
               " of evidence)";
    return "a run of " + length + " whose files hold " + s.evidenceFor(SummaryFigure::Goodput).missing;
}

std::string signedGpuHours(double h) { return (h > 0 ? "+" : h < 0 ? "-" : "") + gpuHoursText(std::abs(h)) + " GPU-h"; }

}  // namespace

ComparisonVerdict judgeComparison(const Run& a, const RunSummary& sa, const Run& b, const RunSummary& sb) {
    ComparisonVerdict v;
    const Lost la = lostParts(a, sa), lb = lostParts(b, sb);
    const std::map<std::string, double>&pa = la.parts, &pb = lb.parts;
    v.groups = groupsOf(la, lb);
    v.networkA = la.network;
    v.networkB = lb.network;
    if (a.topology.fabric != b.topology.fabric) {
        v.nameA = fabricShortName(a.topology.fabric);
        v.nameB = fabricShortName(b.topology.fabric);
    }
    v.networkLine = networkLineOf(v);
    const std::string networkSentence = v.networkLine.empty() ? std::string() : " " + v.networkLine;
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
    // GPU-hours lost are the goodput ledger's badput: a run whose evidence cannot support
    // goodput has no loss to set against the other's (a crash log's 25 s against 54 days).
    v.knownA = sa.known(SummaryFigure::Goodput);
    v.knownB = sb.known(SummaryFigure::Goodput);
    if (!v.comparable()) {
        v.networkLine.clear();
        v.headline = v.nameA + " is " + runKind(a, sa) + "; " + v.nameB + " is " + runKind(b, sb) +
                     ": their goodput and losses cannot be compared (a loss needs " +
                     (v.knownA ? sb : sa).evidenceFor(SummaryFigure::Goodput).needs + ").";
        return v;
    }
    const double diff = v.lostB - v.lostA;
    v.even = std::abs(diff) <= kEvenShare * std::max(v.lostA, v.lostB);
    if (v.even) {
        v.headline = v.nameA + " and " + v.nameB + " lost about the same: " + gpuHoursText(v.lostA) + " and " + gpuHoursText(v.lostB) + " GPU-hours (within " +
                     formatPercent(kEvenShare, 0) + ")." + networkSentence;
        return v;
    }
    // The parts that moved the same way as the whole, largest first: what made the difference.
    for (const LostGpuHoursPart& p : v.parts)
        if (v.drivers.size() < 2 && (p.delta() > 0) == (diff > 0) && std::abs(p.delta()) >= kEvenShare * std::abs(diff)) v.drivers.push_back(p);
    const bool bBetter = diff < 0;
    const double better = bBetter ? v.lostB : v.lostA, worse = bBetter ? v.lostA : v.lostB;
    v.headline = (bBetter ? v.nameB : v.nameA) + " lost " + gpuHoursText(std::abs(diff)) + " fewer GPU-hours than " + (bBetter ? v.nameA : v.nameB) + " (" +
                 gpuHoursText(better) + " vs " + gpuHoursText(worse) + ", " + formatPercent(std::abs(diff) / worse, 1) + " less)";
    if (!v.drivers.empty()) {
        v.headline += ": mostly " + v.drivers[0].part + " (" + signedGpuHours(v.drivers[0].delta()) + " in " + v.nameB + ")";
        if (v.drivers.size() > 1) v.headline += " and " + v.drivers[1].part + " (" + signedGpuHours(v.drivers[1].delta()) + ")";
    }
    v.headline += "." + networkSentence;
    return v;
}

std::string lostGpuHoursCell(bool known, double gpuHours) { return known ? gpuHoursText(gpuHours) : std::string(kNotEnoughToSay); }

std::string lostGpuHoursDelta(const ComparisonVerdict& v, double delta) {
    if (!v.comparable()) return "-";
    return (delta > 0 ? "+" : delta < 0 ? "-" : "") + gpuHoursText(std::abs(delta));
}

nlohmann::json verdictToJson(const ComparisonVerdict& v) {
    // A side whose evidence cannot support its losses is null, and so is every difference.
    auto side = [](bool known, double h) { return known ? nlohmann::json(h) : nlohmann::json(); };
    auto delta = [&v](double d) { return v.comparable() ? nlohmann::json(d) : nlohmann::json(); };
    nlohmann::json parts = nlohmann::json::array();
    for (const LostGpuHoursPart& p : v.parts)
        parts.push_back({{"part", p.part}, {"a", side(v.knownA, p.a)}, {"b", side(v.knownB, p.b)}, {"delta", delta(p.delta())}});
    nlohmann::json drivers = nlohmann::json::array();
    for (const LostGpuHoursPart& p : v.drivers) drivers.push_back(p.part);
    nlohmann::json groups = nlohmann::json::array();
    for (const LostGpuHoursPart& p : v.groups)
        groups.push_back({{"group", p.part}, {"a", side(v.knownA, p.a)}, {"b", side(v.knownB, p.b)}, {"delta", delta(p.delta())}});
    return {{"headline", v.headline}, {"comparable", v.comparable()}, {"network_gpu_hours_a", side(v.knownA, v.networkA)},
            {"network_gpu_hours_b", side(v.knownB, v.networkB)}, {"network", v.networkLine}, {"groups", groups},
            {"lost_gpu_hours_a", side(v.knownA, v.lostA)}, {"lost_gpu_hours_b", side(v.knownB, v.lostB)}, {"gpu_hours_a", v.totalA},
            {"gpu_hours_b", v.totalB}, {"even", v.even}, {"drivers", drivers}, {"parts", parts}};
}

}  // namespace faultline
