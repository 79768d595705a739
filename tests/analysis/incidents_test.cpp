#include "test_runs.h"

#include "analysis/incidents.h"
#include "analysis/repeat_offenders.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace faultline {
namespace {

faultline::Run oneFailureRun() {
    faultline::Run run;
    run.info = {"one failure", 0, 10 * kHour, "test"};
    run.topology = buildFabric(FabricShape{.gpus = 16});
    run.failures = {{2 * kHour, RootCause::GpuHbm3Memory, {ComponentKind::Gpu, 11}, 48, {11}, "Xid 48 on r0000-h1-gpu3: double-bit ECC error"}};
    run.downtimes = {{2 * kHour, 2 * kHour + kMinute, 2 * kHour + 5 * kMinute, 2 * kHour + 7 * kMinute, 9 * kMinute, false,
                      RootCause::GpuHbm3Memory, 0}};
    run.checkpoints = {{2 * kHour - 10 * kMinute, 2 * kHour - 9 * kMinute, 1190, 5'670'000'000'000, CheckpointKind::Save},
                       {2 * kHour + 5 * kMinute, 2 * kHour + 7 * kMinute, 1190, 5'670'000'000'000, CheckpointKind::Load}};
    for (std::int64_t s = 1; s <= 1200; ++s) run.steps.push_back({s * 6 * kSecond, s, 6 * kSecond});
    return run;
}

TEST(Incidents, ChainFromSymptomToResume) {
    const auto incidents = buildIncidents(oneFailureRun());
    ASSERT_EQ(incidents.size(), 1u);
    const Incident& inc = incidents[0];
    EXPECT_EQ(inc.id, 1);
    EXPECT_EQ(inc.cause, RootCause::GpuHbm3Memory);
    EXPECT_EQ(inc.xid, 48);
    EXPECT_EQ(inc.hardware, "r0000-h1-gpu3 (0000:5d:00.0)");
    EXPECT_EQ(inc.detection, kMinute);
    EXPECT_EQ(inc.restart, 4 * kMinute);
    EXPECT_EQ(inc.reload, 2 * kMinute);
    EXPECT_EQ(inc.lostWork, 9 * kMinute);
    EXPECT_EQ(inc.timeToRecover, 7 * kMinute);
    EXPECT_EQ(inc.stepAtFailure, 1200);
    EXPECT_EQ(inc.resumedFromStep, 1190);
    std::vector<std::string> chain;
    for (const IncidentEvent& e : inc.chain) chain.push_back(e.what);
    const std::vector<std::string> expected = {
        "last durable checkpoint: step 1190, 9 min before the failure",
        "first symptom: Xid 48 on r0000-h1-gpu3: double-bit ECC error",
        "job stopped making progress",
        "failure detected, job torn down (1 min after the symptom)",
        "job relaunched with the failed hardware replaced; loading the checkpoint of step 1190 (5.7 TB)",
        "training resumed from step 1190",
    };
    EXPECT_EQ(chain, expected);
    EXPECT_EQ(inc.headline, "GPU HBM3 Memory (Xid 48) on r0000-h1-gpu3 (0000:5d:00.0): down 7 min, 9 min of work lost");
    // Its cost: every GPU of the cluster idle 7 minutes, and 9 minutes of their work redone.
    const double gpus = static_cast<double>(oneFailureRun().topology.gpus.size());
    ASSERT_TRUE(inc.gpuHoursLost);
    EXPECT_DOUBLE_EQ(*inc.gpuHoursLost, gpus * 16.0 / 60.0);
    EXPECT_NE(incidentsToText(incidents, oneFailureRun().info).find("GPU-h lost"), std::string::npos);
    EXPECT_EQ(incidentsToJson(incidents, oneFailureRun().info)[0]["gpu_hours_lost"], *inc.gpuHoursLost);
}

// GPU 11 failed three times (at 1 h, 3 h and 3 h 30), GPU 2 of the other host in its rack
// once: GPU 11 and its host are repeat offenders, and so is the rack (two hosts hit); GPU 2
// is not. A failure of a whole host names each of its GPUs, none of which it blames.
// Lost work is a downtime figure: a minute of crash log supports none, so every list of the
// CLI says "unknown" (JSON null), as the app's list does; a run with a history keeps its figure.
TEST(Incidents, LostWorkTheEvidenceCannotSupportIsUnknownInEveryList) {
    const faultline::Run crash = test::oneMinuteCrash();
    const std::vector<Incident> incidents = buildIncidents(crash);
    ASSERT_FALSE(incidents.empty());
    EXPECT_FALSE(incidents.front().lostWorkKnown);
    EXPECT_TRUE(incidentsToJson(incidents, crash.info)[0]["lost_work_s"].is_null());
    const std::string text = incidentsToText(incidents, crash.info);
    const std::string row = text.substr(text.find('\n') + 1);
    EXPECT_NE(row.find(" unknown "), std::string::npos) << text;
    EXPECT_EQ(row.find(" 0 s "), std::string::npos) << text;
    const std::vector<Incident> long_ = buildIncidents(test::tinyRun());
    ASSERT_FALSE(long_.empty());
    EXPECT_TRUE(long_.front().lostWorkKnown);
    EXPECT_TRUE(incidentsToJson(long_, test::tinyRun().info)[0]["lost_work_s"].is_number());
}

TEST(Incidents, RepeatOffendersAreThePartsThatFailAgain) {
    faultline::Run run = oneFailureRun();
    const Failure again{0, RootCause::FaultyGpu, {ComponentKind::Gpu, 11}, 79, {11}, "Xid 79"};
    run.downtimes.clear();
    run.failures = {again, again, again, {0, RootCause::GpuSramMemory, {ComponentKind::Gpu, 2}, 94, {2}, "Xid 94"}};
    run.failures[0].time = kHour;
    run.failures[1].time = 3 * kHour;
    run.failures[2].time = 3 * kHour + 30 * kMinute;
    run.failures[3].time = 4 * kHour;
    const std::vector<RepeatOffender> offenders = findRepeatOffenders(run);
    ASSERT_EQ(offenders.size(), 3u);
    EXPECT_EQ(offenders[0].level, OffenderLevel::Rack);  // four failures, the shortest gap 30 min
    EXPECT_EQ(offenders[0].failures.size(), 4u);
    EXPECT_EQ(offenders[1].level, OffenderLevel::Gpu);
    EXPECT_EQ(offenders[1].name, run.topology.gpuName(11));
    EXPECT_EQ(offenders[1].failures, (std::vector<std::int32_t>{0, 1, 2}));
    EXPECT_EQ(offenders[1].shortestGap, 30 * kMinute);
    EXPECT_EQ(offenders[1].meanGap, (2 * kHour + 30 * kMinute) / 2);
    EXPECT_EQ(offenders[2].level, OffenderLevel::Host);
    EXPECT_EQ(offenders[2].name, run.topology.hosts[static_cast<std::size_t>(run.topology.gpus[11].host)].name);
    const std::string text = repeatOffendersToText(offenders, run);
    EXPECT_NE(text.find("Faulty GPU x3"), std::string::npos) << text;
    EXPECT_EQ(repeatOffendersToJson(offenders, run)[1]["shortest_gap_s"], 1800.0);
    EXPECT_EQ(repeatOffendersToText({}, run), "No GPU, host, rack or switch failed more than once in this run.\n");
}

TEST(Incidents, FailureWithoutDowntimeIsASymptomOnly) {
    faultline::Run run = oneFailureRun();
    run.failures.push_back({kHour, RootCause::Nic, {ComponentKind::Nic, 3}, 0, {3}, "NIC port down"});
    const auto incidents = buildIncidents(run);
    ASSERT_EQ(incidents.size(), 2u);
    EXPECT_EQ(incidents[0].cause, RootCause::Nic);  // earlier, so first
    EXPECT_FALSE(incidents[0].end.has_value());
    EXPECT_EQ(incidents[0].hardware, "r0000-h0-nic3");
    EXPECT_EQ(incidents[1].id, 2);
}

// A network cause names a switch or cable only where the evidence names that hardware.
TEST(Incidents, ANetworkCauseNamesNoLinkTheEvidenceDoesNotName) {
    faultline::Run run = oneFailureRun();
    run.failures.push_back({kHour, RootCause::NetworkSwitchCable, {ComponentKind::Gpu, 3}, 0, {3}, "NCCL WARN NET/IB : Got completion with error 12"});
    ASSERT_FALSE(run.topology.links.empty());
    run.failures.push_back({3 * kHour, RootCause::NetworkSwitchCable, {ComponentKind::Link, 0}, 0, {0}, "port counter: link down"});
    const auto incidents = buildIncidents(run);
    ASSERT_EQ(incidents.size(), 3u);
    EXPECT_EQ(incidents[0].causeLabel, "Network (which link is unknown)");
    EXPECT_EQ(incidents[0].headline.rfind("Network (which link is unknown) on ", 0), 0u) << incidents[0].headline;
    EXPECT_NE(incidentsToText(incidents, run.info).find("Network (which link is"), std::string::npos);
    EXPECT_EQ(incidentsToJson(incidents, run.info)[0]["cause_label"], "Network (which link is unknown)");
    EXPECT_EQ(incidentsToJson(incidents, run.info)[0]["cause"], "network_switch_cable");  // the key still counts it in the table
    EXPECT_EQ(incidents[1].causeLabel, "GPU HBM3 Memory");
    EXPECT_EQ(incidents[2].causeLabel, "Network Switch/Cable");  // the cable is named
}

TEST(Incidents, RecoveryCutShortByTheNextFailure) {
    faultline::Run run = oneFailureRun();
    run.checkpoints.pop_back();
    run.downtimes[0].end = run.downtimes[0].restarted;
    run.failures.push_back({run.downtimes[0].end, RootCause::SoftwareBug, {}, 0, {}, "crash"});
    run.downtimes.push_back({run.downtimes[0].end, run.downtimes[0].end + kMinute, run.downtimes[0].end + 2 * kMinute,
                             run.downtimes[0].end + 3 * kMinute, 0, false, RootCause::SoftwareBug, 1});
    const auto incidents = buildIncidents(run);
    ASSERT_EQ(incidents.size(), 2u);
    EXPECT_FALSE(incidents[0].end.has_value());
    EXPECT_EQ(incidents[0].chain.back().what, "recovery interrupted by the next failure");
    EXPECT_TRUE(incidents[1].end.has_value());
}

TEST(Incidents, EverySimulatedInterruptionIsAnIncident) {
    const faultline::Run& run = test::tinyRun();
    const auto incidents = buildIncidents(run);
    EXPECT_EQ(incidents.size(), run.downtimes.size());
    for (const Incident& inc : incidents) {
        EXPECT_GE(inc.chain.size(), 3u);
        if (!inc.gpus.empty()) {
            EXPECT_FALSE(inc.hardware.empty()) << inc.headline;
        }
    }
    const nlohmann::json j = incidentsToJson(incidents, run.info);
    EXPECT_EQ(j.size(), incidents.size());
    EXPECT_EQ(j[0]["id"], 1);
    EXPECT_TRUE(j[0].contains("chain"));
}

// Who, as a console log tells it: reporters and suspects of a failure, with why they are
// suspected (torchrun's root-cause host and exit code; the ranks of a collective that said nothing).
TEST(Incidents, SuspectsComeWithWhyTheyAreSuspected) {
    faultline::Run run = oneFailureRun();
    Failure& f = run.failures[0];
    f.ranks = {0, 1, 2, 4};
    f.suspectRanks = {3};
    f.detail = "CUDA error: an illegal memory access was encountered; torchrun's root cause: rank 3 on node7, exit code -6 (SIGABRT) at "
               "2024-03-05T10:00:00Z (time inferred from the lines around it)";
    EXPECT_EQ(suspectReasonOf(f), "rank 3 on node7, exit code -6 (SIGABRT) at 2024-03-05T10:00:00Z");
    const auto incidents = buildIncidents(run);
    ASSERT_EQ(incidents.size(), 1u);
    EXPECT_EQ(incidents[0].suspectReason, suspectReasonOf(f));
    EXPECT_NE(incidentChainToText(incidents[0], run.info).find("  suspect ranks 3 (rank 3 on node7, exit code -6 (SIGABRT)"), std::string::npos);
    EXPECT_EQ(ranksOfFailureText(f.ranks, f.suspectRanks, suspectReasonOf(f)),
              "reported by ranks 0-2,4; suspect rank 3 (rank 3 on node7, exit code -6 (SIGABRT) at 2024-03-05T10:00:00Z)");

    f.detail = "collective ALLREDUCE timed out; reported by 7 rank(s) (0-4,6,7) of 8; suspect rank(s) 5 (did not report)";
    EXPECT_EQ(suspectReasonOf(f), "did not report");
    f.detail = "Xid 48";
    EXPECT_EQ(suspectReasonOf(f), "");
    EXPECT_EQ(ranksOfFailureText({}, {}, ""), "");
}

}  // namespace
}  // namespace faultline
