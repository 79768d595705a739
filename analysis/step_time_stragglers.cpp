#include "step_time_stragglers.h"

#include <algorithm>
#include <map>

namespace faultline {

namespace {

double medianOf(std::vector<double> values) {
    if (values.empty()) return 1.0;
    auto mid = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
    std::nth_element(values.begin(), mid, values.end());
    return *mid;
}

}  // namespace

StepTimeReport analyzeStepTimes(const std::vector<RankStep>& samples, const StepTimeParams& params) {
    StepTimeReport report;
    // Ratio of each rank's step time to the median rank's, step by step.
    std::map<std::int64_t, std::vector<const RankStep*>> bySteps;
    for (const RankStep& s : samples) bySteps[s.step].push_back(&s);
    struct Sample {
        std::int64_t step;
        Nanos begin;  // 0 when the step's time is unknown
        Nanos end;
        double ratio;
    };
    std::map<std::int32_t, std::vector<Sample>> byRank;
    std::vector<double> durations;
    for (const auto& [step, ranks] : bySteps) {
        if (ranks.size() < 2) continue;
        ++report.steps;
        durations.clear();
        for (const RankStep* s : ranks) durations.push_back(static_cast<double>(s->duration));
        const double median = medianOf(durations);
        if (median <= 0) continue;
        for (const RankStep* s : ranks) byRank[s->rank].push_back({step, s->time > 0 ? s->time - s->duration : 0, s->time, static_cast<double>(s->duration) / median});
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
        for (std::size_t i = 0; i < series.size(); i += static_cast<std::size_t>(window)) {
            const std::size_t end = std::min(series.size(), i + static_cast<std::size_t>(window));
            std::vector<double> ratios;
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
            std::vector<double> ratios;
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
