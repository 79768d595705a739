// What hostile or damaged run files and interrupted writes found: absurd times refused with
// one message, no `.partial-*` left behind, messages that name the user's file.
#include "run_file_sql.h"
#include "test_runs.h"

#include "model/collective_chunks.h"
#include "model/error.h"
#include "model/partial_file.h"
#include "model/run_file.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <csignal>
#include <filesystem>
#include <functional>
#include <fstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace faultline {
namespace {

using test::runSql;
using test::errorReading;
using test::ScratchDir;
using test::tinyRun;

class AbsurdTimes : public ::testing::TestWithParam<std::pair<const char*, const char*>> {};

TEST_P(AbsurdTimes, AreRefusedWithOneMessage) {
    ScratchDir dir;
    const std::string path = dir.file("run.faultline");
    writeRunFile(tinyRun(), path);
    runSql(path, GetParam().first);
    const std::string message = errorReading(path);
    EXPECT_EQ(message.rfind(path + " is corrupt: ", 0), 0u) << message;
    EXPECT_NE(message.find(GetParam().second), std::string::npos) << message;
}

INSTANTIATE_TEST_SUITE_P(
    RunFile, AbsurdTimes,
    ::testing::Values(std::make_pair("UPDATE meta SET value = 9223372036854775000 WHERE key = 'duration_ns'", "longer than ten years"),
                      std::make_pair("UPDATE meta SET value = -5 WHERE key = 'duration_ns'", "duration is negative"),
                      std::make_pair("UPDATE checkpoints SET end_ns = begin_ns - 1 WHERE id = (SELECT min(id) FROM checkpoints)",
                                     "ends before it begins"),
                      std::make_pair("UPDATE checkpoints SET begin_ns = -9000000000000000000 WHERE id = (SELECT min(id) FROM checkpoints)",
                                     "checkpoints row 0"),
                      std::make_pair("UPDATE steps SET duration_ns = -1 WHERE id = (SELECT min(id) FROM steps)", "negative or absurd"),
                      std::make_pair("UPDATE meta SET value = 9223372036854775000 WHERE key = 'start_epoch_ns'", "starts after 2242")));

// Indexes into other tables are checked on open: before, a collective's rank of a million
// took a summary 70 s and 3.7 GB, INT32_MAX ended in "std::bad_alloc", and a failure's
// component index out of range in "vector::_M_range_check" (the file named nowhere).
class BrokenIndexes : public ::testing::TestWithParam<std::pair<const char*, const char*>> {};

TEST_P(BrokenIndexes, AreCorruptNamingTheFileTableAndRow) {
    ScratchDir dir;
    const std::string path = dir.file("run.faultline");
    writeRunFile(test::tracedTinyRun(), path);
    runSql(path, GetParam().first);
    const std::string message = errorReading(path);
    EXPECT_EQ(message.rfind(path + " is corrupt: ", 0), 0u) << message;
    EXPECT_NE(message.find(GetParam().second), std::string::npos) << message;
}

INSTANTIATE_TEST_SUITE_P(
    RunFile, BrokenIndexes,
    ::testing::Values(std::make_pair("UPDATE failures SET component_index = 2147483647 WHERE id = 2",
                                     "failures row 2: component_index 2147483647 names a"),
                      std::make_pair("UPDATE failures SET component_index = -7 WHERE component_kind = 'gpu'", ": component_index -7 names a GPU, which does not exist"),
                      std::make_pair("UPDATE process_groups SET ranks = X'40420f00' WHERE id = 0", "process_groups row 0: rank 1000000"),
                      std::make_pair("UPDATE rank_map SET gpu = 100000 WHERE rank = 3", "rank_map row 3: rank 3 names GPU 100000"),
                      std::make_pair("UPDATE downtimes SET job = 5000 WHERE id = 1", "downtimes row 1: job 5000 does not exist")));

// Collectives are kept in chunks of packed records (collective_chunks.h): a record whose
// index points nowhere, or a chunk cut short or padded, is corruption naming the chunk or
// the record, never a crash or gigabytes allocated.
void replaceChunk(const std::string& path, const std::string& bytes, std::int64_t count) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    sqlite3_stmt* s = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(db, "UPDATE collective_chunks SET records = ?, count = ? WHERE id = 0", -1, &s, nullptr), SQLITE_OK);
    sqlite3_bind_blob(s, 1, bytes.data(), static_cast<int>(bytes.size()), SQLITE_TRANSIENT);
    sqlite3_bind_int64(s, 2, count);
    EXPECT_EQ(sqlite3_step(s), SQLITE_DONE);
    sqlite3_finalize(s);
    sqlite3_close(db);
}

TEST(RunFile, CollectiveChunksWithBrokenRecordsAreCorrupt) {
    ScratchDir dir;
    const std::string path = dir.file("run.faultline");
    const faultline::Run run = test::tracedTinyRun();
    ASSERT_GT(run.collectives.size(), 6u);
    struct Case {
        std::function<void(faultline::CollectiveRecords&)> damage;
        const char* expected;
    };
    const Case cases[] = {
        {[](auto& c) { c[0].rank = 1'000'000; }, "collectives row 0: rank 1000000 is not one of the run's ranks (0 to 255)"},
        {[](auto& c) { c[5].rank = 2'147'483'647; }, "collectives row 5: rank 2147483647 is not one of the run's ranks"},
        {[](auto& c) { c.back().group = 99999; }, "process group 99999 does not exist"},
    };
    for (const Case& c : cases) {
        writeRunFile(run, path);
        faultline::CollectiveRecords records = run.collectives;
        c.damage(records);
        replaceChunk(path, encodeCollectiveChunk(records), static_cast<std::int64_t>(records.size()));
        const std::string message = errorReading(path);
        EXPECT_EQ(message.rfind(path + " is corrupt: ", 0), 0u) << message;
        EXPECT_NE(message.find(c.expected), std::string::npos) << message;
    }
    const std::string whole = encodeCollectiveChunk(run.collectives);
    const auto n = static_cast<std::int64_t>(run.collectives.size());
    writeRunFile(run, path);
    replaceChunk(path, whole.substr(0, whole.size() - 1), n);
    EXPECT_EQ(errorReading(path), path + " is corrupt: collective_chunks row 0: the chunk ends inside a record");
    replaceChunk(path, whole, n - 1);
    EXPECT_EQ(errorReading(path), path + " is corrupt: collective_chunks row 0: the chunk holds more than its " + std::to_string(n - 1) + " records");
    replaceChunk(path, whole, 1LL << 40);
    const std::string tooMany = errorReading(path);
    EXPECT_EQ(tooMany.rfind(path + " is corrupt: collective_chunks row 0: a count of 1099511627776 records does not fit the chunk (", 0), 0u) << tooMany;
    replaceChunk(path, std::string(12, '\xff'), 1);
    EXPECT_EQ(errorReading(path), path + " is corrupt: collective_chunks row 0: a number in the chunk runs over 64 bits");
}

// Any record survives the packing: extreme values, negative steps back in time, empty chunks.
TEST(RunFile, CollectiveChunksRoundTripEveryValue) {
    const std::vector<CollectiveRecord> records = {
        {0, 0, 0, 0, 0, 0, 0},
        {INT32_MAX, INT32_MAX, INT32_MAX, INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX},
        {INT32_MIN, INT32_MIN, INT32_MIN, INT64_MIN, INT64_MIN, INT64_MAX, INT64_MIN},
        {7, 3, 2, 41, 1'000'000'000, 999'999'999, -1},
        {8, 3, 2, 42, -5, 12, 1LL << 40},
    };
    faultline::CollectiveRecords back;
    decodeCollectiveChunk(encodeCollectiveChunk(records), records.size(), back);
    ASSERT_EQ(back.size(), records.size());
    for (std::size_t i = 0; i < records.size(); ++i) {
        EXPECT_EQ(back[i].rank, records[i].rank) << i;
        EXPECT_EQ(back[i].group, records[i].group) << i;
        EXPECT_EQ(back[i].op, records[i].op) << i;
        EXPECT_EQ(back[i].seq, records[i].seq) << i;
        EXPECT_EQ(back[i].enter, records[i].enter) << i;
        EXPECT_EQ(back[i].exit, records[i].exit) << i;
        EXPECT_EQ(back[i].bytes, records[i].bytes) << i;
    }
    back.clear();
    decodeCollectiveChunk(encodeCollectiveChunk({}), 0, back);
    EXPECT_TRUE(back.empty());
}

// The writer checks the same rules before it renames a run into place: a run no reader
// would open is never written, and nothing is left where it would have gone.
TEST(RunFile, ARunNoReaderWouldOpenIsNotWritten) {
    ScratchDir dir;
    const std::string path = dir.file("run.faultline");
    faultline::Run run = tinyRun();
    run.collectives.push_back({1'000'000, 0, 0, 0, 0, 0, 0});
    run.collectiveOps = {"allreduce"};
    run.processGroups = {{"0", {0, 1}}};
    // Its figures are not worked out either: they are asked for once the run is found writable.
    bool figuresAsked = false;
    const FiguresOf figures = [&](const faultline::Run&) {
        figuresAsked = true;
        return StoredFigures{{"summary_text", "ran"}};
    };
    try {
        writeRunFile(run, path, figures);
        ADD_FAILURE() << "written";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("cannot write " + path), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("rank 1000000 is not one of the run's ranks"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(figuresAsked);
    EXPECT_FALSE(std::filesystem::exists(path));
    EXPECT_TRUE(std::filesystem::is_empty(dir.path()));

    run.collectives.back().rank = 0;
    writeRunFile(run, path, figures);
    EXPECT_TRUE(figuresAsked);
    EXPECT_EQ(readStoredFigures(path), (StoredFigures{{"summary_text", "ran"}}));
}

// A FIFO named as a run file blocked the reader forever.
TEST(RunFile, AFifoIsNotARunFileAndDoesNotBlock) {
    ScratchDir dir;
    const std::string path = dir.file("run.faultline");
    ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
    EXPECT_EQ(errorReading(path), path + " is not a regular file (a FIFO, socket or device), not a Faultline run file");
}

TEST(PartialFile, StaleLeftoversOfGoneWritersAreRemoved) {
    ScratchDir dir;
    const std::string target = dir.file("run.faultline");
    // A writer killed with SIGKILL leaves its file; pid 999999999 runs nowhere (pid_max is lower).
    const std::string stale = target + ".partial-999999999";
    std::ofstream(stale) << "half a run";
    // A writer that is still running (this test's parent) keeps its file.
    const std::string live = target + ".partial-" + std::to_string(::getppid());
    std::ofstream(live) << "being written";
    writeRunFile(tinyRun(), target);
    EXPECT_FALSE(std::filesystem::exists(stale));
    EXPECT_TRUE(std::filesystem::exists(live));
    EXPECT_TRUE(std::filesystem::exists(target));
    readRunFile(target);
}

TEST(PartialFile, TerminationRemovesTheFileBeingWritten) {
    for (int sig : {SIGTERM, SIGINT}) {
        ScratchDir dir;
        const std::string target = dir.file("run.faultline");
        const pid_t child = ::fork();
        ASSERT_GE(child, 0);
        if (child == 0) {
            PartialFile partial(target);
            std::ofstream(partial.path()) << "half a run";
            ::raise(sig);  // Ctrl-C or kill, mid-write
            ::_exit(0);
        }
        int status = 0;
        ASSERT_EQ(::waitpid(child, &status, 0), child);
        EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << "signal " << sig;
        EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "signal " << sig << ": something was left in " << dir.path();
    }
}

TEST(PartialFile, FailedWritesNameTheRunFileNotTheTemporaryOne) {
    ScratchDir dir;
    const std::string target = dir.file("run.faultline");
    std::filesystem::create_directory(target);  // a folder is in the way
    std::ofstream(target + "/keep") << "x";
    std::string message;
    try {
        writeRunFile(tinyRun(), target);
    } catch (const Error& e) {
        message = e.what();
    }
    EXPECT_NE(message.find(target), std::string::npos) << message;
    EXPECT_EQ(message.find(".partial-"), std::string::npos) << message;
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), std::filesystem::directory_iterator()), 1);
}

TEST(RunFile, AnUnreadableFileSaysSoNotEmpty) {
    if (::geteuid() == 0) GTEST_SKIP() << "running as root, which reads every file whatever its permissions";
    ScratchDir dir;
    const std::string path = dir.file("run.faultline");
    writeRunFile(tinyRun(), path);
    ::chmod(path.c_str(), 0);
    const std::string message = errorReading(path);
    EXPECT_NE(message.find("cannot read " + path), std::string::npos) << message;
    EXPECT_NE(message.find("Permission denied"), std::string::npos) << message;
}

}  // namespace
}  // namespace faultline
