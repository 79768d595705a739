#include "test_runs.h"

#include "analysis/goodput.h"
#include "simulator/simulator.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace faultline {
namespace {

Nanos partsOf(const GoodputPeriod& p) { return p.productive + p.badput.total(); }

// Two days on 16 GPUs: one failure across midnight, a save cut short by it, a straggler.
faultline::Run twoDayRun() {
    faultline::Run run;
    run.info = {"two days", 0, 2 * kDay, "test"};
    run.topology = buildFabric(FabricShape{.gpus = 16});
    const Nanos fail = kDay - 10 * kMinute;
    run.failures = {{fail, RootCause::FaultyGpu, {ComponentKind::Gpu, 2}, 79, {2}, "Xid 79"}};
    run.downtimes = {{fail, fail + 5 * kMinute, fail + 20 * kMinute, fail + 22 * kMinute, 30 * kMinute, false, RootCause::FaultyGpu, 0}};
    run.checkpoints = {
        {fail - 40 * kMinute, fail - 30 * kMinute, 100, 1, CheckpointKind::Save},  // durable
        {fail - 1 * kMinute, fail + 1 * kMinute, 120, 1, CheckpointKind::Save},    // cut short: lost work
    };
    // Steps of 10 minutes; a 1.25x straggler for the first two hours of day 2.
    for (Nanos t = 10 * kMinute; t <= 2 * kDay; t += 10 * kMinute) run.steps.push_back({t, t / (10 * kMinute), 10 * kMinute});
    run.stragglers = {{5, kDay + 1, kDay + 2 * kHour + 1, 1.25, "thermal throttling"}};
    return run;
}

TEST(Goodput, PartsAddUpToTheWholeAndEachDay) {
    const GoodputLedger ledger = computeGoodput(twoDayRun());
    EXPECT_EQ(partsOf(ledger.whole), 2 * kDay);
    ASSERT_EQ(ledger.days.size(), 2u);
    for (const GoodputPeriod& day : ledger.days) EXPECT_EQ(partsOf(day), kDay);
}

TEST(Goodput, EachKindOfBadputIsCountedOnce) {
    const GoodputLedger ledger = computeGoodput(twoDayRun());
    const Badput& b = ledger.whole.badput;
    EXPECT_EQ(b.detection, 5 * kMinute);
    EXPECT_EQ(b.restart, 15 * kMinute);
    EXPECT_EQ(b.reload, 2 * kMinute);
    EXPECT_EQ(b.lostWork, 30 * kMinute);             // includes the save that was cut short
    EXPECT_EQ(b.checkpointSave, 10 * kMinute);       // only the durable save
    EXPECT_EQ(b.stragglerSlowdown, 2 * kHour / 5);   // 12 steps at 1.25x: a fifth of each
    EXPECT_EQ(b.planned, 0);
    // The failure's downtime straddles midnight: 10 minutes on day 1, 12 on day 2.
    EXPECT_EQ(ledger.days[0].badput.detection + ledger.days[0].badput.restart, 10 * kMinute);
    EXPECT_EQ(ledger.days[1].badput.restart + ledger.days[1].badput.reload, 12 * kMinute);
    EXPECT_EQ(ledger.days[1].badput.stragglerSlowdown, 2 * kHour / 5);
}

TEST(Goodput, EttrCountsStragglerTimeAsTrainingGoodputDoesNot) {
    const GoodputLedger ledger = computeGoodput(twoDayRun());
    const double whole = static_cast<double>(2 * kDay);
    const double badputWithoutStragglers = static_cast<double>((5 + 15 + 2 + 30 + 10) * kMinute);
    EXPECT_DOUBLE_EQ(ledger.whole.ettr(), (whole - badputWithoutStragglers) / whole);
    EXPECT_NEAR(ledger.whole.goodput(), (whole - badputWithoutStragglers - static_cast<double>(2 * kHour / 5)) / whole, 1e-12);
    EXPECT_EQ(ledger.mtbf, 2 * kDay);
    ASSERT_EQ(ledger.mtbfByCause.size(), 1u);
    EXPECT_EQ(ledger.mtbfByCause[0].cause, RootCause::FaultyGpu);
}

TEST(Goodput, SimulatedRunAddsUp) {
    const GoodputLedger ledger = computeGoodput(test::tinyRun());
    EXPECT_EQ(partsOf(ledger.whole), test::tinyRun().info.duration);
    ASSERT_FALSE(ledger.days.empty());
    for (const GoodputPeriod& day : ledger.days) EXPECT_EQ(partsOf(day), day.end - day.begin);
    EXPECT_GT(ledger.whole.badput.stragglerSlowdown, 0);
    EXPECT_GT(ledger.whole.badput.planned, 0);
}

TEST(Goodput, JsonAndText) {
    const GoodputLedger ledger = computeGoodput(twoDayRun());
    const nlohmann::json j = goodputToJson(ledger);
    EXPECT_EQ(j["days"].size(), 2u);
    EXPECT_DOUBLE_EQ(j["badput_s"]["lost_work"].get<double>(), 1800.0);
    EXPECT_DOUBLE_EQ(j["ettr"].get<double>(), ledger.whole.ettr());
    EXPECT_NE(goodputToText(ledger).find("Lost work (redone)"), std::string::npos);
}

}  // namespace
}  // namespace faultline
