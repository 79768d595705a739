#pragma once
// The report's table of power swings: what the data centre's power system had to absorb,
// one row per kind of swing (a drop at a failure, a rise after a checkpoint load...) with how
// often it came, its largest and its fastest. Ten largest single swings read the same ten
// times where every failure drops the whole cluster to idle (a fleet of 16,384 GPUs: ten rows
// of 11.469 to 1.180 MW), so they said nothing a count does not.
#include "analysis/cluster_power.h"

#include <string>
#include <vector>

namespace faultline {

struct PowerSwingKind {
    std::string what;  // "Drop at a failure", "Rise after a checkpoint load"
    int times = 0;
    double fromMegawatts = 0, toMegawatts = 0;  // the largest swing of the kind
    double fastestMegawattsPerSecond = 0;       // signed: negative for a drop
    Nanos fastestAt = 0;                        // where the fastest starts
};

// A swing is a run of steps of the curve the same way (up or down) with no flat step between,
// of at least `minShareOfPeak` of the peak draw; it is of the kind of the last mark at or
// before its end. Fastest first.
std::vector<PowerSwingKind> powerSwingKinds(const ClusterPower& power, double minShareOfPeak = 0.1);

std::vector<std::string> powerSwingHeader();
// Rows of what, times, largest (from -> to), fastest (per second), fastest at (UTC).
std::vector<std::vector<std::string>> powerSwingRows(const ClusterPower& power, const RunInfo& info);
// The table's empty case, in words.
inline constexpr const char* kNoPowerSwings = "No swings of a tenth of the peak draw or more: the draw is steady over the run.";

}  // namespace faultline
