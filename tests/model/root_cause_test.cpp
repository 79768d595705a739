#include "model/root_cause.h"

#include <gtest/gtest.h>

namespace faultline {
namespace {

TEST(RootCause, TheLlama3TableAddsUp) {
    int total = 0;
    for (RootCause c : llama3Causes()) total += rootCauseInfo(c).llama3Count;
    EXPECT_EQ(total, kLlama3Unexpected);
    EXPECT_EQ(llama3Causes().front(), RootCause::FaultyGpu);
    EXPECT_EQ(llama3Causes()[1], RootCause::GpuHbm3Memory);
}

TEST(RootCause, KeysRoundTrip) {
    for (int c = 0; c < kRootCauseCount; ++c) {
        const auto cause = static_cast<RootCause>(c);
        EXPECT_EQ(rootCauseFromKey(rootCauseKey(cause)), cause);
    }
    EXPECT_FALSE(rootCauseFromKey("cosmic_rays").has_value());
}

TEST(RootCause, XidCodes) {
    EXPECT_EQ(rootCauseForXid(79), RootCause::FaultyGpu);
    EXPECT_EQ(rootCauseForXid(74), RootCause::FaultyGpu);
    for (int xid : {48, 63, 64, 94, 95}) EXPECT_EQ(rootCauseForXid(xid), RootCause::GpuHbm3Memory) << xid;
    EXPECT_EQ(rootCauseForXid(92), RootCause::GpuSramMemory);
    EXPECT_EQ(rootCauseForXid(119), RootCause::GpuSystemProcessor);
    EXPECT_EQ(rootCauseForXid(120), RootCause::GpuSystemProcessor);
    EXPECT_EQ(rootCauseForXid(13), RootCause::SoftwareBug);
    EXPECT_FALSE(rootCauseForXid(999).has_value());
}

TEST(RootCause, SlurmStates) {
    EXPECT_EQ(rootCauseForSlurmState("NODE_FAIL"), RootCause::HostMaintenance);
    EXPECT_EQ(rootCauseForSlurmState("FAILED"), RootCause::SoftwareBug);
    EXPECT_EQ(rootCauseForSlurmState("FAILED", "NCCL watchdog thread terminated"), RootCause::NcclWatchdogTimeout);
    EXPECT_EQ(rootCauseForSlurmState("CANCELLED by 4242"), RootCause::PlannedMaintenance);
    EXPECT_EQ(rootCauseForSlurmState("OUT_OF_MEMORY"), RootCause::SoftwareBug);
    EXPECT_FALSE(rootCauseForSlurmState("COMPLETED").has_value());
    EXPECT_FALSE(rootCauseForSlurmState("RUNNING").has_value());
}

TEST(RootCause, LogLines) {
    EXPECT_EQ(rootCauseForLogLine("[Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=42, OpType=ALLREDUCE)"),
              RootCause::NcclWatchdogTimeout);
    EXPECT_EQ(rootCauseForLogLine("RuntimeError: CUDA error: uncorrectable ECC error encountered"), RootCause::GpuHbm3Memory);
    EXPECT_EQ(rootCauseForLogLine("Traceback (most recent call last):"), RootCause::SoftwareBug);
    // The watchdog reports the ECC error that stopped the collective: the ECC error is the cause.
    EXPECT_EQ(rootCauseForLogLine("[rank12]:[E ProcessGroupNCCL.cpp:1182] [Rank 12] NCCL watchdog thread terminated with exception: CUDA "
                                  "error: uncorrectable ECC error encountered"),
              RootCause::GpuHbm3Memory);
    EXPECT_EQ(rootCauseForLogLine("ProcessGroupNCCL's watchdog got stuck: GPU is lost"), RootCause::FaultyGpu);
    EXPECT_FALSE(rootCauseForLogLine("iteration 100/ 1000 | loss 2.3").has_value());
}

}  // namespace
}  // namespace faultline
