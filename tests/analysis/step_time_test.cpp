// Stragglers from per-worker step times of real PAI training jobs (Alibaba GPU trace 2020,
// mini-batch-time): its README says what each job shows.
#include "analysis/step_time_stragglers.h"

#include "realdata.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <stdexcept>
#include <set>
#include <sstream>

namespace faultline {
namespace {

// Columns: ",worker,gpu,time,batch_time_norm" (time is the iteration number).
std::vector<RankStep> readJob(int job) {
    const std::string path = test::realData("cluster_traces/alibaba-clusterdata/cluster-trace-gpu-v2020/mini-batch-time/data/job_" +
                                                   std::to_string(job) + "_norm.csv");
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read " + path);
    std::string line;
    std::getline(in, line);
    std::vector<RankStep> out;
    while (std::getline(in, line)) {
        std::vector<std::string> cells;
        std::stringstream ss(line);
        for (std::string c; std::getline(ss, c, ',');) cells.push_back(c);
        if (cells.size() < 5) continue;
        out.push_back({std::stoi(cells[1]), std::stoll(cells[3]), 0, std::stoll(cells[4])});
    }
    return out;
}

std::set<std::int32_t> ranksWithEpisodes(const StepTimeReport& r) {
    std::set<std::int32_t> out;
    for (const StepTimeEpisode& e : r.episodes) out.insert(e.rank);
    return out;
}

TEST(StepTimeStragglers, Job1WorkerSixEmergesMidTraining) {
    FAULTLINE_REQUIRE_REALDATA();
    const StepTimeReport report = analyzeStepTimes(readJob(1));
    EXPECT_EQ(report.steps, 300);
    ASSERT_EQ(report.ranks.size(), 10u);
    const StepTimeEpisode* six = nullptr;
    for (const StepTimeEpisode& e : report.episodes)
        if (e.rank == 6 && !six) six = &e;
    ASSERT_NE(six, nullptr) << "worker 6 should straggle";
    // Iterations are numbered 10, 20, ... 3000: it emerges in the middle, not at the start.
    EXPECT_GT(six->firstStep, 750);
    EXPECT_LT(six->firstStep, 2250);
}

TEST(StepTimeStragglers, Job3HasSeveralStragglers) {
    FAULTLINE_REQUIRE_REALDATA();
    EXPECT_GE(ranksWithEpisodes(analyzeStepTimes(readJob(3))).size(), 2u);
}

TEST(StepTimeStragglers, Job2IsStableNothingEmerges) {
    FAULTLINE_REQUIRE_REALDATA();
    // Workers differ but the differences hold from the first steps: a slow worker is slow from
    // the start, and no one turns slow later.
    const StepTimeReport report = analyzeStepTimes(readJob(2));
    ASSERT_FALSE(report.ranks.empty());
    for (const StepTimeEpisode& e : report.episodes) EXPECT_LE(e.firstStep, 20) << "rank " << e.rank << " from step " << e.firstStep;
    EXPECT_EQ(report.ranks.front().rank, 5);  // about 9% slower throughout
}

TEST(StepTimeStragglers, Job4SlowWorkersAreTheSlowestRanked) {
    FAULTLINE_REQUIRE_REALDATA();
    const StepTimeReport report = analyzeStepTimes(readJob(4));
    ASSERT_GE(report.ranks.size(), 4u);
    std::set<std::int32_t> slowest;
    for (std::size_t i = 0; i < 4; ++i) slowest.insert(report.ranks[i].rank);
    EXPECT_EQ(slowest, (std::set<std::int32_t>{5, 6, 7, 8}));
}

TEST(StepTimeStragglers, EpisodesLandOnTheRanksGpus) {
    faultline::Run run;
    run.topology = buildFabric(FabricShape{.gpus = 8});
    run.rankToGpu = {4, 5};
    std::vector<RankStep> steps;
    for (std::int64_t s = 1; s <= 40; ++s) {
        steps.push_back({0, s, s * kSecond, kSecond});
        steps.push_back({1, s, s * kSecond, s > 20 ? 2 * kSecond : kSecond});
        steps.push_back({2, s, s * kSecond, kSecond});
    }
    run.rankSteps = steps;
    const StepTimeReport report = analyzeStepTimes(run.rankSteps);
    ASSERT_EQ(report.episodes.size(), 1u);
    EXPECT_EQ(report.episodes[0].rank, 1);
    EXPECT_EQ(report.episodes[0].firstStep, 21);
    EXPECT_DOUBLE_EQ(report.episodes[0].slowdown, 2.0);
    const auto episodes = stepTimeEpisodesOnGpus(report, run);
    ASSERT_EQ(episodes.size(), 1u);
    EXPECT_EQ(episodes[0].gpu, 5);
    EXPECT_EQ(episodes[0].begin, 19 * kSecond);  // step 21 ended at 21 s after 2 s
    EXPECT_EQ(episodes[0].end, 40 * kSecond);
}

// A run's rank steps come in time order, every rank's interleaved, or file after file: the
// report is the same either way, and a restart that takes steps again counts them again.
TEST(StepTimeStragglers, TheReportDoesNotDependOnTheOrderTheStepsComeIn) {
    constexpr int kRanks = 64;
    std::vector<RankStep> byTime;
    for (std::int64_t s = 1; s <= 300; ++s)
        for (std::int32_t r = 0; r < kRanks; ++r) {
            const bool slow = r == 37 && s > 100 && s <= 200;
            byTime.push_back({r, s, s * kSecond + r, slow ? kSecond * 13 / 10 : kSecond + (r % 5) * kSecond / 1000});
        }
    std::vector<RankStep> byRank = byTime;
    std::stable_sort(byRank.begin(), byRank.end(), [](const RankStep& a, const RankStep& b) { return a.rank > b.rank; });
    const StepTimeReport a = analyzeStepTimes(byTime), b = analyzeStepTimes(byRank);
    ASSERT_EQ(a.episodes.size(), 1u);
    EXPECT_EQ(a.episodes[0].rank, 37);
    EXPECT_EQ(a.episodes[0].firstStep, 101);
    EXPECT_EQ(a.episodes[0].lastStep, 200);
    EXPECT_NEAR(a.episodes[0].slowdown, 1.3, 0.01);
    EXPECT_EQ(a.steps, 300);
    ASSERT_EQ(a.ranks.size(), static_cast<std::size_t>(kRanks));
    EXPECT_EQ(a.ranks.front().rank, 37);
    ASSERT_EQ(b.ranks.size(), a.ranks.size());
    for (std::size_t i = 0; i < a.ranks.size(); ++i) {
        EXPECT_EQ(b.ranks[i].rank, a.ranks[i].rank);
        EXPECT_EQ(b.ranks[i].windowRatio, a.ranks[i].windowRatio);
    }
    ASSERT_EQ(b.episodes.size(), 1u);
    EXPECT_EQ(b.episodes[0].begin, a.episodes[0].begin);
    EXPECT_EQ(b.episodes[0].end, a.episodes[0].end);

    // Rank 3 restarts after step 50 and takes steps 41-50 again: its samples of those steps
    // count twice, each against the step's median, in the order they came.
    std::vector<RankStep> restarted = byTime;
    for (std::int64_t s = 41; s <= 50; ++s) restarted.push_back({3, s, (300 + s) * kSecond, kSecond});
    const StepTimeReport c = analyzeStepTimes(restarted);
    EXPECT_EQ(c.steps, 300);
    const auto rank3 = std::find_if(c.ranks.begin(), c.ranks.end(), [](const RankStepScore& r) { return r.rank == 3; });
    ASSERT_NE(rank3, c.ranks.end());
    EXPECT_EQ(rank3->windowRatio.size(), 31u);  // 310 samples in windows of 10
}

}  // namespace
}  // namespace faultline
