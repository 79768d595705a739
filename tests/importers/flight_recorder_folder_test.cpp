// A folder of Flight Recorder dumps, one per rank, is read on several threads with one open and
// one read a dump: the dumps and the run are those of one thread reading them in turn, a dump
// that cannot be read is named with the byte where it broke, and the bytes read once for
// detection are judged as the file read again would be.
#include "file_bytes.h"
#include "import_test_util.h"

#include "importers/events/import_report.h"
#include "importers/formats.h"
#include "importers/pytorch/flight_recorder_reader.h"
#include "importers/text/read_whole_file.h"
#include "model/run_file.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace faultline {
namespace {

using test::kFr;
using test::writeFile;
using test::bytesOf;
using test::errorOf;
using test::realData;

// Every dump as the reader kept it, in file order.
std::string dumpsAsJson(const std::vector<FlightRecorderDump>& dumps) {
    std::string out;
    for (const FlightRecorderDump& d : dumps) out += d.path + " " + flightRecorderDumpToJson(d) + "\n";
    return out;
}

// The run as written to a run file, and the import report: everything the import kept.
std::string importedAs(const std::string& folder, int workers, const test::ScratchDir& dir) {
    ImportOptions options;
    options.workers = workers;
    const ImportResult r = importFiles({folder}, options);
    const std::string path = dir.file("run-" + std::to_string(workers) + ".faultline");
    writeRunFile(r.run, path);
    return importSummaryToJson(r.summary).dump(1) + "\n" + bytesOf(path);
}

// Read system calls this process made so far (the kernel's count, every thread's together).
long readCalls() {
    std::ifstream in("/proc/self/io");
    std::string key;
    long value = 0;
    while (in >> key >> value)
        if (key == "syscr:") return value;
    return -1;
}

TEST(FlightRecorderFolder, ReadOnFourThreadsGivesTheDumpsAndRunOfOne) {
    FAULTLINE_REQUIRE_REALDATA();
    for (const char* set : {"gpu_error_1st", "lock_gil_1st"}) {
        const std::string folder = realData(kFr + set);
        EXPECT_EQ(dumpsAsJson(readFlightRecorderDumps({folder}, 4)), dumpsAsJson(readFlightRecorderDumps({folder}, 1))) << set;
        test::ScratchDir dir;
        const std::string one = importedAs(folder, 1, dir);
        EXPECT_EQ(importedAs(folder, 4, dir), one) << set;
        EXPECT_NE(one.find("flight-recorder"), std::string::npos);
    }
}

TEST(FlightRecorderFolder, ADumpCutShortAmongManyIsNamedWithTheByteWhereItBroke) {
    FAULTLINE_REQUIRE_REALDATA();
    test::ScratchDir dir;
    const std::string folder = realData(kFr + "gpu_error_1st");
    for (int r = 0; r < 16; ++r) {
        const std::string name = "_dump_" + std::to_string(r);
        const std::string bytes = bytesOf(folder + "/" + name);
        writeFile(dir.file(name), r == 11 ? std::string_view(bytes).substr(0, bytes.size() / 2) : std::string_view(bytes));
    }
    const std::string broken = dir.file("_dump_11");
    for (int workers : {1, 4}) {
        const std::string hang = errorOf([&] { readFlightRecorderDumps({dir.path().string()}, workers); });
        EXPECT_EQ(hang.rfind(broken + ": byte ", 0), 0u) << hang;
        ImportOptions options;
        options.workers = workers;
        const std::string import = errorOf([&] { importFiles({dir.path().string()}, options); });
        EXPECT_EQ(import.rfind(broken + ": byte ", 0), 0u) << import;
    }
}

// Each dump is opened and read once: the import's format detection and the reader share the
// bytes, and a file read to its size is not read again to see its end.
TEST(FlightRecorderFolder, EachDumpCostsOneReadCall) {
    FAULTLINE_REQUIRE_REALDATA();
    ASSERT_GE(readCalls(), 0) << "no /proc/self/io";
    const std::string folder = realData(kFr + "gpu_error_1st");
    test::ScratchDir dir;
    for (int copy = 0; copy < 4; ++copy)
        for (int r = 0; r < 16; ++r)
            writeFile(dir.file("_dump_" + std::to_string(copy * 16 + r)), bytesOf(folder + "/_dump_" + std::to_string(r)));
    long before = readCalls();
    EXPECT_EQ(readFlightRecorderDumps({dir.path().string()}, 4).size(), 64u);
    EXPECT_LE(readCalls() - before, 64 + 8);

    // The real folder also holds the job's console log: the import is of the dumps alone.
    test::ScratchDir dumps;
    for (int r = 0; r < 16; ++r) writeFile(dumps.file("_dump_" + std::to_string(r)), bytesOf(folder + "/_dump_" + std::to_string(r)));
    before = readCalls();
    ImportOptions options;
    options.workers = 4;
    const ImportResult r = importFiles({dumps.path().string()}, options);
    EXPECT_EQ(r.summary.files.size(), 16u);
    // Beside the dumps' 16, the run builder's parallel loops each ask for the number of cores
    // (glibc reads /sys/devices/system/cpu/online): about 20 reads, however many dumps. Read
    // with detection's own open, the dumps took three a dump (64 in all).
    EXPECT_LE(readCalls() - before, 16 + 32);
}

// Detection from the bytes read whole judges every fixture as detection from the file does.
TEST(FlightRecorderFolder, DetectionFromBytesReadWholeAgreesWithDetectionFromTheFile) {
    std::string bytes;
    int judged = 0;
    for (const auto& e : std::filesystem::recursive_directory_iterator(FAULTLINE_IMPORTER_TESTDATA)) {
        const std::string path = e.path().string();
        if (!e.is_regular_file() || !readPlainFile(path, std::size_t{4} << 20, bytes)) continue;
        std::string fromFile, fromBytes;
        try {
            const FormatInfo* f = detectFormat(path);
            fromFile = f ? std::string(f->name) : "unknown";
        } catch (const std::exception& ex) {
            fromFile = ex.what();
        }
        try {
            const FormatInfo* f = detectFormatOfPlainFile(path, bytes);
            fromBytes = f ? std::string(f->name) : "unknown";
        } catch (const std::exception& ex) {
            fromBytes = ex.what();
        }
        EXPECT_EQ(fromBytes, fromFile) << path;
        ++judged;
    }
    EXPECT_GT(judged, 50);
}

}  // namespace
}  // namespace faultline
