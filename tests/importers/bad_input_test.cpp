// Truncated, garbage and mislabelled files: each gives one clear Error naming the file and
// where it broke, or is named as an unknown format; none crashes.
#include "file_bytes.h"
#include "import_test_util.h"

#include "importers/formats.h"
#include "importers/text/input_file.h"
#include "importers/text/read_whole_file.h"
#include "model/run_file.h"
#include "test_runs.h"

#include <zlib.h>

#include <filesystem>
#include <fstream>

namespace faultline {
namespace {

using test::writeFile;
using test::errorOf;
using test::fixture;
using test::importPaths;
using test::realData;

const std::string kNccl = "kineto/HolisticTraceAnalysis/tests/data/nccl_parser_config/nccl_data.json.gz";

std::string gzip(const std::string& text) {
    uLongf size = compressBound(static_cast<uLong>(text.size())) + 64;
    std::string out(size, '\0');
    z_stream zs{};
    deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    zs.avail_in = static_cast<uInt>(text.size());
    zs.next_out = reinterpret_cast<Bytef*>(out.data());
    zs.avail_out = static_cast<uInt>(out.size());
    deflate(&zs, Z_FINISH);
    out.resize(zs.total_out);
    deflateEnd(&zs);
    return out;
}

TEST(BadInput, GarbageFileIsNamedAsUnknownFormat) {
    for (const char* name : {"garbage.bin", "garbage.txt"}) {
        const std::string msg = errorOf([&] { importPaths({fixture(name)}); });
        EXPECT_NE(msg.find(fixture(name) + ": unknown format"), std::string::npos) << msg;
    }
}

TEST(BadInput, GarbageForcedThroughEveryFormatGivesAnErrorNotACrash) {
    for (const char* format : {"kineto", "kernel-log", "sacct", "sacct-json"}) {
        ImportOptions options;
        options.format = format;
        const std::string msg = errorOf([&] { importPaths({fixture("garbage.bin")}, options); });
        EXPECT_NE(msg.find(fixture("garbage.bin")), std::string::npos) << format << ": " << msg;
    }
}

TEST(BadInput, TruncatedGzipNamesTheFileAndOffset) {
    FAULTLINE_REQUIRE_REALDATA();
    test::ScratchDir dir;
    const std::string whole = readWholeFile(realData(kNccl), 1u << 30);  // decompressed
    const std::string packed = gzip(whole);
    const std::string path = dir.file("cut.json.gz");
    writeFile(path, packed.substr(0, packed.size() / 2));
    const std::string msg = errorOf([&] { importPaths({path}); });
    EXPECT_NE(msg.find(path + ": byte "), std::string::npos) << msg;
    EXPECT_NE(msg.find("gzip stream is damaged or cut short"), std::string::npos) << msg;
}

TEST(BadInput, TruncatedPlainTraceSaysItIsCutShort) {
    FAULTLINE_REQUIRE_REALDATA();
    test::ScratchDir dir;
    const std::string whole = readWholeFile(realData(kNccl), 1u << 30);
    const std::string path = dir.file("cut.json");
    writeFile(path, whole.substr(0, whole.size() / 3));
    const std::string msg = errorOf([&] { importPaths({path}); });
    EXPECT_NE(msg.find(path + ": byte " + std::to_string(whole.size() / 3)), std::string::npos) << msg;
    EXPECT_NE(msg.find("cut short"), std::string::npos) << msg;
}

TEST(BadInput, EveryPrefixOfATraceFailsCleanly) {
    FAULTLINE_REQUIRE_REALDATA();
    // Cut a small real trace at many points: each must give an Error, never a crash or hang.
    test::ScratchDir dir;
    const std::string whole = readWholeFile(realData("kineto/HolisticTraceAnalysis/tests/data/cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz"));
    const std::string path = dir.file("prefix.json");
    ImportOptions options;
    options.format = "kineto";
    const std::size_t lastBrace = whole.rfind('}');
    ASSERT_NE(lastBrace, std::string::npos);
    for (std::size_t cut = 0; cut <= lastBrace; cut += 97) {
        writeFile(path, whole.substr(0, cut));
        const std::string msg = errorOf([&] { importPaths({path}, options); });
        EXPECT_NE(msg.find(path), std::string::npos) << "cut at " << cut << ": " << msg;
    }
}

TEST(BadInput, BrokenJsonStructureNamesTheByte) {
    test::ScratchDir dir;
    const std::string path = dir.file("bad.json");
    writeFile(path, "{\"traceEvents\": [{\"ph\": \"X\"}, 17]}");
    const std::string msg = errorOf([&] { importPaths({path}); });
    EXPECT_NE(msg.find(path + ": byte 30: expected a trace event object"), std::string::npos) << msg;
}

TEST(BadInput, UnbalancedTraceNamesTheByte) {
    test::ScratchDir dir;
    const std::string path = dir.file("bad.json");
    writeFile(path, "{\"traceEvents\": [{\"ph\": \"X\"}]]}");
    const std::string msg = errorOf([&] { importPaths({path}); });
    EXPECT_NE(msg.find(path + ": byte 29: unbalanced ']'"), std::string::npos) << msg;
}

TEST(BadInput, DeeplyNestedArgsAreStreamedPastNotACrash) {
    test::ScratchDir dir;
    const std::string path = dir.file("deep.json");
    const std::string deep = std::string(100000, '[') + std::string(100000, ']');
    writeFile(path, "{\"distributedInfo\": {\"rank\": 2}, \"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"ncclKernel_AllReduce_RING_LL_Sum_float\", "
                    "\"args\": " + deep + ", \"ts\": 1, \"dur\": 2}, {\"ph\": \"X\", \"name\": \"ProfilerStep#2\", \"ts\": 5, \"dur\": 2}]}");
    const ImportResult r = importPaths({path});
    // 100,000 nested arrays neither overflow the scanner nor simdjson, which skips the value
    // it is not asked to read; the kernel around it still counts.
    EXPECT_EQ(r.summary.files[0].counts.at("steps"), 1);
    EXPECT_EQ(r.summary.files[0].counts.at("collectives"), 1);
    EXPECT_EQ(r.summary.files[0].skippedLines, 0);
}

TEST(BadInput, SacctJsonThatIsNotJsonNamesTheByte) {
    test::ScratchDir dir;
    const std::string path = dir.file("jobs.json");
    writeFile(path, "{\"meta\": {}, \"jobs\": [ {\"job_id\": 1,, } ]}");
    const std::string msg = errorOf([&] { importPaths({path}); });
    EXPECT_NE(msg.find(path + ": byte "), std::string::npos) << msg;
    EXPECT_NE(msg.find("not valid JSON"), std::string::npos) << msg;
}

TEST(BadInput, FailedImportWritesNothing) {
    test::ScratchDir dir;
    const std::string out = dir.file("run.faultline");
    const std::string msg = errorOf([&] { importToRunFile({fixture("xid_journal.log"), fixture("garbage.bin")}, out, {}); });
    EXPECT_NE(msg.find("unknown format"), std::string::npos);
    EXPECT_FALSE(std::filesystem::exists(out));
    EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

TEST(BadInput, CancelWritesNothing) {
    FAULTLINE_REQUIRE_REALDATA();
    test::ScratchDir dir;
    const std::string out = dir.file("run.faultline");
    std::atomic<bool> cancel{false};
    int calls = 0;
    const ProgressFn progress = [&](double) {
        if (++calls == 2) cancel = true;
    };
    EXPECT_THROW(importToRunFile({realData(kNccl)}, out, {}, progress, &cancel), ImportCancelled);
    EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(BadInput, MissingFileAndFolderOfUnknownsAreExplained) {
    EXPECT_NE(errorOf([] { importPaths({"/nonexistent/trace.json"}); }).find("/nonexistent/trace.json: no such file"), std::string::npos);
    ImportOptions options;
    options.format = "nonsense";
    EXPECT_NE(errorOf([&] { importPaths({fixture("xid_kmsg.log")}, options); }).find("unknown format \"nonsense\""), std::string::npos);
}

TEST(ImportRoundTrip, WrittenRunReadsBackWithTheSameEvents) {
    FAULTLINE_REQUIRE_REALDATA();
    test::ScratchDir dir;
    const std::string out = dir.file("run.faultline");
    ImportOptions options;
    options.year = 2025;
    options.allowDisjoint = true;  // files of three different years, merged on purpose to test the round trip
    const ImportSummary s = importToRunFile({fixture("xid_journal.log"), fixture("sacct_snowman.txt"), realData(kNccl)}, out, options);
    EXPECT_EQ(s.files.size(), 3u);
    const faultline::Run run = readRunFile(out);
    EXPECT_EQ(run.failures.size(), 4u);  // 3 Xids + 1 NODE_FAIL
    EXPECT_EQ(run.collectives.size(), 21u);
    EXPECT_EQ(run.info.source, "import");
    EXPECT_EQ(run.topology.hosts.size(), s.hosts);
}

}  // namespace
}  // namespace faultline

namespace faultline {
namespace {

// Every real file forced through every format: each either imports or gives an Error that
// names the file. Nothing crashes, and nothing escapes as another exception type.
TEST(BadInput, EveryFileThroughEveryFormat) {
    FAULTLINE_REQUIRE_REALDATA();
    const std::vector<std::string> files = {
        test::realData("kineto/HolisticTraceAnalysis/tests/data/cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz"),
        test::realData("flight_recorder/nvidia-resiliency-ext/tests/attribution/unit/fr_traces/lock_gil_1st/_dump_9"),
        test::realData("xid_kernel_logs/gpud/components/memory/testdata/dmesg.decode.iso.log"),
        test::realData("slurm/gcm/gcm/tests/data/sample-sacct-output-with-invalid-lines.txt"),
        test::realData("slurm/SARC/tests/functional/jobs/sacct_outputs/slurm_23_2_6.json"),
        test::realData("topology/topograph/tests/output/ibnetdiscover/example-bad.out"),
        test::realData("topology/topograph/tests/ci/expected.slinky-dra-block.conf"),
        test::realData("topology/topograph/tests/output/netq/topologyGraph.json"),
        test::realData("dcgm/DCGM/testing/python3/dcgm_diag_schema.json"),
        test::fixture("garbage.bin"),
        test::fixture("garbage.txt"),
        test::fixture("native_events.csv"),
        test::fixture("faultline_topology.json"),
    };
    ASSERT_FALSE(formats().empty());
    for (const FormatInfo& format : formats()) {
        for (const std::string& file : files) {
            ImportOptions options;
            options.format = std::string(format.name);
            try {
                importPaths({file}, options);
            } catch (const Error& e) {
                EXPECT_NE(std::string(e.what()).find(file), std::string::npos) << format.name << " on " << file << ": " << e.what();
            } catch (const std::exception& e) {
                ADD_FAILURE() << format.name << " on " << file << " threw a non-Error: " << e.what();
            }
        }
    }
}

}  // namespace
}  // namespace faultline
