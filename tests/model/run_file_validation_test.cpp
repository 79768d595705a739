// Validation complete (../shared/repro/round4): every index column checked at its full 64
// bits before it is narrowed, failures' rank lists checked like every other rank, and no
// allocation sized from a count the file gives before the count is checked.
#include "run_file_sql.h"
#include "test_runs.h"

#include "model/error.h"
#include "model/run_file.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

namespace faultline {
namespace {

using test::runSql;
using test::errorReading;
using test::ScratchDir;

struct WideIndex {
    const char* table;
    const char* column;
};

// int64-index-truncated.sh: component_index = 2^32+3 was read as 3, another switch.
class WideIndexes : public ::testing::TestWithParam<WideIndex> {};

TEST_P(WideIndexes, AreCorruptNotNarrowedToAnotherRow) {
    ScratchDir dir;
    const std::string path = dir.file("run.faultline");
    const WideIndex c = GetParam();
    for (const std::string value : {"4294967299", "-9223372036854775808", "2147483648"}) {
        writeRunFile(test::tracedTinyRun(), path);
        EXPECT_GT(runSql(path, std::string("UPDATE ") + c.table + " SET " + c.column + " = " + value + " WHERE rowid = (SELECT min(rowid) FROM " + c.table + ")"), 0);  // the table has the row the case damages
        const std::string message = errorReading(path);
        EXPECT_EQ(message.rfind(path + " is corrupt: ", 0), 0u) << message;
        EXPECT_NE(message.find(std::string(c.table) + " row 0: " + c.column + " " + value + " does not fit 32 bits (expected an index or count from -2147483648 to 2147483647)"),
                  std::string::npos)
            << message;
    }
}

INSTANTIATE_TEST_SUITE_P(RunFile, WideIndexes,
                         ::testing::Values(WideIndex{"failures", "component_index"}, WideIndex{"failures", "xid"}, WideIndex{"downtimes", "failure"},
                                           WideIndex{"stragglers", "gpu"}, WideIndex{"rank_map", "gpu"}, WideIndex{"hosts", "rack"},
                                           WideIndex{"hosts", "first_gpu"}, WideIndex{"hosts", "gpu_count"}, WideIndex{"gpus", "host"},
                                           WideIndex{"nics", "host"}, WideIndex{"racks", "zone"}, WideIndex{"zones", "cluster"},
                                           WideIndex{"switches", "cluster"}, WideIndex{"links", "lower_index"}, WideIndex{"links", "upper_index"}),
                         [](const auto& p) { return std::string(p.param.table) + "_" + p.param.column; });

// failure-ranks-unchecked.sh: -1 and 2147483647 were shown as suspects, a 7-byte list read.
TEST(RunFile, FailureRankListsAreChecked) {
    ScratchDir dir;
    const std::string path = dir.file("run.faultline");
    const std::pair<const char*, const char*> cases[] = {
        {"ranks = X'ffffffffffffff'", "failures row 0: ranks: a blob of 7 bytes is not a list of 4-byte numbers (expected a multiple of 4 bytes)"},
        {"ranks = X'ffffffff'", "failures row 0: ranks: rank -1 is not one of the run's ranks (0 to 255)"},
        {"suspect_ranks = X'ffffff7f'", "failures row 0: suspect_ranks: rank 2147483647 is not one of the run's ranks (0 to 255)"},
        {"suspect_ranks = X'00010000'", "failures row 0: suspect_ranks: rank 256 is not one of the run's ranks (0 to 255)"},
    };
    for (const auto& [set, expected] : cases) {
        writeRunFile(test::tracedTinyRun(), path);
        EXPECT_GT(runSql(path, std::string("UPDATE failures SET ") + set + " WHERE rowid = (SELECT min(rowid) FROM failures)"), 0);
        EXPECT_EQ(errorReading(path), path + " is corrupt: " + expected);
    }
    writeRunFile(test::tracedTinyRun(), path);
    EXPECT_GT(runSql(path, "UPDATE failures SET ranks = X'00000000ff000000', suspect_ranks = X'ff000000' WHERE rowid = (SELECT min(rowid) FROM failures)"), 0);
    EXPECT_EQ(readRunFile(path).failures.at(0).suspectRanks, std::vector<std::int32_t>{255});
}

// chunk-count-bad-alloc.sh: a count of a billion was allocated for before it was checked.
TEST(RunFile, ACollectiveChunkCountIsCheckedBeforeAnythingIsAllocated) {
    ScratchDir dir;
    const std::string path = dir.file("run.faultline");
    for (const char* count : {"1000000000", "2147483647", "9223372036854775807", "-1"}) {
        writeRunFile(test::tracedTinyRun(), path);
        EXPECT_GT(runSql(path, std::string("UPDATE collective_chunks SET count = ") + count), 0);
        const std::string message = errorReading(path);
        EXPECT_EQ(message.rfind(path + " is corrupt: collective_chunks row 0: a count of " + count + " records does not fit the chunk (", 0), 0u) << message;
        EXPECT_NE(message.find(" records of 7 bytes or more)"), std::string::npos) << message;
    }
}

}  // namespace
}  // namespace faultline
