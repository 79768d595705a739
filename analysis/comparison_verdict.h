#pragma once
// The answer a comparison leads with: which run lost fewer GPU-hours, by how much, and the
// one or two parts that made the difference. GPU-hours lost are what the goodput ledger
// counts as badput, times the run's GPUs (a synchronous job idles every GPU while it is
// down): each cause's interruptions (from stop to resume, plus the work redone), planned
// maintenance, checkpoint saves and straggler slowdown. A difference under 1% of the larger
// run's loss is within the runs' own noise: the verdict calls them even. The network's share
// (switch, cable and NIC failures, and the straggler slowdown the fabric caused) is told
// apart, naming the fabrics when the runs' differ: "InfiniBand lost 412 fewer GPU-hours to
// the network than RoCE".
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
    std::string headline;                // "B lost 1,234 fewer GPU-hours than A (...): mostly ...", then networkLine
    // The same loss by cause group, in a fixed order: Network, GPU, Host, Software, Planned
    // maintenance, Checkpoint saves, Straggler slowdown (the stragglers the network did not cause).
    std::vector<LostGpuHoursPart> groups;
    double networkA = 0, networkB = 0;   // GPU-hours lost to the network
    std::string nameA = "A", nameB = "B";  // "RoCE" and "InfiniBand" when the fabrics differ
    std::string networkLine;             // which lost more to the network; empty when neither lost any
    // Whether each run's evidence supports its GPU-hours lost (the goodput ledger's figure under
    // analysis/figure_evidence.h). Where one does not, the runs cannot be compared: the headline
    // says what each run is ("A is short evidence of 1 incident (25.6 s of files); B is a run of
    // 54 d ..."), no side is called better, and that side's GPU-hours read "not enough to say".
    bool knownA = true, knownB = true;
    bool comparable() const { return knownA && knownB; }
};

// A side's GPU-hours lost as the tables show them: the figure, or "not enough of the run to say".
std::string lostGpuHoursCell(bool known, double gpuHours);
// B - A in GPU-hours ("+1,234", "-3.6"), or "-" where either side is not known.
std::string lostGpuHoursDelta(const ComparisonVerdict& v, double delta);

// Below this share of the larger loss, a difference is noise.
inline constexpr double kEvenShare = 0.01;

ComparisonVerdict judgeComparison(const Run& a, const RunSummary& sa, const Run& b, const RunSummary& sb);
nlohmann::json verdictToJson(const ComparisonVerdict& v);

}  // namespace faultline
