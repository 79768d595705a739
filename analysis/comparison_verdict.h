#pragma once
// The answer a comparison leads with: which run lost fewer GPU-hours, by how much, and the
// one or two parts that made the difference. GPU-hours lost are what the goodput ledger
// counts as badput, times the run's GPUs (a synchronous job idles every GPU while it is
// down): each cause's interruptions (from stop to resume, plus the work redone), planned
// maintenance, checkpoint saves and straggler slowdown. A difference under 1% of the larger
// run's loss is within the runs' own noise: the verdict calls them even.
#include "model/run.h"
#include "summary.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace faultline {

struct LostGpuHoursPart {
    std::string part;  // "Faulty GPU", "Checkpoint saves", "Straggler slowdown", "Planned maintenance"
    double a = 0, b = 0;
    double delta() const { return b - a; }
};

struct ComparisonVerdict {
    double lostA = 0, lostB = 0;         // GPU-hours
    double totalA = 0, totalB = 0;       // the runs' GPU-hours (GPUs x duration)
    bool even = false;                   // within 1% of each other
    std::vector<LostGpuHoursPart> parts;  // every part either run lost time to, largest difference first
    std::vector<LostGpuHoursPart> drivers;  // the one or two parts that made the difference
    std::string headline;                // "B lost 1,234 fewer GPU-hours than A (...): mostly ..."
};

// Below this share of the larger loss, a difference is noise.
inline constexpr double kEvenShare = 0.01;

ComparisonVerdict judgeComparison(const Run& a, const RunSummary& sa, const Run& b, const RunSummary& sb);
nlohmann::json verdictToJson(const ComparisonVerdict& v);

}  // namespace faultline
