// The caption strip's "ETTR so far" is the run's ETTR from its start up to the frame's
// instant: a video once held it at the last whole day's figure (90.9%) through a day whose
// own ETTR was 88.5%.
#include "test_runs.h"

#include "analysis/goodput.h"
#include "exports/run_caption.h"
#include "model/format.h"

#include <gtest/gtest.h>

namespace faultline {
namespace {

// The ledger of the run cut at t: what "so far" means, worked out apart from the caption.
double ettrOfTheRunCutAt(const Run& run, Nanos t) {
    Run cut = run;
    cut.info.duration = t;
    return computeGoodput(cut).whole.ettr();
}

TEST(EttrSoFar, IsTheRunsEttrUpToTheInstant) {
    const faultline::Run& run = test::tinyRun();
    const EttrSoFar ettr(run);
    ASSERT_FALSE(run.downtimes.empty());
    // Through every downtime of the run, and the instants between.
    std::vector<Nanos> instants;
    for (const Downtime& d : run.downtimes)
        for (const Nanos t : {d.begin, d.detected + (d.end - d.detected) / 2, d.end, d.end + kHour}) instants.push_back(t);
    for (int k = 1; k <= 20; ++k) instants.push_back(run.info.duration * k / 20);
    for (const Nanos t : instants) {
        if (t <= 0 || t > run.info.duration) continue;
        const std::optional<double> got = ettr.at(t);
        ASSERT_TRUE(got.has_value());
        EXPECT_NEAR(*got, ettrOfTheRunCutAt(run, t), 1e-3) << "at " << formatDuration(t);
    }
}

TEST(EttrSoFar, FallsThroughADowntimeInsideADay) {
    const faultline::Run& run = test::tinyRun();
    const EttrSoFar ettr(run);
    const Downtime& d = run.downtimes.front();
    ASSERT_LT(d.begin / kDay, run.info.duration / kDay) << "a downtime before the run's last day";
    // Down for minutes: the figure at its end is below the one at its start.
    EXPECT_LT(*ettr.at(d.end), *ettr.at(d.begin) - 1e-5);
}

TEST(RunCaption, SaysTheEttrSoFarAtTheInstant) {
    const faultline::Run& run = test::tinyRun();
    const EttrSoFar ettr(run);
    const ReplayIndex replay(run);
    const Downtime& d = run.downtimes.front();
    const RunCaption c = captionAt(run, replay, ettr, d.end);
    EXPECT_EQ(c.ettr, QString("ETTR so far ") + QString::fromStdString(formatPercent(ettrOfTheRunCutAt(run, d.end))));
}

TEST(EttrSoFar, UnknownWhereTheRunDoesNotSayHowItsTimeWasSpent) {
    faultline::Run run;
    run.info.duration = kHour;
    EXPECT_FALSE(EttrSoFar(run).at(kMinute).has_value());
    EXPECT_TRUE(captionAt(run, ReplayIndex(run), EttrSoFar(run), kMinute).ettr.isEmpty());
}

}  // namespace
}  // namespace faultline
