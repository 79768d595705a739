// The comparison of two runs: every figure worked out by hand on two small runs, and
// `faultline-cli compare --json` as a user runs it.
#include "test_runs.h"

#include "analysis/run_comparison.h"
#include "model/run_file.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>

namespace faultline {
namespace {

using test::comparisonRunA;
using test::comparisonRunB;

const KpiRow& row(const std::vector<KpiRow>& rows, const std::string& label) {
    for (const KpiRow& r : rows)
        if (r.label == label) return r;
    throw std::runtime_error("no KPI row " + label);
}

TEST(RunComparison, FiguresOfTwoHandMadeRuns) {
    const RunComparison c = compareRuns(comparisonRunA(), comparisonRunB());
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
    const std::vector<KpiRow> rows = compareRuns(comparisonRunA(), comparisonRunB()).rows();
    const KpiRow& ettr = row(rows, "ETTR");
    EXPECT_NEAR(*ettr.delta(), (-720.0 - 1200 + 420 + 360 + 30) / 36000, 1e-12);
    EXPECT_EQ(ettr.verdict(), -1);
    const KpiRow& mtbf = row(rows, "MTBF");
    EXPECT_DOUBLE_EQ(*mtbf.a, 36000);
    EXPECT_DOUBLE_EQ(*mtbf.b, 18000);
    // Ten hours each: MTBF needs a day of evidence, so neither side says it (figure_evidence).
    EXPECT_FALSE(mtbf.knownA);
    EXPECT_FALSE(mtbf.knownB);
    EXPECT_FALSE(mtbf.relativeDelta());
    EXPECT_EQ(mtbf.verdict(), 0);
    const KpiRow& lost = row(rows, "Downtime: lost work");
    EXPECT_DOUBLE_EQ(*lost.delta(), 840);
    EXPECT_EQ(lost.verdict(), -1);
    EXPECT_EQ(row(rows, "Downtime: checkpoint reload").verdict(), 0);  // 2 min each
    EXPECT_EQ(row(rows, "Step time (median)").verdict(), 1);           // 2 s against 2.5 s
    EXPECT_EQ(row(rows, "Step time (mean)").verdict(), -1);
    // Rates need a day of run as MTBF does (rateEvidence): ten hours say none, and the counts'
    // difference gets no percentage or verdict.
    EXPECT_FALSE(row(rows, "Unexpected per 1,000 GPU-days").a.has_value());
    EXPECT_FALSE(row(rows, "Unexpected per 1,000 GPU-days").knownB);
    EXPECT_FALSE(row(rows, "Unexpected interruptions").comparable);
    EXPECT_EQ(row(rows, "Unexpected interruptions").verdict(), 0);
    EXPECT_FALSE(row(rows, "Checkpoint save (mean)").b.has_value());  // B saved nothing
    EXPECT_FALSE(row(rows, "Checkpoint save (mean)").delta().has_value());
}

// The answer first: A lost 3.6 GPU-hours (13 min down on 16 GPUs, 30 s of saves), B 17.1
// (two 16-minute losses on 32 GPUs): A lost fewer, mostly because B had a software bug.
TEST(RunComparison, TheVerdictSaysWhichRunLostFewerGpuHoursAndWhy) {
    const RunComparison c = compareRuns(comparisonRunA(), comparisonRunB());
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
    const RunComparison c = compareRuns(comparisonRunA(), comparisonRunA());
    ASSERT_FALSE(c.rows().empty());
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
    const std::string text = comparisonToText(compareRuns(comparisonRunA(), comparisonRunB()));
    EXPECT_NE(text.find("A  A (16 GPUs"), std::string::npos) << text;
    EXPECT_NE(text.find("B  B (32 GPUs"), std::string::npos) << text;
    EXPECT_NE(text.find("worse"), std::string::npos) << text;
    EXPECT_NE(text.find("Software Bug"), std::string::npos) << text;
}

TEST(RunComparison, CollectivesSideBySideWhereBothHaveTraces) {
    faultline::Run a = comparisonRunA(), b = comparisonRunB();
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
    faultline::Run noSteps = comparisonRunB();
    noSteps.steps.clear();
    const nlohmann::json j = comparisonToJson(compareRuns(comparisonRunA(), noSteps));
    EXPECT_TRUE(j["step_time_s"]["mean_b"].is_null());
    EXPECT_TRUE(j["step_time_s"]["ratio_mean"].is_null());
    EXPECT_DOUBLE_EQ(j["step_time_s"]["mean_a"].get<double>(), 2.5);
}

// A minute of crash log beside a run with a history: its MTBF, downtime and ETTR rows say "not
// enough of the run to say" (the one evidence rule), never "MTBF 0 s", and no difference is
// given; the run with the evidence keeps its figures.
TEST(RunComparison, ASideWithoutTheEvidenceSaysNotEnoughOfTheRunToSay) {
    const RunComparison c = compareRuns(test::oneMinuteCrash(), test::tinyRun());
    const std::vector<KpiTableRow> table = kpiTable(c);
    for (const char* label : {"ETTR", "Goodput", "MTBF", "Downtime: detection", "Downtime: restart", "Downtime: lost work"}) {
        SCOPED_TRACE(label);
        const auto it = std::find_if(table.begin(), table.end(), [&](const KpiTableRow& r) { return r.label == label; });
        ASSERT_NE(it, table.end());
        EXPECT_EQ(it->a, kNotEnoughToSay);
        EXPECT_NE(it->b, kNotEnoughToSay);
        EXPECT_NE(it->b, "-");
        EXPECT_EQ(it->delta, "-");
        EXPECT_EQ(it->verdict, "");
    }
    const nlohmann::json j = comparisonToJson(c);
    EXPECT_TRUE(j["delta"]["mtbf_s"].is_null());
    EXPECT_TRUE(j["delta"]["downtime_s"].is_null());
    const std::string text = comparisonToText(c);
    const std::size_t mtbf = text.find("\nMTBF ");
    ASSERT_NE(mtbf, std::string::npos) << text;
    EXPECT_NE(text.substr(mtbf, text.find('\n', mtbf + 1) - mtbf).find(kNotEnoughToSay), std::string::npos) << text;
}

// Rates per 1,000 GPU-days need GPU-days: a minute of crash log has none to speak of, so its
// rate is "not enough of the run to say", and its count of interruptions set beside a two-day
// run's has no percentage and no "worse" (it was "+1500% worse").
TEST(RunComparison, RatesAndTheirDifferencesNeedGpuDays) {
    const RunComparison c = compareRuns(test::oneMinuteCrash(), test::tinyRun());
    const std::vector<KpiTableRow> table = kpiTable(c);
    auto find = [&table](const std::string& label) {
        const auto it = std::find_if(table.begin(), table.end(), [&](const KpiTableRow& r) { return r.label == label; });
        if (it == table.end()) throw std::runtime_error("no row " + label);
        return *it;
    };
    const KpiTableRow rate = find("Unexpected per 1,000 GPU-days");
    EXPECT_EQ(rate.a, kNotEnoughToSay);
    EXPECT_NE(rate.b, kNotEnoughToSay);
    EXPECT_EQ(rate.delta, "-");
    EXPECT_EQ(rate.change, "-");
    EXPECT_EQ(rate.verdict, "");
    for (const char* label : {"Unexpected interruptions", "Planned interruptions"}) {
        const KpiTableRow count = find(label);
        EXPECT_NE(count.a, kNotEnoughToSay) << label << ": a count is a fact";
        EXPECT_EQ(count.change, "-") << label;
        EXPECT_EQ(count.verdict, "") << label;
    }
    ASSERT_FALSE(c.causes.empty());
    for (const CauseComparison& x : c.causes) {
        EXPECT_FALSE(x.rateKnownA);
        EXPECT_TRUE(x.rateKnownB);
        EXPECT_EQ(rateCell(x.rateKnownA, x.ratePerKiloGpuDayA), kNotEnoughToSay);
    }
    // Two runs with the GPU-days: the rows as before.
    const RunComparison both = compareRuns(test::tinyRun(), test::tinyRun());
    for (const KpiTableRow& r : kpiTable(both)) {
        if (r.label == "Unexpected per 1,000 GPU-days") {
            EXPECT_NE(r.a, kNotEnoughToSay);
        }
    }
}

// A crash log beside a run with a history: the crash's GPU-hours lost rest on no evidence of how
// its time was spent, so the verdict says what each run is and that their losses cannot be
// compared, never "A lost 2,212,865 fewer GPU-hours"; every loss of A reads "not enough of the run
// to say" in the text and is null in the JSON, and no difference is given.
TEST(RunComparison, AVerdictBuiltOnAFigureOneSideCannotSupportIsNotGiven) {
    const RunComparison c = compareRuns(test::oneMinuteCrash(), comparisonRunB());
    const ComparisonVerdict& v = c.verdict;
    EXPECT_FALSE(v.knownA);
    EXPECT_TRUE(v.knownB);
    EXPECT_FALSE(v.comparable());
    EXPECT_TRUE(v.drivers.empty());
    EXPECT_EQ(v.headline,
              "A is a short record of 1 incident (1 min of evidence); B is a run of 10 h on 32 GPUs: their goodput and losses cannot be "
              "compared (a loss needs training steps or job spans covering at least half of a run of an hour or more).");
    EXPECT_EQ(v.headline.find("fewer"), std::string::npos);

    const std::string text = comparisonToText(c);
    EXPECT_NE(text.find("\n" + v.headline + "\n"), std::string::npos) << text;
    const std::size_t network = text.find("\n  Network ");
    ASSERT_NE(network, std::string::npos) << text;
    const std::string networkRow = text.substr(network, text.find('\n', network + 1) - network);
    EXPECT_NE(networkRow.find(kNotEnoughToSay), std::string::npos) << networkRow;
    EXPECT_EQ(networkRow.find('+'), std::string::npos) << "no difference from an unknown loss: " << networkRow;

    const nlohmann::json j = comparisonToJson(c)["verdict"];
    EXPECT_EQ(j["headline"], v.headline);
    EXPECT_FALSE(j["comparable"].get<bool>());
    EXPECT_TRUE(j["lost_gpu_hours_a"].is_null());
    EXPECT_DOUBLE_EQ(j["lost_gpu_hours_b"].get<double>(), v.lostB);
    for (const nlohmann::json& g : j["groups"]) {
        EXPECT_TRUE(g["a"].is_null()) << g.dump();
        EXPECT_TRUE(g["delta"].is_null()) << g.dump();
    }
    // The other way round, the same words with the sides swapped.
    const ComparisonVerdict swapped = compareRuns(comparisonRunB(), test::oneMinuteCrash()).verdict;
    EXPECT_TRUE(swapped.headline.starts_with("A is a run of 10 h on 32 GPUs; B is a short record of 1 incident")) << swapped.headline;
}

}  // namespace
}  // namespace faultline
