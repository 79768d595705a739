// What to check next, beside an incident's evidence: the catalogue's entry for its Xid, its
// NCCL error code, IB completion status, OOM or ECC line, each with its source.
#include "test_runs.h"

#include "analysis/incidents.h"
#include "analysis/next_checks.h"

#include <gtest/gtest.h>

namespace faultline {
namespace {

faultline::Run runWith(const Failure& failure) {
    faultline::Run run;
    run.info = {"one", 0, kHour, "test"};
    run.topology = buildFabric(FabricShape{.gpus = 16});
    run.failures = {failure};
    return run;
}

std::vector<NextCheck> checksOf(const faultline::Run& run) {
    const std::vector<Incident> incidents = buildIncidents(run);
    return incidents.empty() ? std::vector<NextCheck>{} : nextChecks(incidents.front(), run);
}

TEST(NextChecks, AnXidGetsNvidiasMeaningAndAction) {
    const auto run = runWith({kMinute, RootCause::FaultyGpu, {ComponentKind::Gpu, 3}, 79, {3}, "Xid 79: GPU has fallen off the bus"});
    const std::vector<NextCheck> checks = checksOf(run);
    ASSERT_FALSE(checks.empty());
    EXPECT_EQ(checks[0].evidence, "Xid 79");
    EXPECT_NE(checks[0].meaning.find("fallen off the bus"), std::string::npos);
    EXPECT_NE(checks[0].check.find("Reboot the node"), std::string::npos);
    EXPECT_NE(checks[0].source.find("docs.nvidia.com/deploy/xid-errors"), std::string::npos);
    const std::string text = nextChecksToText(checks);
    EXPECT_EQ(text.rfind("What to check next\n  Xid 79: ", 0), 0u) << text;
    EXPECT_NE(text.find("    source: NVIDIA, Xid Errors"), std::string::npos) << text;
}

TEST(NextChecks, EccCompletionStatusesNcclCodesAndOomAreRecognised) {
    auto first = [](const char* detail, RootCause cause) {
        const auto checks = checksOf(runWith({kMinute, cause, {ComponentKind::Gpu, 12}, 0, {12}, detail}));
        return checks.empty() ? std::string("<none>") : checks.front().evidence;
    };
    EXPECT_EQ(first("CUDA error: uncorrectable ECC error encountered", RootCause::GpuHbm3Memory), "Uncorrectable ECC error (CUDA)");
    EXPECT_EQ(first("NCCL WARN NET/IB : Got completion with error 12, opcode 0, len 0, vendor err 129", RootCause::NetworkSwitchCable),
              "IB completion status 12 (IBV_WC_RETRY_EXC_ERR)");
    EXPECT_EQ(first("ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.",
                    RootCause::SoftwareBug),
              "NCCL ncclRemoteError");
    EXPECT_EQ(first("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB", RootCause::SoftwareBug), "CUDA out of memory");
    EXPECT_EQ(first("NCCL watchdog timeout in ALLREDUCE (SeqNum 42) after 600 s", RootCause::NcclWatchdogTimeout), "NCCL watchdog timeout");
    // A network cause with no line the catalogue knows still says where to look.
    EXPECT_EQ(first("link lost", RootCause::NetworkSwitchCable), "Network failure");
    // Nothing known, nothing invented.
    EXPECT_EQ(first("the job stopped", RootCause::Unknown), "<none>");
}

TEST(NextChecks, PlannedMaintenanceHasNone) {
    faultline::Run run = runWith({kMinute, RootCause::PlannedMaintenance, {ComponentKind::Host, 0}, 0, {}, "Slurm job 7 CANCELLED"});
    run.failures.clear();
    run.downtimes = {{kMinute, kMinute, 2 * kMinute, 3 * kMinute, 0, true, RootCause::PlannedMaintenance, -1}};
    const std::vector<Incident> incidents = buildIncidents(run);
    ASSERT_EQ(incidents.size(), 1u);
    EXPECT_TRUE(nextChecks(incidents.front(), run).empty());
}

}  // namespace
}  // namespace faultline
