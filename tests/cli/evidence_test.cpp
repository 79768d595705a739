// No command destroys evidence: an output is never an input, never a FIFO or a device, never
// written through a link, and replaces only a file of its own kind unless forced. The CLI's
// writers run as a user runs them (the shapes of ../shared/repro/overwrite-input.sh,
// dashdash.sh and export-csv-follows-symlink.sh); the guard itself is tested in
// tests/model/output_guard_test.cpp.
#include "file_bytes.h"
#include "cli_command.h"
#include "test_runs.h"

#include "analysis/incidents.h"
#include "exports/csv_export.h"
#include "model/error.h"
#include "model/incident_notes.h"
#include "model/run_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

namespace faultline {
namespace {

using test::bytesOf;
using test::runCli;
namespace fs = std::filesystem;
using test::ScratchDir;

void writeText(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

std::string kernelLog() { return std::string(FAULTLINE_MODEL_TESTDATA) + "/repro/xid_journal.log"; }

TEST(Evidence, NoCliWriterReplacesItsInput) {
    ScratchDir dir;
    const std::string log = dir.file("k.log"), run = dir.file("run.faultline"), shard = dir.file("s1.faultline");
    fs::copy_file(kernelLog(), log);
    fs::create_directory(dir.path() / "x");
    ASSERT_EQ(runCli("simulate --preset tiny -q -o " + run).status, 0);
    ASSERT_EQ(runCli("import " + log + " --shard 1/1 -q -o " + shard).status, 0);
    const std::string logBytes = bytesOf(log), runBytes = bytesOf(run), shardBytes = bytesOf(shard);
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"import " + log + " -o " + log, log},
        {"import " + log + " --force -o " + log, log},
        {"whatif " + run + " --checkpoint-interval 30m -o " + run, run},
        {"whatif " + run + " --checkpoint-interval 30m -o " + dir.file("x/../run.faultline"), run},
        {"merge " + shard + " -o " + shard, shard},
        {"export " + run + " --perfetto " + run, run},
    };
    for (const auto& [command, input] : cases) {
        const test::CommandResult r = runCli(command);
        EXPECT_EQ(r.status, 1) << command << "\n" << r.output;
        EXPECT_NE(r.output.find("of this command: writing it would destroy"), std::string::npos) << command << "\n" << r.output;
    }
    EXPECT_EQ(bytesOf(log), logBytes);
    EXPECT_EQ(bytesOf(run), runBytes);
    EXPECT_EQ(bytesOf(shard), shardBytes);
}

TEST(Evidence, AnUnrelatedFileIsReplacedOnlyWithForce) {
    ScratchDir dir;
    const std::string notes = dir.file("notes.txt");
    writeText(notes, "my notes\n");
    const test::CommandResult refused = runCli("import " + kernelLog() + " -q -o " + notes);
    EXPECT_EQ(refused.status, 1);
    EXPECT_NE(refused.output.find("notes.txt exists and is not a Faultline run file"), std::string::npos) << refused.output;
    EXPECT_EQ(bytesOf(notes), "my notes\n");
    ASSERT_EQ(runCli("import " + kernelLog() + " -q --force -o " + notes).status, 0);
    EXPECT_NO_THROW(readRunFile(notes));

    ASSERT_EQ(::mkfifo(dir.file("out.fifo").c_str(), 0644), 0);
    const test::CommandResult fifo = runCli("simulate --preset tiny -q --force -o " + dir.file("out.fifo"));
    EXPECT_EQ(fifo.status, 1);
    EXPECT_NE(fifo.output.find("is a FIFO"), std::string::npos) << fifo.output;
    EXPECT_TRUE(fs::is_fifo(dir.file("out.fifo")));
}

TEST(Evidence, CsvExportDoesNotWriteThroughAPlantedLink) {
    ScratchDir dir;
    const std::string run = dir.file("run.faultline");
    writeRunFile(test::tinyRun(), run);
    fs::create_directory(dir.path() / "out");
    writeText(dir.file("victim.txt"), "victim\n");
    fs::create_symlink("../victim.txt", dir.file("out/incidents.csv"));
    const test::CommandResult r = runCli("export " + run + " --csv " + dir.file("out"));
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.output.find("symbolic link"), std::string::npos) << r.output;
    EXPECT_EQ(bytesOf(dir.file("victim.txt")), "victim\n");
}

TEST(Evidence, DoubleDashEndsTheOptions) {
    ScratchDir dir;
    fs::copy_file(kernelLog(), dir.file("-weird.log"));
    const test::CommandResult r =
        test::runCommand("cd " + dir.path().string() + " && " + FAULTLINE_CLI + " import -q -o out.faultline -- -weird.log");
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_FALSE(readRunFile(dir.file("out.faultline")).failures.empty());
}

TEST(Evidence, CsvCellsThatASpreadsheetWouldRunAreNeutralised) {
    EXPECT_EQ(neutraliseFormula("=HYPERLINK(\"http://x\",\"y\")"), "'=HYPERLINK(\"http://x\",\"y\")");
    for (const char* risky : {"+1+cmd", "-2+3", "@SUM(A1)", "\tx", "\rx"}) EXPECT_EQ(neutraliseFormula(risky)[0], '\'') << risky;
    for (const char* number : {"-12", "+0.5", "-1.5e-3", "42", "reseated"}) EXPECT_EQ(neutraliseFormula(number), number);

    ScratchDir dir;
    const std::string run = dir.file("run.faultline");
    writeRunFile(test::tinyRun(), run);
    const Nanos begin = buildIncidents(test::tinyRun()).front().begin;
    IncidentNotesStore(run).save({begin, "=cmd|' /C calc'!A0", std::nullopt, {"@risky"}, 0});
    const test::CommandResult r = runCli("incidents --csv " + run);
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("'=cmd|' /C calc'!A0"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("'@risky"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find(",=cmd"), std::string::npos);
}

}  // namespace
}  // namespace faultline
