// Faultline's own event formats (JSON Lines and CSV), for what no tool writes.
#include "import_test_util.h"

#include "importers/text/text_parse.h"

namespace faultline {
namespace {

using test::at;
using test::fixture;
using test::importPaths;

TEST(NativeEvents, JsonLinesOfEveryKind) {
    const ImportResult r = importPaths({fixture("native_events.jsonl")});
    const FileReport& f = r.summary.files.at(0);
    EXPECT_EQ(f.format, "faultline-events");
    EXPECT_EQ(f.counts.at("placements"), 2);
    EXPECT_EQ(f.counts.at("steps"), 1);
    EXPECT_EQ(f.counts.at("collectives"), 1);
    EXPECT_EQ(f.counts.at("checkpoint saves"), 1);
    EXPECT_EQ(f.counts.at("failures"), 2);
    EXPECT_EQ(f.skippedLines, 2);
    ASSERT_EQ(f.warnings.size(), 2u);
    EXPECT_NE(f.warnings[0].find("native_events.jsonl:8: \"time\" is not an ISO time or epoch nanoseconds"), std::string::npos) << f.warnings[0];
    EXPECT_NE(f.warnings[1].find("native_events.jsonl:9: kind \"rumour\" is not failure, collective"), std::string::npos) << f.warnings[1];
    const faultline::Run& run = r.run;
    EXPECT_EQ(run.info.startEpochNs, at("2025-03-01T12:00:00Z"));  // the step began 2 s before it ended
    ASSERT_EQ(run.failures.size(), 2u);
    EXPECT_EQ(run.failures[0].cause, RootCause::Nic);
    EXPECT_EQ(run.topology.gpuName(run.failures[0].gpus.at(0)), "node-a-gpu1");  // rank 1, placed on node-a GPU 1
    EXPECT_EQ(run.failures[1].cause, RootCause::FaultyGpu);                      // from Xid 79
    EXPECT_EQ(run.topology.gpuName(run.failures[1].gpus.at(0)), "node-a-gpu0");
    ASSERT_EQ(run.collectives.size(), 1u);
    EXPECT_EQ(run.collectives[0].seq, 7);
    EXPECT_EQ(run.collectives[0].exit - run.collectives[0].enter, 250'000'000);
    ASSERT_EQ(run.checkpoints.size(), 1u);
    EXPECT_EQ(run.checkpoints[0].end - run.checkpoints[0].begin, 10'500'000'000LL);
}

TEST(NativeEvents, CsvWithQuotedFieldsAndAShortRow) {
    const ImportResult r = importPaths({fixture("native_events.csv")});
    const FileReport& f = r.summary.files.at(0);
    EXPECT_EQ(f.format, "faultline-events");
    EXPECT_EQ(f.counts.at("failures"), 1);
    EXPECT_EQ(f.counts.at("collectives"), 1);
    EXPECT_EQ(f.counts.at("checkpoint loads"), 1);
    EXPECT_EQ(f.skippedLines, 1);
    EXPECT_NE(f.warnings.at(0).find("native_events.csv:6: expected 20 comma-separated fields, found 9"), std::string::npos) << f.warnings[0];
    ASSERT_EQ(r.run.failures.size(), 1u);
    EXPECT_EQ(r.run.failures[0].detail, "ECC, uncorrectable");
    EXPECT_EQ(r.run.failures[0].cause, RootCause::GpuHbm3Memory);
    EXPECT_EQ(r.run.topology.gpuName(r.run.failures[0].gpus.at(0)), "node-b-gpu3");
    EXPECT_EQ(r.run.processGroups.at(0).ranks, (std::vector<std::int32_t>{0, 1}));
}

}  // namespace
}  // namespace faultline
