// Issue #26, "evidence is sacred": the outside campaign's reproducers (copied from
// ../shared/repro into data/importers/repro). An import either writes a run every reader
// opens, or fails naming the input that would have broken it; inputs that are not files are
// refused before anything blocks on them.
#include "import_test_util.h"

#include "importers/pytorch/flight_recorder_reader.h"
#include "model/error.h"
#include "model/run_file.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <fstream>
#include <filesystem>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

namespace faultline {
namespace {

using test::errorOf;
using test::fixture;
using test::ScratchDir;

std::string repro(const std::string& name) { return fixture("repro/" + name); }

struct Refused {
    const char* input;
    const char* format;
    const char* message;  // follows "<input>" in the error
};

class RefusedImports : public ::testing::TestWithParam<Refused> {};

TEST_P(RefusedImports, NameTheInputAndWriteNothing) {
    ScratchDir dir;
    const std::string out = dir.file("run.faultline");
    ImportOptions options;
    options.format = GetParam().format;
    const std::string input = repro(GetParam().input);
    const std::string message = errorOf([&] { importToRunFile({input}, out, options); });
    EXPECT_EQ(message.rfind(input + GetParam().message, 0), 0u) << message;
    EXPECT_FALSE(std::filesystem::exists(out));
}

INSTANTIATE_TEST_SUITE_P(
    Repro, RefusedImports,
    ::testing::Values(
        // Each imported, and every reader then called the run file corrupt.
        // span-54y.sacct.txt and year2262.sacct.txt, once refused here, now import with their
        // impossible times left unknown (ImpossibleSacctTimesAreLeftUnknownNotRefused).
        Refused{"absurd-step.torchtitan.log", "training-log", ": cannot import: the run made of it would break a rule every reader of run files checks (steps row 0: step 2147483648 has a negative or absurd time)"},
        // Said "year 9999 is outside 1970-2262" without naming the file.
        Refused{"year9999-unnamed.sacct.txt", "", ":2: year 9999 is outside 1970-2262"},
        // Said "[json.exception.type_error.302] type must be number, but is string".
        Refused{"raw-json-topology.json", "", ": expected \"version\" to be a whole number, found text \"8\""}),
    [](const auto& param) {
        std::string name = param.param.input;
        for (char& c : name)
            if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
        return name;
    });

// A Flight Recorder JSON dump with a dict where a list of dimensions belongs, a number where
// text belongs, "" for a boolean: the hang reader names the file, the entry and what it
// expected (it said "[json.exception.type_error.302] ..."). The importer reads dumps with the
// same reader (one truth: what `hang` reads is what the run holds), outputs too, so it refuses
// the file at its first odd output and writes nothing.
TEST(Repro, OddFlightRecorderJsonIsNamed) {
    const std::string input = repro("raw-json-frjson-rank_14.json");
    EXPECT_EQ(errorOf([&] { readFlightRecorderDump(input); }), input + ": entries[33]: input_sizes[0]: expected a list of dimensions, found a dict");
    ScratchDir dir;
    const std::string out = dir.file("run.faultline");
    EXPECT_EQ(errorOf([&] { importToRunFile({input}, out, {}); }), input + ": entries[0]: output_sizes[0]: expected a list of dimensions, found a dict");
    EXPECT_FALSE(std::filesystem::exists(out));
}

// A FIFO with no writer blocked `import` forever.
TEST(NotAFile, AFifoGivenOrInAFolderIsRefusedAtOnce) {
    ScratchDir dir;
    const std::string fifo = dir.file("p.log");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const auto start = std::chrono::steady_clock::now();
    for (const char* format : {"", "kernel-log"}) {
        ImportOptions options;
        options.format = format;
        const std::string message = errorOf([&] { importFiles({fifo}, options); });
        EXPECT_EQ(message.rfind(fifo + ": is a FIFO (named pipe), not a regular file", 0), 0u) << message;
    }
    const std::string inFolder = errorOf([&] { importFiles({dir.path().string()}, {}); });
    EXPECT_EQ(inFolder.rfind(fifo + ": is a FIFO (named pipe), not a regular file", 0), 0u) << inFolder;
    const std::string hang = errorOf([&] { readFlightRecorderDumps({dir.file("_dump_0")}); });
    EXPECT_NE(hang.find("no such file"), std::string::npos) << hang;
    ASSERT_EQ(::mkfifo(dir.file("_dump_1").c_str(), 0600), 0);
    const std::string hangFifo = errorOf([&] { readFlightRecorderDumps({dir.path().string()}); });
    EXPECT_EQ(hangFifo.rfind(dir.file("_dump_1") + ": is a FIFO (named pipe)", 0), 0u) << hangFifo;
    // Not a bound on speed: a blocked open would never return at all.
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::minutes(5));
}

TEST(NotAFile, DevicesAndSocketsAreRefused) {
    EXPECT_EQ(errorOf([] { importFiles({"/dev/zero"}, {}); }).rfind("/dev/zero: is a character device, not a regular file", 0), 0u);
    ScratchDir dir;
    const std::string path = dir.file("collector.sock");
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    ASSERT_GE(fd, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    ASSERT_LT(path.size(), sizeof addr.sun_path);
    path.copy(addr.sun_path, path.size());
    ASSERT_EQ(::bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr), 0);
    const std::string message = errorOf([&] { importFiles({path}, {}); });
    ::close(fd);
    EXPECT_EQ(message.rfind(path + ": is a socket, not a regular file", 0), 0u) << message;
}

// "filesystem error: ... Too many levels of symbolic links" aborted the import of a folder.
TEST(NotAFile, ALinkThatLoopsInAFolderIsSkippedWithAWarning) {
    ScratchDir dir;
    const std::filesystem::path logs = dir.path() / "logs";
    std::filesystem::create_directories(logs);
    std::ofstream(logs / "a.sacct.txt") << "JobID|JobName|State|Start|End|NodeList\n1|x|FAILED|2025-04-11T00:00:00|2025-04-11T10:00:00|gpu01\n";
    std::filesystem::create_symlink(logs / "loop", logs / "loop");
    std::filesystem::create_symlink(logs / "gone", logs / "dangling.log");
    const ImportResult result = importFiles({logs.string()}, {});
    ASSERT_EQ(result.summary.files.size(), 1u);
    const std::vector<std::string>& warnings = result.summary.files[0].warnings;
    auto warned = [&](const std::string& start) {
        return std::any_of(warnings.begin(), warnings.end(), [&](const std::string& w) { return w.rfind(start, 0) == 0; });
    };
    EXPECT_TRUE(warned((logs / "loop").string() + ": skipped: a symbolic link that loops")) << ::testing::PrintToString(warnings);
    EXPECT_TRUE(warned((logs / "dangling.log").string() + ": skipped: a symbolic link to nothing")) << ::testing::PrintToString(warnings);
    // Given directly, the loop is an error that says what it is.
    EXPECT_EQ(errorOf([&] { importFiles({(logs / "loop").string()}, {}); }), (logs / "loop").string() + ": a symbolic link that loops (too many levels of symbolic links)");
}

}  // namespace
}  // namespace faultline
