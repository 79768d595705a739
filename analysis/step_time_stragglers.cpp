#include "step_time_stragglers.h"

#include "model/key_groups.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace faultline {

namespace {

// Reorders `values`.
double medianOf(std::vector<double>& values) {
    if (values.empty()) return 1.0;
    auto mid = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
    std::nth_element(values.begin(), mid, values.end());
    return *mid;
}

}  // namespace

StepTimeReport analyzeStepTimes(const std::vector<RankStep>& samples, const StepTimeParams& params) {
    StepTimeReport report;
    // Ratio of each rank's step time to the median rank's, step by step (NaN: not compared,
    // the step was taken by one rank alone or took no time).
    constexpr double kNotCompared = std::numeric_limits<double>::quiet_NaN();
    std::vector<double> ratio(samples.size(), kNotCompared);
    const KeyGroups bySteps = groupByKey(samples.size(), [&](std::size_t i) { return samples[i].step; });
    std::vector<double> durations;
    for (std::size_t g = 0; g < bySteps.size(); ++g) {
        const std::span<const std::uint32_t> ranks = bySteps.group(g);
        if (ranks.size() < 2) continue;
        ++report.steps;
        durations.clear();
        for (const std::uint32_t i : ranks) durations.push_back(static_cast<double>(samples[i].duration));
        const double median = medianOf(durations);
        if (median <= 0) continue;
        for (const std::uint32_t i : ranks) ratio[i] = static_cast<double>(samples[i].duration) / median;
    }
    struct Sample {
        std::int64_t step;
        Nanos begin;  // 0 when the step's time is unknown
        Nanos end;
        double ratio;
    };
    // Each rank's compared steps in step order (a step taken twice, after a restart, in the
    // order given). Filled in one pass over the samples: gathering a rank's from among
    // thousands of others would miss the cache at every one.
    const KeyGroups byRanks = groupByKey(samples.size(), [&](std::size_t i) { return samples[i].rank; });
    std::vector<std::vector<Sample>> seriesOf(byRanks.size());
    for (std::size_t g = 0; g < byRanks.size(); ++g) seriesOf[g].reserve(byRanks.count(g));
    for (std::size_t i = 0; i < samples.size(); ++i) {
        const RankStep& s = samples[i];
        if (!std::isnan(ratio[i])) seriesOf[byRanks.groupOf[i]].push_back({s.step, s.time > 0 ? s.time - s.duration : 0, s.time, ratio[i]});
    }
    std::vector<std::pair<std::int32_t, std::vector<Sample>>> byRank;
    for (std::size_t g = 0; g < byRanks.size(); ++g) {
        std::vector<Sample>& series = seriesOf[g];
        if (series.empty()) continue;
        if (!std::is_sorted(series.begin(), series.end(), [](const Sample& a, const Sample& b) { return a.step < b.step; }))
            std::stable_sort(series.begin(), series.end(), [](const Sample& a, const Sample& b) { return a.step < b.step; });
        byRank.emplace_back(static_cast<std::int32_t>(byRanks.keys[g]), std::move(series));
    }

    const int window = std::max(1, params.window);
    for (auto& [rank, series] : byRank) {
        RankStepScore score;
        score.rank = rank;
        double sum = 0;
        for (const Sample& s : series) sum += s.ratio;
        score.meanRatio = sum / static_cast<double>(series.size());
        // Windows of consecutive steps; the median keeps one slow step from making a window.
        std::vector<std::size_t> windowStart;
        std::vector<double> ratios;
        for (std::size_t i = 0; i < series.size(); i += static_cast<std::size_t>(window)) {
            const std::size_t end = std::min(series.size(), i + static_cast<std::size_t>(window));
            ratios.clear();
            for (std::size_t j = i; j < end; ++j) ratios.push_back(series[j].ratio);
            score.windowRatio.push_back(medianOf(ratios));
            windowStart.push_back(i);
        }
        for (std::size_t w = 0; w < score.windowRatio.size();) {
            if (score.windowRatio[w] < 1.0 + params.threshold) {
                ++w;
                continue;
            }
            std::size_t stop = w;
            ratios.clear();
            while (stop < score.windowRatio.size() && score.windowRatio[stop] >= 1.0 + params.threshold) ratios.push_back(score.windowRatio[stop++]);
            const Sample& first = series[windowStart[w]];
            const Sample& last = series[std::min(series.size(), windowStart[stop - 1] + static_cast<std::size_t>(window)) - 1];
            StepTimeEpisode e;
            e.rank = rank;
            e.firstStep = first.step;
            e.lastStep = last.step;
            e.begin = first.begin;
            e.end = last.end;
            e.slowdown = medianOf(ratios);
            report.episodes.push_back(e);
            w = stop;
        }
        report.ranks.push_back(std::move(score));
    }
    std::sort(report.ranks.begin(), report.ranks.end(), [](const auto& a, const auto& b) { return a.meanRatio > b.meanRatio; });
    return report;
}

std::vector<StragglerEpisode> stepTimeEpisodesOnGpus(const StepTimeReport& report, const Run& run) {
    std::vector<StragglerEpisode> out;
    for (const StepTimeEpisode& e : report.episodes) {
        if (e.rank < 0 || static_cast<std::size_t>(e.rank) >= run.rankToGpu.size() || e.end <= e.begin) continue;
        out.push_back({run.rankToGpu[static_cast<std::size_t>(e.rank)], e.begin, e.end, e.slowdown,
                       "slow steps (step-time analysis, rank " + std::to_string(e.rank) + ")"});
    }
    return out;
}

}  // namespace faultline
