// The faultline binary's writers (--report, --screenshot, --presentation, --record) as the
// CLI's (tests/cli/review_safety_test.cpp): never over the review of the run they read, with
// or without --force; and a write that fails (writes refused past a few KB, as on a full disk)
// exits 1 naming the file and the cause, the older file left as it was (issue 39).
#include "file_bytes.h"
#include "test_runs.h"
#include "write_faults.h"

#include "model/incident_notes.h"
#include "model/run_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace faultline {
namespace {

namespace fs = std::filesystem;
using test::ScratchDir;

using test::bytesOf;

test::CommandResult runApp(const std::string& args, const std::string& prefix = "") {
    return test::runCommand("sh -c '" + prefix + FAULTLINE_APP + " " + args + "'");
}

TEST(AppWritersSafety, NoAppWriterReplacesTheReviewOfTheRunItReadsEvenForced) {
    ScratchDir dir;
    const std::string run = dir.file("run.faultline"), review = run + "-review";
    writeRunFile(test::oneFailureRun(), run);
    IncidentNotesStore(run).save({7, "precious reviewer note", std::nullopt, {}, 0});
    const std::string before = bytesOf(review);
    // --presentation takes only a name ending in .pdf: the review reached through a link.
    fs::create_symlink(review, dir.file("review.pdf"));
    for (const std::string force : {"", " --force"})
        for (const std::string& writer : {"--report " + review, "--screenshot " + review, "--record " + review, "--presentation " + dir.file("review.pdf"),
                                         "--report " + dir.file("review.pdf")}) {
            const test::CommandResult r = runApp(writer + " " + run + force);
            EXPECT_EQ(r.status, 1) << writer << force << "\n" << r.output;
            EXPECT_NE(r.output.find("review"), std::string::npos) << writer << force << "\n" << r.output;
            EXPECT_EQ(r.output.find("give --force"), std::string::npos) << writer << force << "\n" << r.output;
        }
    EXPECT_TRUE(fs::is_symlink(dir.file("review.pdf")));
    EXPECT_EQ(bytesOf(review), before);
    EXPECT_EQ(readIncidentNotes(run).at(7).notes, "precious reviewer note");
}

TEST(AppWritersSafety, AFailedWriteExitsOneAndLeavesTheOlderFile) {
    ScratchDir dir;
    const std::string run = dir.file("run.faultline");
    writeRunFile(test::tinyRun(), run);
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"--report " + dir.file("r.html"), "<!doctype html><p>an older report</p>"},
        {"--report " + dir.file("r.pdf"), "%PDF-1.4 an older report"},
        {"--presentation " + dir.file("p.pdf"), "%PDF-1.4 older slides"},
        {"--screenshot " + dir.file("c.svg") + " --view charts", "<svg>an older picture</svg>"},
    };
    for (const auto& [args, older] : cases) {
        const std::string target = args.substr(args.find(' ') + 1, args.find(' ', args.find(' ') + 1) - args.find(' ') - 1);
        std::ofstream(target, std::ios::binary) << older;
        const test::CommandResult r = runApp(args + " " + run + " --force", test::fileSizeLimitPrefix(16));
        EXPECT_EQ(r.status, 1) << args << "\n" << r.output;
        EXPECT_NE(r.output.find(target), std::string::npos) << args << "\n" << r.output;
        EXPECT_NE(r.output.find("file too large"), std::string::npos) << args << "\n" << r.output;
        EXPECT_EQ(bytesOf(target), older) << args;
    }
    for (const auto& entry : fs::directory_iterator(dir.path()))
        EXPECT_EQ(entry.path().filename().string().find(".partial-"), std::string::npos) << entry.path();
}

}  // namespace
}  // namespace faultline
