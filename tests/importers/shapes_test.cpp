// Shapes of logs users paste into issue threads, each in a fixture of our own writing
// (tests/data/importers/shapes, the thread it follows named in its first line).
#include "import_test_util.h"

#include <algorithm>

namespace faultline {
namespace {

using test::fixture;

const Failure* failureNaming(const Run& run, const std::string& text) {
    for (const Failure& f : run.failures)
        if (f.detail.find(text) != std::string::npos) return &f;
    return nullptr;
}

TEST(Shapes, AJobLogDatedLikeDmesgIsAJobLog) {
    const ImportResult r = test::importPaths({fixture("shapes/oom_collector_dated_filelock.log")});
    EXPECT_EQ(r.summary.files.front().format, "training-log");
    const Failure* oom = failureNaming(r.run, "out of memory");
    ASSERT_NE(oom, nullptr) << importSummaryToText(r.summary);
    EXPECT_NE(std::find(oom->ranks.begin(), oom->ranks.end(), 3), oom->ranks.end());
}

TEST(Shapes, TorchrunSummaryDatesTheFailureAndPlacesEveryEntry) {
    const ImportResult r = test::importPaths({fixture("shapes/torchrun_summary_only.log")});
    ASSERT_FALSE(r.run.failures.empty());
    const Failure& f = r.run.failures.front();
    // 2024-03-08T10:12:04Z: the root cause's time, the earliest entry's.
    EXPECT_EQ(r.run.info.startEpochNs + f.time, 1'709'892'724LL * 1'000'000'000);
    EXPECT_EQ(f.ranks.size(), 3u);
    EXPECT_EQ(r.summary.hosts, 1u);
    ASSERT_EQ(r.run.topology.hosts.size(), 1u);
    EXPECT_EQ(r.run.topology.hosts.front().name, "gpu-node-17");
}

TEST(Shapes, HostAndRankPrefix) {
    const ImportResult r = test::importPaths({fixture("shapes/host_rank_prefix.log")});
    ASSERT_FALSE(r.run.failures.empty()) << importSummaryToText(r.summary);
    const Failure& f = r.run.failures.front();
    EXPECT_NE(std::find(f.ranks.begin(), f.ranks.end(), 1), f.ranks.end());
    std::string hosts;
    for (const Host& h : r.run.topology.hosts) hosts += h.name + " ";
    ASSERT_EQ(r.run.topology.hosts.size(), 1u) << hosts << importSummaryToText(r.summary);
    EXPECT_EQ(r.run.topology.hosts.front().name, "gpu187");
}

}  // namespace
}  // namespace faultline
