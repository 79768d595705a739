#pragma once
// Stragglers from collective traces. In a synchronous collective every rank waits inside it
// for the last one to arrive, so a rank that arrives late spends the least time inside.
// A rank's lateness at a collective is how long the earliest arrival waited for it: the
// longest time any rank spent inside minus its own. Both come from each rank's own clock
// (its exit minus its enter), so clock offsets between hosts do not matter. Ranks are
// ranked by the waiting they caused over the whole trace; no outlier threshold is applied,
// so the largest lateness of a small group is never thrown away.
#include "model/run.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace faultline {

struct StragglerAnalysisParams {
    Nanos minLateness = 100 * kMicrosecond;  // below this, arrival jitter is noise
    int windows = 100;          // score timeline resolution over the traced span
    double episodeScore = 0.05; // a window's score from which the rank counts as straggling
    int episodeMinLate = 3;     // and at least this many late arrivals in the window
};

struct LateArrival {
    std::int32_t group = 0;
    std::int64_t seq = 0;
    std::int32_t op = 0;
    Nanos enter = 0;     // on the rank's own clock
    Nanos lateness = 0;  // how long the earliest arrival waited for it
};

struct RankStragglerScore {
    std::int32_t rank = 0;
    std::int32_t gpu = -1;   // -1 where the run has no rank map
    double score = 0;        // share of its collectives' time the earliest arrivals spent waiting for it
    int collectives = 0;
    int late = 0;            // collectives it arrived last at (beyond the noise floor)
    Nanos totalLateness = 0; // the waiting it caused, summed over the trace: the ranking key
    std::vector<LateArrival> evidence;  // the latest arrivals, worst first (at most 5)
    // What its GPU's telemetry says over the traced span against its peers' ("SM clock 1,403
    // MHz vs peers 1,980; SW thermal slowdown"); "" when nothing stands out or none was kept.
    std::string telemetry;
    std::vector<double> timeline;       // score per window
};

struct StragglerReport {
    std::int64_t records = 0;
    std::int64_t instances = 0;         // collectives matched across ranks by (group, seq)
    std::int64_t skewedInstances = 0;   // with at least one late rank
    Nanos traceBegin = 0;
    Nanos traceEnd = 0;
    Nanos windowLength = 0;
    std::vector<RankStragglerScore> ranks;   // most waiting caused first
    std::vector<StragglerEpisode> episodes;  // detected, with their rank's GPU
};

StragglerReport analyzeStragglers(const Run& run, const StragglerAnalysisParams& params = {});
// Adds the detected episodes to the run, so they replay like simulated ones.
void appendDetectedStragglers(Run& run, const StragglerReport& report);

// "last at 7 of 10 collectives, others waited 123.3 ms; SM clock 1,403 MHz vs peers 1,980":
// one rank's lateness, and its GPU's telemetry where it stands out, as the summary's
// highlights, the inspector and the report say it.
std::string lateRankText(const RankStragglerScore& rank);

nlohmann::json stragglersToJson(const StragglerReport& report, const Run& run);
std::string stragglersToText(const StragglerReport& report, const Run& run, int limit = 20);

}  // namespace faultline
