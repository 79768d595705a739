#include "simulator/simulator.h"
#include "analysis/straggler_analysis.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>

namespace faultline {
namespace {

// A run on eight GPUs whose ranks 0-3 all-reduce in one group, without records yet.
faultline::Run fourRanksInOneGroup() {
    faultline::Run run;
    run.info = {"trace", 0, kHour, "test"};
    run.topology = buildFabric(FabricShape{.gpus = 8});
    run.collectiveOps = {"allreduce"};
    run.processGroups = {{"dp", {0, 1, 2, 3}}};
    run.rankToGpu = {0, 1, 2, 3};
    return run;
}

// Four ranks, three all-reduces; rank 2 arrives 40 ms late to each. Each rank records on
// its own clock: rank 3's is 5 seconds off.
faultline::Run handTrace() {
    faultline::Run run = fourRanksInOneGroup();
    for (std::int64_t seq = 1; seq <= 3; ++seq) {
        const Nanos start = seq * kSecond;
        for (std::int32_t rank = 0; rank < 4; ++rank) {
            const Nanos enter = start + (rank == 2 ? 40 * kMillisecond : rank * kMillisecond / 10);
            const Nanos offset = rank == 3 ? 5 * kSecond : 0;
            run.collectives.push_back({rank, 0, 0, seq, enter + offset, start + 50 * kMillisecond + offset, 1 << 20});
        }
    }
    return run;
}

TEST(StragglerAnalysis, LateRankIsFoundDespiteClockOffsets) {
    const faultline::Run run = handTrace();
    const StragglerReport report = analyzeStragglers(run);
    EXPECT_EQ(report.records, 12);
    EXPECT_EQ(report.instances, 3);
    EXPECT_EQ(report.skewedInstances, 3);
    ASSERT_FALSE(report.ranks.empty());
    const RankStragglerScore& worst = report.ranks.front();
    EXPECT_EQ(worst.rank, 2);
    EXPECT_EQ(worst.gpu, 2);
    EXPECT_EQ(worst.late, 3);
    ASSERT_EQ(worst.evidence.size(), 3u);
    // The earliest rank (0) spent 50 ms inside; rank 2 spent 10 ms.
    EXPECT_EQ(worst.evidence[0].lateness, 40 * kMillisecond);
    for (std::size_t i = 1; i < report.ranks.size(); ++i) EXPECT_EQ(report.ranks[i].late, 0);
    EXPECT_NE(stragglersToText(report, run).find("r0000-h0-gpu2"), std::string::npos);
}

// The late rank's GPU ran slow while it was traced: its line says so, in the table, the JSON
// and the words the summary's highlights and the inspector use; readings outside the traced
// span say nothing about it.
TEST(StragglerAnalysis, ALateRanksThrottledGpuSaysSoBesideItsLateness) {
    faultline::Run run = handTrace();
    run.telemetry.metrics = {"DCGM_FI_DEV_SM_CLOCK", "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS"};
    auto readings = [&](std::int64_t bucket) {
        TelemetryLevel level{10 * kSecond, {}};
        for (std::int32_t metric : {0, 1})
            for (std::int32_t gpu = 0; gpu < 4; ++gpu) {
                const float v = metric == 0 ? (gpu == 2 ? 1410.f : 1980.f) : (gpu == 2 ? 32.f : 0.f);  // 0x20: SW thermal slowdown
                level.series.push_back({metric, gpu, {bucket}, {v}, {v}, {v}});
            }
        return std::vector<TelemetryLevel>{level};
    };
    run.telemetry.levels = readings(0);  // 0-10 s: the trace's span
    const StragglerReport report = analyzeStragglers(run);
    ASSERT_FALSE(report.ranks.empty());
    const RankStragglerScore& worst = report.ranks.front();
    EXPECT_EQ(worst.rank, 2);
    EXPECT_EQ(worst.telemetry, "SM clock 1,410 MHz vs peers 1,980; SW thermal slowdown");
    EXPECT_NE(lateRankText(worst).find("others waited 120.0 ms; SM clock 1,410 MHz vs peers 1,980"), std::string::npos) << lateRankText(worst);
    EXPECT_NE(stragglersToText(report, run).find("its GPU while traced: SM clock 1,410 MHz vs peers 1,980; SW thermal slowdown"),
              std::string::npos)
        << stragglersToText(report, run);
    EXPECT_EQ(stragglersToJson(report, run)["ranks"][0]["telemetry"], worst.telemetry);
    for (std::size_t i = 1; i < report.ranks.size(); ++i) EXPECT_EQ(report.ranks[i].telemetry, "") << "rank " << report.ranks[i].rank;

    run.telemetry.levels = readings(6);  // 60-70 s: long after the trace
    EXPECT_EQ(analyzeStragglers(run).ranks.front().telemetry, "");
}

// Shaped like a real 8-rank trace: rank 5 arrives last at the first five collectives, 7.6 ms
// behind at the first (about 9 ms in all); ranks 2 and 6 are last at the final three by under
// 1 ms each. Kernel durations are widely spread, as on real GPUs: every arrival jitters by up
// to 0.6 ms.
faultline::Run smallGroupTrace() {
    faultline::Run run;
    run.info = {"trace", 0, kMinute, "test"};
    run.topology = buildFabric(FabricShape{.gpus = 8});
    run.collectiveOps = {"allreduce"};
    run.processGroups = {{"dp", {0, 1, 2, 3, 4, 5, 6, 7}}};
    run.rankToGpu = {0, 1, 2, 3, 4, 5, 6, 7};
    const Nanos jitter[8][8] = {{0, 310, 120, 590, 40, 0, 230, 480},    {500, 90, 360, 10, 270, 0, 600, 150},
                                {220, 580, 30, 410, 130, 0, 340, 60},   {70, 260, 540, 190, 450, 0, 20, 380},
                                {390, 140, 250, 560, 80, 0, 470, 210},  {160, 430, 0, 290, 520, 350, 0, 100},
                                {580, 50, 0, 120, 330, 240, 0, 410},    {30, 470, 0, 360, 190, 560, 0, 280}};
    const Nanos rank5Late[5] = {7'600, 450, 400, 300, 250};  // microseconds behind the latest other rank
    for (std::int64_t seq = 0; seq < 8; ++seq) {
        const Nanos start = (seq + 1) * 100 * kMillisecond;
        const Nanos done = start + 20 * kMillisecond;
        for (std::int32_t rank = 0; rank < 8; ++rank) {
            Nanos arrival = jitter[seq][rank] * kMicrosecond;
            if (seq < 5 && rank == 5) arrival = (600 + rank5Late[seq]) * kMicrosecond;
            if (seq >= 5 && (rank == 2 || rank == 6)) arrival = (600 + 300 + 200 * (rank == 6)) * kMicrosecond;
            run.collectives.push_back({rank, 0, 0, seq, start + arrival, done + 8 * kMillisecond, 1 << 20});
        }
    }
    return run;
}

TEST(StragglerAnalysis, TheRankThatCostMostTimeComesFirst) {
    const faultline::Run run = smallGroupTrace();
    const StragglerReport report = analyzeStragglers(run);
    ASSERT_GE(report.ranks.size(), 3u);
    EXPECT_EQ(report.ranks[0].rank, 5);
    EXPECT_EQ(report.ranks[0].late, 5);  // last at each of the first five
    // The earliest arrival at the first collective waited 8.2 ms for rank 5 (7.6 ms behind
    // the latest other rank, which itself came 0.6 ms after the earliest).
    ASSERT_FALSE(report.ranks[0].evidence.empty());
    EXPECT_EQ(report.ranks[0].evidence[0].lateness, 8'200 * kMicrosecond);
    EXPECT_EQ(report.ranks[0].evidence[0].seq, 0);
    int lastAtTheEnd = 0;
    for (const RankStragglerScore& r : report.ranks) {
        if (r.rank == 6) lastAtTheEnd += r.late;
        if (r.rank != 5) {
            EXPECT_LT(r.totalLateness, report.ranks[0].totalLateness) << "rank " << r.rank;
        }
    }
    EXPECT_EQ(lastAtTheEnd, 3);  // rank 6 was last at the final three
    const std::string text = stragglersToText(report, run);
    EXPECT_LT(text.find("r0000-h0-gpu5"), text.find("r0000-h0-gpu6")) << text;
}

// A thousand all-reduces of four ranks, rank 1 late to each by 1 to 10 ms in turn: the
// analysis shares the instances out among the cores and adds up what each found, so every
// figure must come out as if one core had read them all, and the worst five arrivals (ties
// in waiting broken by the earlier) whichever core read them.
TEST(StragglerAnalysis, FiguresAddUpAcrossTheCoresThatShareTheInstances) {
    faultline::Run run = fourRanksInOneGroup();
    constexpr std::int64_t kInstances = 1000;
    Nanos totalLateness = 0;
    for (std::int64_t seq = 0; seq < kInstances; ++seq) {
        const Nanos start = seq * 100 * kMillisecond;
        const Nanos late = (1 + seq % 10) * kMillisecond;
        totalLateness += late;
        for (std::int32_t rank = 0; rank < 4; ++rank)
            run.collectives.push_back({rank, 0, 0, seq, start + (rank == 1 ? late : 0), start + 20 * kMillisecond, 1 << 20});
    }
    const StragglerReport report = analyzeStragglers(run);
    EXPECT_EQ(report.instances, kInstances);
    EXPECT_EQ(report.skewedInstances, kInstances);
    ASSERT_FALSE(report.ranks.empty());
    const RankStragglerScore& worst = report.ranks.front();
    EXPECT_EQ(worst.rank, 1);
    EXPECT_EQ(worst.collectives, kInstances);
    EXPECT_EQ(worst.late, kInstances);
    EXPECT_EQ(worst.totalLateness, totalLateness);
    // 10 ms late at seq 9, 19, 29, ...: the first five of them, earliest first.
    ASSERT_EQ(worst.evidence.size(), 5u);
    for (std::size_t i = 0; i < 5; ++i) {
        EXPECT_EQ(worst.evidence[i].lateness, 10 * kMillisecond);
        EXPECT_EQ(worst.evidence[i].seq, static_cast<std::int64_t>(9 + 10 * i));
    }
    for (std::size_t i = 1; i < report.ranks.size(); ++i) {
        EXPECT_EQ(report.ranks[i].collectives, kInstances);
        EXPECT_EQ(report.ranks[i].late, 0);
    }
}

// Rank 1 comes 10 ms late to every one of 550,000 all-reduces, after 90 ms of compute since
// its last. Over 2.2 million records, each core adds up the compute of its own run of them,
// and the first of each rank's in a run is finished with where the run before left it: the
// episode's slowdown must count every compute but the very first, which nothing precedes,
// whether the records come in time order or not.
TEST(StragglerAnalysis, ComputeBeforeLateArrivalsAddsUpAcrossTheCoresThatShareTheRecords) {
    faultline::Run run = fourRanksInOneGroup();
    constexpr std::int64_t kInstances = 550'000;
    for (std::int64_t seq = 0; seq < kInstances; ++seq) {
        const Nanos start = seq * 100 * kMillisecond;
        for (std::int32_t rank : {0, 2, 3, 1})
            run.collectives.push_back({rank, 0, 0, seq, start + (rank == 1 ? 10 * kMillisecond : 0), start + 20 * kMillisecond, 1 << 20});
    }
    const Nanos work = 90 * kMillisecond * (kInstances - 1), behind = 10 * kMillisecond * kInstances;
    const double slowdown = static_cast<double>(work) / static_cast<double>(work - behind);
    auto onlyEpisode = [](const faultline::Run& r) {
        const StragglerReport report = analyzeStragglers(r);
        EXPECT_EQ(report.episodes.size(), 1u);
        return report.episodes.empty() ? StragglerEpisode{} : report.episodes.front();
    };
    const StragglerEpisode inTimeOrder = onlyEpisode(run);
    EXPECT_EQ(inTimeOrder.gpu, 1);
    EXPECT_DOUBLE_EQ(inTimeOrder.slowdown, slowdown);
    std::reverse(run.collectives.begin(), run.collectives.end());
    EXPECT_DOUBLE_EQ(onlyEpisode(run).slowdown, slowdown);
}

TEST(StragglerAnalysis, OneRankAndNoTraceAreNotErrors) {
    faultline::Run run = handTrace();
    std::erase_if(run.collectives, [](const CollectiveRecord& r) { return r.rank != 0; });
    const StragglerReport one = analyzeStragglers(run);
    EXPECT_EQ(one.instances, 0);
    EXPECT_TRUE(one.episodes.empty());
    run.collectives.clear();
    EXPECT_EQ(stragglersToText(analyzeStragglers(run), run),
              "No collective records in this run: import collective traces to find stragglers.\n");
}

TEST(StragglerAnalysis, MissingRanksStillBlameTheLateOne) {
    faultline::Run run = handTrace();
    std::erase_if(run.collectives, [](const CollectiveRecord& r) { return r.rank == 1 && r.seq == 2; });
    const StragglerReport report = analyzeStragglers(run);
    EXPECT_EQ(report.ranks.front().rank, 2);
    EXPECT_EQ(report.ranks.front().late, 3);
}

// Precision and recall against the stragglers the simulator planted, over a traced window.
TEST(StragglerAnalysis, FindsPlantedStragglers) {
    SimulationParams p = simulationPreset("tiny");
    p.seed = 11;
    p.stragglersPerDay = 12;
    p.trace = {.ranks = 256, .steps = 1'500, .begin = 6 * kHour};
    const faultline::Run run = simulate(p);
    ASSERT_FALSE(run.collectives.empty());
    const Nanos traceBegin = run.collectives.front().enter - 10 * kMillisecond;
    const Nanos traceEnd = run.collectives.back().exit;

    // Planted: GPUs straggling during the traced window. Recall is judged on those slowed by
    // 5% or more for at least a minute; a find is right if its GPU straggled at all.
    std::set<std::int32_t> planted, clear;
    for (const StragglerEpisode& e : run.stragglers) {
        const Nanos overlap = std::min(e.end, traceEnd) - std::max(e.begin, traceBegin);
        if (overlap > 0) planted.insert(e.gpu);
        if (overlap > kMinute && e.slowdown >= 1.05) clear.insert(e.gpu);
    }
    ASSERT_GE(clear.size(), 2u) << "the seed should plant stragglers in the window";

    std::set<std::int32_t> found;
    const StragglerReport report = analyzeStragglers(run);
    for (const StragglerEpisode& e : report.episodes) found.insert(e.gpu);
    // Where a found episode lies within a planted episode of its GPU, it sizes it.
    int sized = 0;
    for (const StragglerEpisode& e : report.episodes)
        for (const StragglerEpisode& p0 : run.stragglers)
            if (p0.gpu == e.gpu && p0.begin <= e.begin && e.end <= p0.end) {
                EXPECT_NEAR(e.slowdown, p0.slowdown, 0.03) << "GPU " << e.gpu;
                ++sized;
            }
    EXPECT_GT(sized, 0);
    std::size_t right = 0, recalled = 0;
    for (std::int32_t gpu : found) right += planted.count(gpu);
    for (std::int32_t gpu : clear) recalled += found.count(gpu);
    const double precision = found.empty() ? 0.0 : static_cast<double>(right) / static_cast<double>(found.size());
    const double recall = static_cast<double>(recalled) / static_cast<double>(clear.size());
    std::printf("planted %zu (%zu clear), found %zu, precision %.2f, recall %.2f\n", planted.size(), clear.size(), found.size(),
                precision, recall);
    EXPECT_GE(precision, 0.9);
    EXPECT_GE(recall, 0.8);
}

}  // namespace
}  // namespace faultline
