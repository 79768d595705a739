// A console log is read in chunks on several threads (importers/console_chunks.h): the run and
// the import report must be exactly those of one thread reading the file in one piece, wherever
// the chunk ends fall (inside a traceback, between a '\r' redraw and its line, between a date
// and the yearless lines placed near it).
#include "file_bytes.h"
#include "import_test_util.h"

#include "importers/events/import_report.h"
#include "model/run_file.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace faultline {
namespace {

using test::fixture;
using test::importPaths;

using test::bytesOf;

// The run as written to a run file, and the import report as JSON: everything the import kept.
std::string importedAs(const std::string& log, int workers, std::size_t chunkBytes, const test::ScratchDir& dir) {
    ImportOptions options;
    options.year = 2024;  // the fixtures' yearless lines; their mtime is the checkout's
    options.workers = workers;
    options.consoleChunkBytes = chunkBytes;
    const ImportResult r = importPaths({log}, options);
    const std::string path = dir.file("run.faultline");
    std::filesystem::remove(path);
    writeRunFile(r.run, path);
    return importSummaryToJson(r.summary).dump(1) + "\n" + bytesOf(path);
}

void expectSameForAnyChunking(const std::string& log) {
    SCOPED_TRACE(log);
    test::ScratchDir dir;
    const std::string sequential = importedAs(log, 1, 0, dir);
    EXPECT_EQ(importedAs(log, 1, 0, dir), sequential) << "the comparison itself is not deterministic";
    EXPECT_EQ(importedAs(log, 2, 0, dir), sequential) << "2 threads";
    EXPECT_EQ(importedAs(log, 3, 97, dir), sequential) << "3 threads, 97-byte chunks";
    EXPECT_EQ(importedAs(log, 2, 1, dir), sequential) << "2 threads, a chunk a line";
}

std::vector<std::string> logsIn(const std::string& dir) {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        if (e.path().extension() == ".log") out.push_back(e.path().string());
    std::sort(out.begin(), out.end());
    return out;
}

TEST(ConsoleChunks, EveryFixtureGivesTheSequentialRun) {
    const auto logs = logsIn(fixture("console_logs"));
    ASSERT_GE(logs.size(), 40u);
    for (const std::string& log : logs) expectSameForAnyChunking(log);
}

TEST(ConsoleChunks, RealConsoleLogsGiveTheSequentialRun) {
    FAULTLINE_REQUIRE_REALDATA();
    int compared = 0;
    for (const std::string& log : logsIn(test::realData("console_logs"))) {
        if (log.find("dmesg") != std::string::npos) continue;  // a kernel log, not a console
        expectSameForAnyChunking(log);
        ++compared;
    }
    EXPECT_GE(compared, 8) << "the real console logs were not found";
}

// Ranks interleaved line by line, yearless glog times across New Year placed by the dates
// around them, colour codes, '\r' redraws, a traceback whose frames span chunk ends, and
// checkpoints whose begin and end lie in different chunks.
TEST(ConsoleChunks, AnInterleavedLogGivesTheSequentialRun) {
    test::ScratchDir dir;
    const std::string log = dir.file("interleaved.log");
    {
        std::ofstream out(log);
        long long second = 1704066600;  // 2023-12-31T23:50:00Z
        for (int i = 1; i <= 300; ++i) {
            const int rank = i % 8;
            second += 7;
            const long long day = second % 86400;
            const bool newYear = second >= 1704067200;
            char glog[64];
            std::snprintf(glog, sizeof glog, "[W%s %02lld:%02lld:%02lld.000000 1 f.cpp:1] ", newYear ? "0101" : "1231", day / 3600, day / 60 % 60, day % 60);
            out << "[rank" << rank << "]:" << glog << "\x1b[32mNCCL INFO comm 0x1 rank " << rank << " nranks 8\x1b[0m\n";
            if (rank == 0) {
                std::time_t t = second;
                std::tm tm{};
                gmtime_r(&t, &tm);
                char iso[32];
                std::strftime(iso, sizeof iso, "%Y-%m-%d %H:%M:%S", &tm);
                out << "[rank0]:[" << iso << "] iteration " << i << "/ 1000 | elapsed time per iteration (ms): 7000.0 | lm loss: 2.0 |\n";
                if (i % 40 == 0) out << "[rank0]:saving checkpoint at iteration " << i << " to /ckpt\n";
                if (i % 40 == 8) out << "[rank0]:  successfully saved checkpoint at iteration " << i - 8 << " to /ckpt\n";
            }
            if (i % 37 == 0) out << " 50%|#####     | 1/2 [00:01<00:01,  1.00s/it]\r100%|##########| 2/2 [00:02<00:00,  1.00s/it]\n";
        }
        out << "[rank5]:Traceback (most recent call last):\n"
               "[rank5]:  File \"train.py\", line 3, in <module>\n"
               "[rank5]:    main()\n"
               "[rank5]:RuntimeError: CUDA error: an illegal memory access was encountered\n";
    }
    expectSameForAnyChunking(log);
}

// A line the reader refuses is named by its line number, whichever chunk it fell in.
TEST(ConsoleChunks, ABadLineIsNamedTheSameWay) {
    test::ScratchDir dir;
    const std::string log = dir.file("bad.log");
    {
        std::ofstream out(log);
        for (int i = 0; i < 50; ++i) out << "[rank" << i % 4 << "]:[2024-03-05 10:00:" << 10 + i % 40 << "] iteration " << i + 1 << "/ 100 | elapsed time per iteration (ms): 1000.0 |\n";
        out << "[rank0]:[2999-03-05 10:00:00] iteration 51/ 100 | elapsed time per iteration (ms): 1000.0 |\n";
    }
    ImportOptions one;
    one.workers = 1;
    const std::string expected = test::errorOf([&] { importPaths({log}, one); });
    EXPECT_NE(expected.find("bad.log:51:"), std::string::npos) << expected;
    ImportOptions many;
    many.workers = 3;
    many.consoleChunkBytes = 64;
    EXPECT_EQ(test::errorOf([&] { importPaths({log}, many); }), expected);
}

}  // namespace
}  // namespace faultline
