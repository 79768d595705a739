// A console log read as it is written (importers/console/growing_console_log.h): at every look
// whose file ends at a line end, what the growing reader gives is what an import of the file
// as it stands gives, and after the last look what an import of the whole file gives, wherever
// the writes cut the lines (inside a traceback, between a message and the line it goes on in,
// between a date and the yearless lines placed near it).
#include "file_bytes.h"
#include "import_test_util.h"
#include "realdata.h"

#include "importers/console/growing_console_log.h"
#include "importers/import_invariants.h"
#include "importers/events/import_report.h"
#include "model/run_file.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include <zlib.h>

namespace faultline {
namespace {

using test::fixture;

using test::bytesOf;

// Chunks of 61 bytes end inside every shape of line of the fixtures; a real log of megabytes
// is read in chunks of the size an import reads.
std::size_t chunkBytes = 61;

ImportOptions options() {
    ImportOptions o;
    o.format = "training-log";  // a few lines of a log may look like another format's
    o.year = 2024;              // the fixtures' yearless lines
    o.workers = 2;
    if (chunkBytes) o.consoleChunkBytes = chunkBytes;
    return o;
}

// The run as written to a run file and the import report as JSON, of `files` read from `log`;
// or the error that refused them.
std::string built(std::vector<ShardedFile> files, const std::string& log, const test::ScratchDir& dir) {
    try {
        ListedImport listed = listImportFiles({log}, options());
        const ImportResult r = buildReadImport({std::move(files), listed.runName, listed.label, listed.warnings}, {}, options());
        const std::string path = dir.file("run.faultline");
        std::filesystem::remove(path);
        writeRunFile(r.run, path);
        return importSummaryToJson(r.summary).dump(1) + "\n" + bytesOf(path);
    } catch (const Error& e) {
        return std::string("refused: ") + e.what();
    }
}

std::string importedOnce(const std::string& log, const test::ScratchDir& dir) {
    try {
        return built(readImportFiles({log}, options()).files, log, dir);
    } catch (const Error& e) {
        return std::string("refused: ") + e.what();
    }
}

std::string snapshotOf(const GrowingConsoleLog& growing, const std::string& log, const test::ScratchDir& dir) {
    try {
        ConsoleLogSnapshot snapshot = growing.snapshot();
        std::vector<ShardedFile> files(1);
        files[0].report = std::move(snapshot.report);
        files[0].report.written = fileWriteTime(log);
        files[0].events = std::move(snapshot.events);
        return built(std::move(files), log, dir);
    } catch (const Error& e) {
        return std::string("refused: ") + e.what();
    }
}

// Writes `text` into a log in pieces of random sizes (up to `longestPiece` bytes, or to the
// next line's end), reading on after each; returns how many times the reader had to begin again.
int expectSameAsImportAtEveryLook(const std::string& text, unsigned seed, std::size_t longestPiece = 400) {
    test::ScratchDir dir;
    const std::string log = dir.file("growing.log");
    std::ofstream(log).close();
    auto growing = std::make_unique<GrowingConsoleLog>(log, options());
    EXPECT_TRUE(growing->grows());
    int restarts = 0;
    auto readOn = [&](bool toTheEnd) {
        if (growing->readOn(toTheEnd)) return;
        ++restarts;
        growing = std::make_unique<GrowingConsoleLog>(log, options());
        ASSERT_TRUE(growing->readOn(toTheEnd)) << "a fresh reader reads the whole file";
    };
    std::mt19937 random(seed);
    std::size_t written = 0, looks = 0;
    while (written < text.size()) {
        std::size_t piece = std::min<std::size_t>(text.size() - written, 1 + random() % longestPiece);
        // Every other piece ends at a line's end, where a look compares.
        if (random() % 2 == 0)
            if (const std::size_t end = text.find('\n', written + piece - 1); end != std::string::npos) piece = end + 1 - written;
        {
            std::ofstream out(log, std::ios::app | std::ios::binary);
            out.write(text.data() + written, static_cast<std::streamsize>(piece));
        }
        written += piece;
        readOn(false);
        EXPECT_EQ(growing->lineWaits(), text[written - 1] != '\n');
        if (text[written - 1] != '\n') continue;
        ++looks;
        SCOPED_TRACE("after " + std::to_string(written) + " bytes");
        EXPECT_EQ(snapshotOf(*growing, log, dir), importedOnce(log, dir));
        if (testing::Test::HasFailure()) return restarts;
    }
    readOn(true);
    EXPECT_EQ(snapshotOf(*growing, log, dir), importedOnce(log, dir)) << "the last look";
    EXPECT_GT(looks, 0u);
    return restarts;
}

TEST(GrowingConsoleLog, EveryFixtureReadAsItIsWrittenGivesItsImportAtEveryLook) {
    int compared = 0;
    for (const auto& e : std::filesystem::directory_iterator(fixture("console_logs"))) {
        if (e.path().extension() != ".log") continue;
        SCOPED_TRACE(e.path().string());
        expectSameAsImportAtEveryLook(bytesOf(e.path().string()), static_cast<unsigned>(compared));
        ++compared;
        if (testing::Test::HasFailure()) return;
    }
    EXPECT_GE(compared, 40);
}

// Every real console and training log of the real-data set, written in about thirty pieces
// cut anywhere (inside a line, a traceback, a progress bar redrawn with \r): what a look gives
// is what an import of the log as it stands gives.
TEST(GrowingConsoleLog, EveryRealLogReadAsItIsWrittenGivesItsImportAtEveryLook) {
    FAULTLINE_REQUIRE_REALDATA();
    chunkBytes = 0;
    int compared = 0;
    for (const char* folder : {"console_logs", "training_logs"})
        for (const auto& e : std::filesystem::recursive_directory_iterator(test::realData(folder))) {
            if (!e.is_regular_file() || e.path().filename() == "README.md") continue;
            ImportOptions detect;
            ListedFile file;
            file.path = e.path().string();
            file.size = e.file_size();
            try {
                if (formatOfListedFile(file, detect) != "training-log") continue;
            } catch (const Error&) {
                continue;
            }
            SCOPED_TRACE(e.path().string());
            const std::string text = bytesOf(e.path().string());
            expectSameAsImportAtEveryLook(text, static_cast<unsigned>(compared), std::max<std::size_t>(400, text.size() / 15));
            ++compared;
            if (testing::Test::HasFailure()) break;
        }
    chunkBytes = 61;
    EXPECT_GE(compared, 10);
}

// A message the terminal cut at its width goes on in the next line: when that line comes at a
// later look than the one it goes on, the reader begins again, and gives what the import gives.
TEST(GrowingConsoleLog, ALineThatGoesOnALineReadAtAnEarlierLookIsJoinedAsTheImportJoinsIt) {
    const std::string head = "[rank3]:[E ProcessGroupNCCL.cpp:563] [Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=5, OpType=ALLREDUCE, ";
    const std::string tail = "NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600011 milliseconds before timing out.\n";
    std::string text;
    for (int i = 1; i <= 20; ++i)
        text += "[rank0]:[2024-03-05 10:00:" + std::to_string(10 + i) + "] iteration " + std::to_string(i) + "/ 100 | elapsed time per iteration (ms): 1000.0 |\n";
    test::ScratchDir dir;
    const std::string log = dir.file("growing.log");
    {
        std::ofstream(log, std::ios::binary) << text << head.substr(0, head.size() - 1) << "\n";
    }
    GrowingConsoleLog growing(log, options());
    ASSERT_TRUE(growing.readOn(false));
    std::ofstream(log, std::ios::app | std::ios::binary) << tail;
    const bool readOn = growing.readOn(false);
    GrowingConsoleLog fresh(log, options());
    ASSERT_TRUE(fresh.readOn(false));
    EXPECT_EQ(snapshotOf(readOn ? growing : fresh, log, dir), importedOnce(log, dir));
}

TEST(GrowingConsoleLog, ALogCutShortOrWrittenAnewFromItsStartIsReadAgainFromItsStart) {
    test::ScratchDir dir;
    const std::string log = dir.file("growing.log");
    std::ofstream(log, std::ios::binary) << "[rank0]:[2024-03-05 10:00:10] iteration 1/ 100 | elapsed time per iteration (ms): 1000.0 |\n"
                                            "[rank0]:[2024-03-05 10:00:11] iteration 2/ 100 | elapsed time per iteration (ms): 1000.0 |\n";
    GrowingConsoleLog growing(log, options());
    ASSERT_TRUE(growing.readOn(false));
    std::filesystem::resize_file(log, 0);  // copytruncate
    EXPECT_FALSE(growing.readOn(false)) << "cut short";
    GrowingConsoleLog second(log, options());
    std::ofstream(log, std::ios::binary) << "[rank0]:[2024-03-05 10:00:10] iteration 1/ 100 | elapsed time per iteration (ms): 1000.0 |\n";
    ASSERT_TRUE(second.readOn(false));
    std::filesystem::resize_file(log, 0);
    std::ofstream(log, std::ios::binary) << "[rank0]:[2024-03-06 09:00:00] iteration 7/ 100 | elapsed time per iteration (ms): 1000.0 |\n"
                                            "[rank0]:[2024-03-06 09:00:01] iteration 8/ 100 | elapsed time per iteration (ms): 1000.0 |\n";
    EXPECT_FALSE(second.readOn(false)) << "written anew, longer than it was read";
}

TEST(GrowingConsoleLog, ACompressedLogIsNotReadOnAsItGrows) {
    test::ScratchDir dir;
    const std::string gz = dir.file("rank0.log.gz");
    gzFile out = gzopen(gz.c_str(), "wb");
    ASSERT_NE(out, nullptr);
    const std::string line = "[rank0]:[2024-03-05 10:00:10] iteration 1/ 100 | elapsed time per iteration (ms): 1000.0 |\n";
    gzwrite(out, line.data(), static_cast<unsigned>(line.size()));
    gzclose(out);
    EXPECT_FALSE(GrowingConsoleLog(gz, options()).grows());
    const std::string plain = dir.file("rank0.log");
    std::ofstream(plain, std::ios::binary) << line;
    EXPECT_TRUE(GrowingConsoleLog(plain, options()).grows());
}

}  // namespace
}  // namespace faultline
