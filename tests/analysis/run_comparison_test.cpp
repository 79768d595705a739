// The comparison of two runs: every figure worked out by hand on two small runs, and
// `faultline-cli compare --json` as a user runs it.
#include "test_runs.h"

#include "analysis/run_comparison.h"
#include "model/run_file.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace faultline {
namespace {

Step step(Nanos at, std::int64_t n, double seconds) { return {at, n, fromSeconds(seconds)}; }

// 10 hours on 16 GPUs: one failure at 2 h (down 7 min, 6 min of work lost), three 10 s saves,
// four steps of 1, 2, 3 and 4 s.
faultline::Run runA() {
    faultline::Run run;
    run.info = {"A", 0, 10 * kHour, "test"};
    run.topology = buildFabric(FabricShape{.gpus = 16});
    run.failures = {{2 * kHour, RootCause::FaultyGpu, {ComponentKind::Gpu, 3}, 79, {3}, "Xid 79"}};
    run.downtimes = {{2 * kHour, 2 * kHour + kMinute, 2 * kHour + 5 * kMinute, 2 * kHour + 7 * kMinute, 6 * kMinute, false,
                      RootCause::FaultyGpu, 0}};
    for (Nanos at : {1 * kHour, 3 * kHour, 5 * kHour}) run.checkpoints.push_back({at, at + 10 * kSecond, 1, 1000, CheckpointKind::Save});
    run.steps = {step(10 * kSecond, 1, 1), step(20 * kSecond, 2, 2), step(30 * kSecond, 3, 3), step(40 * kSecond, 4, 4)};
    return run;
}

// 10 hours on 32 GPUs: two failures (2 h, 6 h), each down 6 min with 10 min lost, no saves,
// steps of 2, 2, 2 and 10 s.
faultline::Run runB() {
    faultline::Run run;
    run.info = {"B", 0, 10 * kHour, "test"};
    run.topology = buildFabric(FabricShape{.gpus = 32});
    run.failures = {{2 * kHour, RootCause::FaultyGpu, {ComponentKind::Gpu, 1}, 79, {1}, "Xid 79"},
                    {6 * kHour, RootCause::SoftwareBug, {ComponentKind::None, -1}, 0, {}, "segfault"}};
    for (int i = 0; i < 2; ++i) {
        const Nanos at = (i == 0 ? 2 : 6) * kHour;
        run.downtimes.push_back({at, at + 2 * kMinute, at + 5 * kMinute, at + 6 * kMinute, 10 * kMinute, false,
                                 run.failures[static_cast<std::size_t>(i)].cause, i});
    }
    run.steps = {step(10 * kSecond, 1, 2), step(20 * kSecond, 2, 2), step(30 * kSecond, 3, 2), step(40 * kSecond, 4, 10)};
    return run;
}

const KpiRow& row(const std::vector<KpiRow>& rows, const std::string& label) {
    for (const KpiRow& r : rows)
        if (r.label == label) return r;
    throw std::runtime_error("no KPI row " + label);
}

TEST(RunComparison, FiguresOfTwoHandMadeRuns) {
    const RunComparison c = compareRuns(runA(), runB());
    // A: 7 min down, 6 min lost, 30 s saving of 600 min. B: 12 min down, 20 min lost.
    EXPECT_DOUBLE_EQ(c.a.ettr, (36000.0 - 420 - 360 - 30) / 36000);
    EXPECT_DOUBLE_EQ(c.b.ettr, (36000.0 - 720 - 1200) / 36000);
    EXPECT_EQ(c.stepsA.mean, fromSeconds(2.5));
    EXPECT_EQ(c.stepsA.median, fromSeconds(2.5));
    EXPECT_EQ(c.stepsA.p95, fromSeconds(4));
    EXPECT_EQ(c.stepsB.mean, fromSeconds(4));
    EXPECT_EQ(c.stepsB.median, fromSeconds(2));
    EXPECT_EQ(c.stepsB.p95, fromSeconds(10));
    // The two saves no downtime separates: 3 h 10 s to 5 h.
    EXPECT_EQ(c.a.checkpointInterval, 2 * kHour - 10 * kSecond);
    EXPECT_EQ(c.b.checkpointInterval, 0);
    // Young/Daly: sqrt(2 x 10 s x 10 h) = sqrt(720,000) s.
    EXPECT_NEAR(toSeconds(c.a.optimalCheckpointInterval), 848.528, 0.001);

    // Per 1,000 GPU-days: A ran 16 x 10/24 GPU-days, B 32 x 10/24.
    ASSERT_EQ(c.causes.size(), 2u);
    EXPECT_EQ(c.causes[0].cause, RootCause::FaultyGpu);
    EXPECT_EQ(c.causes[0].a, 1);
    EXPECT_EQ(c.causes[0].b, 1);
    EXPECT_NEAR(c.causes[0].ratePerKiloGpuDayA, 150.0, 1e-9);
    EXPECT_NEAR(c.causes[0].ratePerKiloGpuDayB, 75.0, 1e-9);
    EXPECT_EQ(c.causes[1].cause, RootCause::SoftwareBug);
    EXPECT_EQ(c.causes[1].a, 0);
    EXPECT_EQ(c.causes[1].b, 1);
}

TEST(RunComparison, RowsSayWhichRunIsBetter) {
    const std::vector<KpiRow> rows = compareRuns(runA(), runB()).rows();
    const KpiRow& ettr = row(rows, "ETTR");
    EXPECT_NEAR(*ettr.delta(), (-720.0 - 1200 + 420 + 360 + 30) / 36000, 1e-12);
    EXPECT_EQ(ettr.verdict(), -1);
    const KpiRow& mtbf = row(rows, "MTBF");
    EXPECT_DOUBLE_EQ(*mtbf.a, 36000);
    EXPECT_DOUBLE_EQ(*mtbf.b, 18000);
    EXPECT_DOUBLE_EQ(*mtbf.relativeDelta(), -0.5);
    EXPECT_EQ(mtbf.verdict(), -1);
    const KpiRow& lost = row(rows, "Downtime: lost work");
    EXPECT_DOUBLE_EQ(*lost.delta(), 840);
    EXPECT_EQ(lost.verdict(), -1);
    EXPECT_EQ(row(rows, "Downtime: checkpoint reload").verdict(), 0);  // 2 min each
    EXPECT_EQ(row(rows, "Step time (median)").verdict(), 1);           // 2 s against 2.5 s
    EXPECT_EQ(row(rows, "Step time (mean)").verdict(), -1);
    EXPECT_DOUBLE_EQ(*row(rows, "Unexpected per 1,000 GPU-days").a, 150);
    EXPECT_DOUBLE_EQ(*row(rows, "Unexpected per 1,000 GPU-days").b, 150);
    EXPECT_FALSE(row(rows, "Checkpoint save (mean)").b.has_value());  // B saved nothing
    EXPECT_FALSE(row(rows, "Checkpoint save (mean)").delta().has_value());
}

// The answer first: A lost 3.6 GPU-hours (13 min down on 16 GPUs, 30 s of saves), B 17.1
// (two 16-minute losses on 32 GPUs): A lost fewer, mostly because B had a software bug.
TEST(RunComparison, TheVerdictSaysWhichRunLostFewerGpuHoursAndWhy) {
    const RunComparison c = compareRuns(runA(), runB());
    EXPECT_NEAR(c.verdict.lostA, 13.0 / 60 * 16 + 30.0 / 3600 * 16, 1e-9);
    EXPECT_NEAR(c.verdict.lostB, 32.0 / 60 * 32, 1e-9);
    EXPECT_FALSE(c.verdict.even);
    ASSERT_EQ(c.verdict.drivers.size(), 2u);
    EXPECT_EQ(c.verdict.drivers[0].part, "Software Bug");
    EXPECT_EQ(c.verdict.drivers[1].part, "Faulty GPU");
    EXPECT_EQ(c.verdict.headline,
              "A lost 13 fewer GPU-hours than B (3.6 vs 17, 78.9% less): mostly Software Bug (+8.5 GPU-h in B) and Faulty GPU (+5.1 GPU-h).");
    EXPECT_EQ(comparisonToText(c).find("A lost 13 fewer GPU-hours than B"), comparisonToText(c).find('\n', comparisonToText(c).find("B  B (")) + 2)
        << "the text leads with the verdict, after the runs' names";
    EXPECT_EQ(comparisonToJson(c)["verdict"]["headline"], c.verdict.headline);
}

// A run against itself: nothing differs, nothing is coloured, and the verdict calls it even.
TEST(RunComparison, IdenticalRunsHaveZeroDeltasAndAnEvenVerdict) {
    const RunComparison c = compareRuns(runA(), runA());
    for (const KpiRow& r : c.rows()) {
        if (r.delta()) {
            EXPECT_EQ(*r.delta(), 0.0) << r.label;
        }
        EXPECT_EQ(r.verdict(), 0) << r.label;
    }
    EXPECT_TRUE(c.verdict.even);
    EXPECT_EQ(c.verdict.headline, "A and B lost about the same: 3.6 and 3.6 GPU-hours (within 1%).");
}

// A difference within a run's own noise (under 1% of the figure) is neither better nor worse.
TEST(RunComparison, DifferencesUnderOnePercentAreNeutral) {
    KpiRow ettr{"ETTR", KpiRow::Unit::Fraction, KpiRow::Better::Higher, 0.9000, 0.9014};
    EXPECT_EQ(ettr.verdict(), 0);
    KpiRow step{"Step time (mean)", KpiRow::Unit::Duration, KpiRow::Better::Lower, 10.000, 10.012};
    EXPECT_EQ(step.verdict(), 0);
    KpiRow worse{"Step time (mean)", KpiRow::Unit::Duration, KpiRow::Better::Lower, 10.0, 10.5};
    EXPECT_EQ(worse.verdict(), -1);
}

TEST(RunComparison, TextNamesBothRunsAndMarksChanges) {
    const std::string text = comparisonToText(compareRuns(runA(), runB()));
    EXPECT_NE(text.find("A  A (16 GPUs"), std::string::npos) << text;
    EXPECT_NE(text.find("B  B (32 GPUs"), std::string::npos) << text;
    EXPECT_NE(text.find("worse"), std::string::npos) << text;
    EXPECT_NE(text.find("Software Bug"), std::string::npos) << text;
}

TEST(RunComparison, CliJsonHasTheDocumentedKeys) {
    test::ScratchDir dir;
    writeRunFile(runA(), dir.file("a.faultline"));
    writeRunFile(runB(), dir.file("b.faultline"));
    const test::CommandResult r =
        test::runCommand(std::string(FAULTLINE_CLI) + " compare --json " + dir.file("a.faultline") + " " + dir.file("b.faultline"), false);
    ASSERT_EQ(r.status, 0) << r.output;
    const nlohmann::json j = nlohmann::json::parse(r.output);
    std::vector<std::string> keys;
    for (const auto& [k, v] : j.items()) keys.push_back(k);
    EXPECT_EQ(keys, (std::vector<std::string>{"a", "b", "causes", "delta", "step_time_s", "verdict"}));
    EXPECT_EQ(j["a"]["gpus"], 16);
    EXPECT_EQ(j["b"]["gpus"], 32);
    const nlohmann::json& d = j["delta"];
    EXPECT_NEAR(d["ettr"].get<double>(), (-720.0 - 1200 + 420 + 360 + 30) / 36000, 1e-12);
    EXPECT_TRUE(d["goodput"].is_number());
    EXPECT_DOUBLE_EQ(d["mtbf_s"].get<double>(), -18000);
    EXPECT_EQ(d["interruptions"]["planned"], 0);
    EXPECT_EQ(d["interruptions"]["unexpected"], 1);
    EXPECT_DOUBLE_EQ(d["downtime_s"]["detection"].get<double>(), 180);
    EXPECT_DOUBLE_EQ(d["downtime_s"]["restart"].get<double>(), 120);
    EXPECT_DOUBLE_EQ(d["downtime_s"]["reload"].get<double>(), 0);
    EXPECT_DOUBLE_EQ(d["downtime_s"]["lost_work"].get<double>(), 840);
    EXPECT_DOUBLE_EQ(d["downtime_s"]["planned"].get<double>(), 0);
    const nlohmann::json& s = j["step_time_s"];
    EXPECT_DOUBLE_EQ(s["mean_a"].get<double>(), 2.5);
    EXPECT_DOUBLE_EQ(s["mean_b"].get<double>(), 4);
    EXPECT_DOUBLE_EQ(s["median_a"].get<double>(), 2.5);
    EXPECT_DOUBLE_EQ(s["median_b"].get<double>(), 2);
    EXPECT_DOUBLE_EQ(s["ratio_mean"].get<double>(), 1.6);
    EXPECT_DOUBLE_EQ(s["ratio_median"].get<double>(), 0.8);
    ASSERT_EQ(j["causes"].size(), 2u);
    EXPECT_EQ(j["causes"][1], (nlohmann::json{{"cause", "software_bug"}, {"a", 0}, {"b", 1}}));
}

TEST(RunComparison, CollectivesSideBySideWhereBothHaveTraces) {
    faultline::Run a = runA(), b = runB();
    EXPECT_FALSE(compareRuns(a, b).collectives.both);
    // Two ranks, one all_reduce each in A (4 and 6 ms inside); B: 10 ms and a broadcast.
    for (faultline::Run* r : {&a, &b}) {
        r->collectiveOps = {"all_reduce", "broadcast"};
        r->processGroups = {{"world", {0, 1}}};
        r->rankToGpu = {0, 1};
    }
    a.collectives = {{0, 0, 0, 1, kSecond, kSecond + 4 * kMillisecond, 64}, {1, 0, 0, 1, kSecond + 2 * kMillisecond, kSecond + 8 * kMillisecond, 64}};
    b.collectives = {{0, 0, 0, 1, kSecond, kSecond + 10 * kMillisecond, 64}, {1, 0, 0, 1, kSecond, kSecond + 10 * kMillisecond, 64},
                     {0, 0, 1, 2, 2 * kSecond, 2 * kSecond + kMillisecond, 8}, {1, 0, 1, 2, 2 * kSecond, 2 * kSecond + kMillisecond, 8}};
    const CollectiveComparison c = compareRuns(a, b).collectives;
    ASSERT_TRUE(c.both);
    ASSERT_EQ(c.kinds.size(), 2u);
    EXPECT_EQ(c.kinds[0].op, "all_reduce");
    EXPECT_EQ(c.kinds[0].meanA, 5 * kMillisecond);
    EXPECT_EQ(c.kinds[0].meanB, 10 * kMillisecond);
    EXPECT_EQ(c.kinds[1].op, "broadcast");
    EXPECT_EQ(c.kinds[1].callsA, 0);
    EXPECT_EQ(c.kinds[1].meanB, kMillisecond);
    EXPECT_EQ(c.lateRanksA, 1);  // rank 1 arrived 2 ms after rank 0
    EXPECT_EQ(c.lateRanksB, 0);
    EXPECT_NE(comparisonToText(compareRuns(a, b)).find("Ranks that arrived late"), std::string::npos);
}

TEST(RunComparison, StepRatiosAreNullWithoutSteps) {
    faultline::Run noSteps = runB();
    noSteps.steps.clear();
    const nlohmann::json j = comparisonToJson(compareRuns(runA(), noSteps));
    EXPECT_TRUE(j["step_time_s"]["mean_b"].is_null());
    EXPECT_TRUE(j["step_time_s"]["ratio_mean"].is_null());
    EXPECT_DOUBLE_EQ(j["step_time_s"]["mean_a"].get<double>(), 2.5);
}

TEST(RunComparison, CliNamesAMissingRunFile) {
    test::ScratchDir dir;
    writeRunFile(runA(), dir.file("a.faultline"));
    const test::CommandResult r =
        test::runCommand(std::string(FAULTLINE_CLI) + " compare " + dir.file("a.faultline") + " " + dir.file("nope.faultline"));
    EXPECT_EQ(r.status, 1) << r.output;
    EXPECT_NE(r.output.find("nope.faultline"), std::string::npos) << r.output;
    EXPECT_EQ(test::runCommand(std::string(FAULTLINE_CLI) + " compare " + dir.file("a.faultline")).status, 2);
}

}  // namespace
}  // namespace faultline
