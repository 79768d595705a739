// Kineto traces from HolisticTraceAnalysis: counts, and a rank's first collective checked
// against what the file says, to the nanosecond.
#include "import_test_util.h"

#include "importers/text/text_parse.h"

#include <algorithm>
#include <cstdio>

#include <nlohmann/json.hpp>

namespace faultline {
namespace {

using test::fixture;
using test::importPaths;
using test::realData;

const std::string kHta = "kineto/HolisticTraceAnalysis/tests/data/";

TEST(Kineto, NcclParserTraceFirstCollectiveIsTheBroadcastItRecords) {
    FAULTLINE_REQUIRE_REALDATA();
    const ImportResult r = importPaths({realData(kHta + "nccl_parser_config/nccl_data.json.gz")});
    const FileReport& f = r.summary.files.at(0);
    EXPECT_EQ(f.format, "kineto");
    EXPECT_EQ(f.counts.at("trace events"), 40573);
    EXPECT_EQ(f.counts.at("collectives"), 21);  // 15 ncclKernel_AllReduce + 6 ncclKernel_Broadcast
    EXPECT_EQ(f.counts.at("steps"), 3);         // ProfilerStep#4..6
    EXPECT_EQ(f.ranks, (std::set<std::int32_t>{0}));
    ASSERT_EQ(r.run.collectives.size(), 21u);
    const CollectiveRecord& c = r.run.collectives.front();
    EXPECT_EQ(r.run.collectiveOps[static_cast<std::size_t>(c.op)], "broadcast");
    const ProcessGroup& g = r.run.processGroups[static_cast<std::size_t>(c.group)];
    EXPECT_EQ(g.name, "0");
    EXPECT_EQ(g.ranks, (std::vector<std::int32_t>{0, 1}));
    EXPECT_EQ(c.bytes, 53120 * 4);  // "In msg nelems": 53120, "dtype": "Float"
    // baseTimeNanoseconds 1711964646000000000 + "ts": 4458676423385.774 us
    EXPECT_EQ(r.run.info.startEpochNs + c.enter, 1711964646000000000LL + 4458676423385774LL);
    EXPECT_EQ(c.exit - c.enter, 30975);  // "dur": 30.975
    EXPECT_EQ(c.seq, 0);
    const auto allreduces = std::count_if(r.run.collectives.begin(), r.run.collectives.end(), [&](const CollectiveRecord& x) {
        return r.run.collectiveOps[static_cast<std::size_t>(x.op)] == "allreduce";
    });
    EXPECT_EQ(allreduces, 15);
    EXPECT_EQ(r.run.rankToGpu.size(), 2u);  // world_size 2
    ASSERT_EQ(r.run.steps.size(), 3u);
    EXPECT_EQ(r.run.steps[0].step, 4);
}

TEST(Kineto, NanosecondTimestampsKeepEveryDigit) {
    FAULTLINE_REQUIRE_REALDATA();
    const ImportResult r = importPaths({realData(kHta + "ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz")});
    const FileReport& f = r.summary.files.at(0);
    // No NCCL kernels in this capture: its 45 record_param_comms are the collectives.
    EXPECT_EQ(f.counts.at("collectives"), 45);
    EXPECT_EQ(f.counts.at("steps"), 5);
    // The first allreduce: "ts": 1712195495520870.926, "dur": 36.526 (a double would round the ts).
    const auto it = std::find_if(r.run.collectives.begin(), r.run.collectives.end(), [&](const CollectiveRecord& x) {
        return r.run.collectiveOps[static_cast<std::size_t>(x.op)] == "allreduce";
    });
    ASSERT_NE(it, r.run.collectives.end());
    EXPECT_EQ(r.run.info.startEpochNs + it->enter, 1712195495520870926LL);
    EXPECT_EQ(it->exit - it->enter, 36526);
    EXPECT_EQ(it->bytes, 2049000 * 4);
    // host_name says where rank 0 ran.
    EXPECT_TRUE(r.run.topology.findHost("twshared39868.02.pnb3.facebook.com"));
}

TEST(Kineto, TwoRanksOfA128RankJobImportTogether) {
    FAULTLINE_REQUIRE_REALDATA();
    const ImportResult r = importPaths({realData(kHta + "trace_filter")});
    ASSERT_EQ(r.summary.files.size(), 2u);
    EXPECT_EQ(r.summary.files[0].ranks, (std::set<std::int32_t>{0}));
    EXPECT_EQ(r.summary.files[1].ranks, (std::set<std::int32_t>{1}));
    EXPECT_EQ(r.run.collectives.size(), 20u);  // 10 ncclKernel_SendRecv each
    EXPECT_EQ(r.run.rankToGpu.size(), 128u);   // world_size 128
    EXPECT_EQ(r.run.topology.gpus.size(), 128u);
    // Rank 1's first kernel: "ts": 1682725898129911, "dur": 57924.0
    const auto it = std::find_if(r.run.collectives.begin(), r.run.collectives.end(), [](const CollectiveRecord& x) { return x.rank == 1; });
    ASSERT_NE(it, r.run.collectives.end());
    EXPECT_EQ(r.run.info.startEpochNs + it->enter, 1682725898129911000LL);
    EXPECT_EQ(it->exit - it->enter, 57924000);
    EXPECT_EQ(r.run.collectiveOps[static_cast<std::size_t>(it->op)], "sendrecv");
}

TEST(Kineto, EveryRealTraceImportsWithItsCounts) {
    FAULTLINE_REQUIRE_REALDATA();
    struct Case {
        const char* file;
        std::int64_t events, collectives, steps;
        std::int32_t rank;
    };
    // Counts as the files hold them: NCCL kernels (or record_param_comms with a collective
    // name in kernel-less captures) and ProfilerStep# annotations on the CPU.
    for (const Case& c : {Case{"amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz", 220, 0, 2, 0},
                          Case{"cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz", 30, 0, 1, 34},
                          Case{"df_index_resolver/df_index_resolver.json.gz", 216092, 2020, 5, 1},
                          Case{"negative_queue_length_values_check/rank0.json.gz", 108936, 80, 5, 0},
                          Case{"rank_non_gpu/rank_non_gpu.json.gz", 2467, 0, 1, 0},
                          Case{"trace_diff/control/control.json.gz", 109123, 60, 6, 3},
                          Case{"trace_diff/test/test.json.gz", 105167, 64, 6, 1}}) {
        const ImportResult r = importPaths({realData(kHta + c.file)});
        const FileReport& f = r.summary.files.at(0);
        EXPECT_EQ(f.format, "kineto") << c.file;
        EXPECT_EQ(f.skippedLines, 0) << c.file;
        EXPECT_EQ(f.counts.at("trace events"), c.events) << c.file;
        EXPECT_EQ(f.counts.count("collectives") ? f.counts.at("collectives") : 0, c.collectives) << c.file;
        EXPECT_EQ(f.counts.count("steps") ? f.counts.at("steps") : 0, c.steps) << c.file;
        EXPECT_EQ(f.ranks, (std::set<std::int32_t>{c.rank})) << c.file;
    }
    const ImportResult cpuOnly = importPaths({realData(kHta + "cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz")});
    EXPECT_EQ(cpuOnly.run.rankToGpu.size(), 300u);  // world_size 300
}

// Files are read on every core; the run must be exactly the one a single reader builds.
TEST(Kineto, ParallelImportGivesTheSequentialRun) {
    FAULTLINE_REQUIRE_REALDATA();
    const std::vector<std::string> inputs = {realData(kHta + "trace_filter"), realData(kHta + "nccl_parser_config"),
                                             realData(kHta + "ns_resolution_trace"), fixture("xid_journal.log")};
    ImportOptions one;
    one.workers = 1;
    one.allowDisjoint = true;  // captures of different years, merged on purpose
    ImportOptions many = one;
    many.workers = 4;
    const ImportResult a = importPaths(inputs, one);
    const ImportResult b = importPaths(inputs, many);
    ASSERT_GT(a.run.collectives.size(), 50u);
    EXPECT_EQ(importSummaryToJson(a.summary).dump(), importSummaryToJson(b.summary).dump());
    ASSERT_EQ(a.run.collectives.size(), b.run.collectives.size());
    for (std::size_t i = 0; i < a.run.collectives.size(); ++i) {
        const CollectiveRecord &x = a.run.collectives[i], &y = b.run.collectives[i];
        ASSERT_TRUE(x.rank == y.rank && x.group == y.group && x.op == y.op && x.seq == y.seq && x.enter == y.enter &&
                    x.exit == y.exit && x.bytes == y.bytes)
            << "collective " << i;
    }
    EXPECT_EQ(a.run.steps.size(), b.run.steps.size());
    EXPECT_EQ(a.run.failures.size(), b.run.failures.size());
    EXPECT_EQ(a.run.info.startEpochNs, b.run.info.startEpochNs);
}

// The first bad file in input order is the one reported, whichever worker met it first.
TEST(Kineto, ParallelImportReportsTheFirstBadFile) {
    test::ScratchDir dir;
    const std::string bad1 = dir.file("a_bad.json"), bad2 = dir.file("b_bad.json");
    for (const std::string& p : {bad1, bad2}) {
        std::FILE* f = std::fopen(p.c_str(), "wb");
        std::fputs("{\"traceEvents\": [{\"ph\": \"X\"}", f);
        std::fclose(f);
    }
    ImportOptions options;
    options.format = "kineto";
    options.workers = 2;
    for (int round = 0; round < 5; ++round) {
        const std::string message = test::errorOf([&] { importPaths({bad1, bad2}, options); });
        EXPECT_EQ(message.rfind(bad1, 0), 0u) << message;
    }
}

TEST(Kineto, BadEventsAreCountedAndSkipped) {
    const ImportResult r = importPaths({fixture("kineto_bad_events.json")});
    const FileReport& f = r.summary.files.at(0);
    EXPECT_EQ(f.skippedLines, 2);  // a string ts, and a missing comma
    EXPECT_EQ(f.counts.at("collectives"), 2);
    EXPECT_EQ(f.counts.at("steps"), 1);
    EXPECT_EQ(f.ranks, (std::set<std::int32_t>{5}));
    ASSERT_EQ(r.run.collectives.size(), 2u);
    const CollectiveRecord& c = r.run.collectives[0];
    EXPECT_EQ(r.run.collectiveOps[static_cast<std::size_t>(c.op)], "allgather");
    EXPECT_EQ(c.bytes, 8192 * 2);  // Out msg nelems x BFloat16
    EXPECT_EQ(r.run.info.startEpochNs + c.enter, 1700000000000000125LL);
    const CollectiveRecord& d = r.run.collectives[1];
    EXPECT_EQ(r.run.collectiveOps[static_cast<std::size_t>(d.op)], "allreduce");  // from the kernel name
    // host_name and the kernels' device place rank 5 on gpu-node-3's GPU 5.
    EXPECT_EQ(r.run.topology.gpuName(r.run.rankToGpu[5]), "gpu-node-3-gpu5");
}

}  // namespace
}  // namespace faultline
