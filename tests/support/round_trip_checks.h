#pragma once
// A simulated run and the run imported from the files it left: the figures a reviewer compares
// must agree (the importers' round-trip tests and the CLI's, which runs the same through
// faultline-cli). Needs faultline_analysis.
#include "analysis/summary.h"
#include "model/run.h"

#include <gtest/gtest.h>

#include <cmath>

namespace faultline::test {

inline int causeCount(const RunSummary& s, RootCause cause) {
    for (const CauseCount& c : s.causes)
        if (c.cause == cause) return c.count;
    return 0;
}

inline void expectWithin5Percent(Nanos simulated, Nanos imported, const char* what) {
    EXPECT_LE(std::abs(toSeconds(imported) - toSeconds(simulated)), 0.05 * toSeconds(simulated))
        << what << ": simulated " << toSeconds(simulated) << " s, imported " << toSeconds(imported) << " s";
}

// What a reviewer compares: interruptions, causes, ETTR, where the downtime went, checkpoints.
inline void expectSameFigures(const Run& simulated, const Run& imported) {
    const RunSummary a = summarize(simulated);
    const RunSummary b = summarize(imported);
    EXPECT_EQ(b.gpus, a.gpus);
    EXPECT_EQ(b.planned, a.planned);
    EXPECT_EQ(b.unexpected, a.unexpected);
    for (int c = 0; c < kRootCauseCount; ++c) {
        const auto cause = static_cast<RootCause>(c);
        EXPECT_LE(std::abs(causeCount(b, cause) - causeCount(a, cause)), 1) << rootCauseLabel(cause);
    }
    ASSERT_TRUE(b.ettrKnown);
    EXPECT_NEAR(b.ettr * 100, a.ettr * 100, 0.5);
    expectWithin5Percent(a.downtime.detection, b.downtime.detection, "detection");
    expectWithin5Percent(a.downtime.restart, b.downtime.restart, "restart");
    expectWithin5Percent(a.downtime.reload, b.downtime.reload, "checkpoint reload");
    expectWithin5Percent(a.downtime.lostWork, b.downtime.lostWork, "lost work");
    expectWithin5Percent(a.downtime.planned, b.downtime.planned, "planned maintenance");
    EXPECT_EQ(b.checkpoints, a.checkpoints);
}

}  // namespace faultline::test
