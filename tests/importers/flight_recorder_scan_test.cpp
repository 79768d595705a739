// The fast pickle scan (importers/flight_recorder_pickle_scanner.h) against the reference
// reading through the whole document: the same dump from every real dump, from Python's own
// pickler, and from pickles it must leave to the full reader.
#include "import_test_util.h"

#include "importers/pytorch/flight_recorder_group_lists.h"
#include "importers/pytorch/flight_recorder_pickle_scanner.h"
#include "importers/pytorch/flight_recorder_reader.h"
#include "importers/text/read_whole_file.h"
#include "model/error.h"

#include <filesystem>

namespace faultline {
namespace {

using test::fixture;
using test::realData;

const std::string kTraces = "flight_recorder/nvidia-resiliency-ext/tests/attribution/unit/fr_traces";

// Every field of the two dumps, entry by entry, with what differs named.
void expectSameDump(const FlightRecorderDump& fast, const FlightRecorderDump& full) {
    EXPECT_EQ(fast.rank, full.rank);
    EXPECT_EQ(fast.version, full.version);
    EXPECT_EQ(fast.ncclVersion, full.ncclVersion);
    ASSERT_EQ(fast.groups.size(), full.groups.size());
    for (const auto& [name, g] : full.groups) {
        ASSERT_EQ(fast.groups.count(name), 1u) << name;
        const FlightRecorderGroup& f = fast.groups.at(name);
        EXPECT_EQ(f.name, g.name);
        EXPECT_EQ(f.desc, g.desc);
        ASSERT_TRUE(f.ranks && g.ranks);
        EXPECT_EQ(*f.ranks, *g.ranks) << name;
    }
    ASSERT_EQ(fast.groupStatus.size(), full.groupStatus.size());
    for (const auto& [id, s] : full.groupStatus) {
        ASSERT_EQ(fast.groupStatus.count(id), 1u) << id;
        EXPECT_EQ(fast.groupStatus.at(id).lastEnqueued, s.lastEnqueued) << id;
        EXPECT_EQ(fast.groupStatus.at(id).lastStarted, s.lastStarted) << id;
        EXPECT_EQ(fast.groupStatus.at(id).lastCompleted, s.lastCompleted) << id;
    }
    ASSERT_EQ(fast.entryGroups.size(), full.entryGroups.size());
    for (std::size_t i = 0; i < full.entryGroups.size(); ++i) {
        EXPECT_EQ(fast.entryGroups[i].name, full.entryGroups[i].name) << i;
        EXPECT_EQ(fast.entryGroups[i].desc, full.entryGroups[i].desc) << i;
        EXPECT_EQ(fast.entryGroups[i].pgId, full.entryGroups[i].pgId) << i;
    }
    EXPECT_EQ(fast.ops, full.ops);
    EXPECT_EQ(fast.tensors, full.tensors);
    ASSERT_EQ(fast.entries.size(), full.entries.size());
    for (std::size_t i = 0; i < full.entries.size(); ++i) {
        const FlightRecorderEntry& a = fast.entries[i];
        const FlightRecorderEntry& b = full.entries[i];
        EXPECT_EQ(a.collectiveSeqId, b.collectiveSeqId) << "entry " << i;
        EXPECT_EQ(a.timeCreatedNs, b.timeCreatedNs) << "entry " << i;
        EXPECT_EQ(a.group, b.group) << "entry " << i;
        EXPECT_EQ(a.op, b.op) << "entry " << i;
        EXPECT_EQ(a.input, b.input) << "entry " << i;
        EXPECT_EQ(a.output, b.output) << "entry " << i;
        EXPECT_EQ(a.state, b.state) << "entry " << i;
        EXPECT_EQ(a.isP2P, b.isP2P) << "entry " << i;
    }
}

// Whether the scan read the file itself (rather than leaving it to the full reader).
bool scans(const std::string& path) {
    const std::string data = readWholeFile(path);
    FlightRecorderDump dump;
    FlightRecorderGroupLists lists;
    return scanFlightRecorderPickle(data, dump, lists);
}

TEST(FlightRecorderScan, EveryRealDumpScansToTheSameDumpAsTheWholeDocument) {
    FAULTLINE_REQUIRE_REALDATA();
    int dumps = 0;
    for (const char* set : {"gpu_error_1st", "gpu_error_2nd", "lock_gil_1st"}) {
        for (const auto& file : std::filesystem::directory_iterator(realData(kTraces + "/" + set))) {
            const std::string path = file.path().string();
            if (file.path().filename().string().rfind("_dump_", 0) != 0) continue;
            SCOPED_TRACE(path);
            EXPECT_TRUE(scans(path));
            expectSameDump(readFlightRecorderDump(path), readFlightRecorderDump(path, FlightRecorderReading{.wholeDocument = true}));
            // With what an import reads too: start and completion times, output shapes.
            const FlightRecorderDump fast = readFlightRecorderDump(path, FlightRecorderReading{.timings = true});
            const FlightRecorderDump full = readFlightRecorderDump(path, FlightRecorderReading{.wholeDocument = true, .timings = true});
            expectSameDump(fast, full);
            ASSERT_EQ(fast.timings.size(), fast.entries.size());
            EXPECT_TRUE(fast.timings == full.timings);
            ++dumps;
        }
    }
    EXPECT_EQ(dumps, 48);
}

TEST(FlightRecorderScan, PythonsOwnPicklerIsScannedToo) {
    FAULTLINE_REQUIRE_REALDATA();
    // gpu_error_1st/_dump_7 loaded and pickled again by Python 3.11 (protocols 2 and 5):
    // memoised containers, SETITEM and APPEND of one value, FRAME, MEMOIZE.
    for (const char* name : {"fr_repickled_protocol2_7", "fr_repickled_protocol5_7"}) {
        SCOPED_TRACE(name);
        EXPECT_TRUE(scans(fixture(name)));
        const FlightRecorderDump fast = readFlightRecorderDump(fixture(name));
        expectSameDump(fast, readFlightRecorderDump(fixture(name), FlightRecorderReading{.wholeDocument = true}));
        expectSameDump(fast, readFlightRecorderDump(realData(kTraces + "/gpu_error_1st/_dump_7"), FlightRecorderReading{.wholeDocument = true}));
    }
}

TEST(FlightRecorderScan, ASharedContainerIsLeftToTheFullReader) {
    // Every entry's input_sizes is one list, referred to through the memo.
    const std::string path = fixture("fr_shared_input_sizes_7");
    EXPECT_FALSE(scans(path));
    const FlightRecorderDump dump = readFlightRecorderDump(path);
    expectSameDump(dump, readFlightRecorderDump(path, FlightRecorderReading{.wholeDocument = true}));
    ASSERT_FALSE(dump.entries.empty());
    EXPECT_EQ(dump.inputOf(dump.entries.back()).sizes, (std::vector<std::vector<std::int64_t>>{{4096, 1, 5120}}));
}

TEST(FlightRecorderScan, HostilePicklesAreLeftToTheFullReaderWhichRefusesThem) {
    for (const char* name : {"fr_dump_calls_os_system_3", "fr_dump_stack_global_eval_5", "fr_dump_memo_bomb_1", "fr_dump_self_reference_2"}) {
        SCOPED_TRACE(name);
        EXPECT_FALSE(scans(fixture(name)));
        EXPECT_THROW(readFlightRecorderDump(fixture(name)), Error);
    }
}

TEST(FlightRecorderScan, NoPrefixOfARealDumpScans) {
    FAULTLINE_REQUIRE_REALDATA();
    const std::string whole = readWholeFile(realData(kTraces + "/lock_gil_1st/_dump_9"));
    ASSERT_FALSE(whole.empty());
    for (std::size_t cut = 0; cut < whole.size(); ++cut) {
        FlightRecorderDump dump;
        FlightRecorderGroupLists lists;
        EXPECT_FALSE(scanFlightRecorderPickle(std::string_view(whole).substr(0, cut), dump, lists)) << "cut at " << cut;
    }
}

}  // namespace
}  // namespace faultline
