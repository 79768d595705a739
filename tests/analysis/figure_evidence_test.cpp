// One rule for every summary figure: a minute of crash log or 18 ms of Flight Recorder dumps
// gives no ETTR, MTBF or downtime share, only the reason and what would make it known; the
// 54-day sample run gives every figure.
#include "test_runs.h"

#include "analysis/figure_evidence.h"
#include "analysis/run_highlights.h"
#include "analysis/summary.h"
#include "simulator/simulator.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace faultline {
namespace {

using test::eighteenMillisecondHang;
using test::oneMinuteCrash;

void expectNoFigures(const Run& run, const std::string& held) {
    const RunSummary s = summarize(run);
    for (const SummaryFigure f : {SummaryFigure::Ettr, SummaryFigure::Goodput, SummaryFigure::Mtbf, SummaryFigure::DowntimeShares})
        EXPECT_FALSE(s.known(f)) << summaryFigureKey(f);
    EXPECT_FALSE(s.ettrKnown);

    const nlohmann::json j = summaryToJson(s);
    EXPECT_TRUE(j["ettr"].is_null());
    EXPECT_TRUE(j["goodput"].is_null());
    EXPECT_TRUE(j["mtbf_s"].is_null());
    EXPECT_TRUE(j["downtime_s"]["detection"].is_null());
    EXPECT_EQ(j["figures"]["mtbf"]["reason"],
              "not enough of the run to say: needs at least two unexpected failures over at least a day of run (the files hold " + held + ")");
    EXPECT_NE(j["figures"]["ettr"]["reason"].get<std::string>().find("needs training steps or job spans covering at least half of a run of an hour"),
              std::string::npos);

    const std::string text = summaryToText(s);
    EXPECT_NE(text.find("Effective training time      not enough of the run to say"), std::string::npos) << text;
    EXPECT_NE(text.find("Mean time between failures   not enough of the run to say"), std::string::npos) << text;
    EXPECT_NE(text.find("Downtime                     not enough of the run to say"), std::string::npos) << text;
    EXPECT_EQ(text.find("ETTR "), std::string::npos) << text;  // nor in the ledger's last line
    // The highlights count the failure but give it no rate.
    for (const std::string& line : runHighlights(run, s, analyzeStragglers(run))) {
        EXPECT_EQ(line.find("one every"), std::string::npos) << line;
        EXPECT_EQ(line.find("Effective training time"), std::string::npos) << line;
    }
}

TEST(FigureEvidence, AOneMinuteCrashGivesNoFigureButTheReason) {
    expectNoFigures(oneMinuteCrash(), "1 unexpected failure in 1 min");
    const RunSummary s = summarize(oneMinuteCrash());
    EXPECT_EQ(s.evidenceFor(SummaryFigure::Ettr).missing, "a run of 1 min");
    EXPECT_EQ(s.evidenceFor(SummaryFigure::CheckpointInterval).missing, "no checkpoint saves");
}

TEST(FigureEvidence, AnEighteenMillisecondHangGivesNoFigureButTheReason) {
    expectNoFigures(eighteenMillisecondHang(), "1 unexpected failure in 18 ms");
    EXPECT_EQ(summarize(eighteenMillisecondHang()).evidenceFor(SummaryFigure::DowntimeShares).missing,
              "a run of 18 ms with no training steps or job spans");
}

TEST(FigureEvidence, ThresholdsAreTheOnesSaid) {
    EvidenceBasis b;
    b.duration = kHour;
    b.trainingCovered = kHour / 2;
    b.hasSteps = true;
    b.timeAccounted = true;
    EXPECT_TRUE(figureEvidence(SummaryFigure::Ettr, b).known);  // half of an hour
    b.trainingCovered = kHour / 2 - 1;
    EXPECT_FALSE(figureEvidence(SummaryFigure::Ettr, b).known);
    EXPECT_TRUE(figureEvidence(SummaryFigure::DowntimeShares, b).known);  // any training in an hour
    b.duration = kHour - 1;
    EXPECT_FALSE(figureEvidence(SummaryFigure::DowntimeShares, b).known);

    b.duration = kDay;
    b.unexpected = 2;
    EXPECT_TRUE(figureEvidence(SummaryFigure::Mtbf, b).known);
    EXPECT_FALSE(figureEvidence(SummaryFigure::YoungDaly, b).known);  // no saves
    b.saves = 1;
    EXPECT_TRUE(figureEvidence(SummaryFigure::YoungDaly, b).known);
    b.unexpected = 1;
    EXPECT_FALSE(figureEvidence(SummaryFigure::Mtbf, b).known);
    b.unexpected = 2;
    b.duration = kDay - 1;
    EXPECT_FALSE(figureEvidence(SummaryFigure::Mtbf, b).known);
    // Every figure says what it needs, known or not.
    for (const SummaryFigure f : kSummaryFigures) EXPECT_FALSE(figureEvidence(f, b).needs.empty()) << summaryFigureKey(f);
}

TEST(FigureEvidence, JobSpansCountOnceAndOnlyInsideTheRun) {
    faultline::Run run;
    run.info = {"jobs", 0, 4 * kHour, "import"};
    Job a, b, other;
    a.inRun = b.inRun = true;
    a.start = -kHour;  // submitted before the run's first event
    a.end = kHour;
    b.start = kHour / 2;  // overlaps a
    b.end = 2 * kHour;
    other.start = 2 * kHour;  // a job that did not train this run
    other.end = 4 * kHour;
    run.jobs = {a, b, other};
    const EvidenceBasis basis = evidenceBasis(run, 0, 0, false, true);
    EXPECT_TRUE(basis.hasJobSpans);
    EXPECT_EQ(basis.trainingCovered, 2 * kHour);
}

// The 54-day sample run the app opens first: every figure is known.
TEST(FigureEvidence, TheSampleRunShowsEveryFigure) {
    SimulationParams p = simulationPreset("llama3-405b");
    p.seed = 1;
    p.telemetry.interval = 0;  // the figures do not read it
    const RunSummary s = summarize(simulate(p));
    for (const SummaryFigure f : kSummaryFigures) EXPECT_TRUE(s.known(f)) << summaryFigureKey(f) << ": " << unknownFigureText(s.evidenceFor(f));
    EXPECT_TRUE(unknownFigureNotes(s).empty());
    const nlohmann::json j = summaryToJson(s);
    for (const char* key : {"ettr", "goodput", "mtbf_s", "checkpoint_interval_s", "optimal_checkpoint_interval_s"})
        EXPECT_TRUE(j[key].is_number()) << key;
    EXPECT_TRUE(j["downtime_s"]["detection"].is_number());
}

}  // namespace
}  // namespace faultline
