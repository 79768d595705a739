#pragma once
// Stragglers from per-rank step times: in synchronous training every rank's step should
// take as long as every other's, so a rank whose steps run longer than the median rank's
// holds everyone up. Each step is compared across ranks, then smoothed over a window of
// steps so noise does not raise alarms.
#include "model/run.h"

#include <nlohmann/json_fwd.hpp>

#include <vector>

namespace faultline {

struct StepTimeParams {
    double threshold = 0.05;  // straggling: at least this much slower than the median rank
    int window = 10;          // steps per window
};

struct StepTimeEpisode {
    std::int32_t rank = 0;
    std::int64_t firstStep = 0;
    std::int64_t lastStep = 0;
    Nanos begin = 0;          // from the steps' times where known, else 0
    Nanos end = 0;
    double slowdown = 1.0;    // median ratio to the median rank over the episode
};

struct RankStepScore {
    std::int32_t rank = 0;
    double meanRatio = 1.0;            // of its step time to the median rank's
    std::vector<double> windowRatio;   // per window of steps
};

struct StepTimeReport {
    std::int64_t steps = 0;                // distinct steps compared
    std::vector<RankStepScore> ranks;      // slowest first
    std::vector<StepTimeEpisode> episodes; // by rank, then time
};

StepTimeReport analyzeStepTimes(const std::vector<RankStep>& samples, const StepTimeParams& params = {});
// The episodes as straggler episodes of the run's GPUs (ranks without a GPU are left out).
std::vector<StragglerEpisode> stepTimeEpisodesOnGpus(const StepTimeReport& report, const Run& run);

nlohmann::json stepTimesToJson(const StepTimeReport& report);
std::string stepTimesToText(const StepTimeReport& report, int limit = 20);

}  // namespace faultline
