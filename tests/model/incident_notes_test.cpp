#include "test_runs.h"

#include "model/error.h"
#include "model/incident_notes.h"
#include "model/run_file.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

namespace faultline {
namespace {

using test::ScratchDir;

TEST(IncidentNotes, SavedNotesSurviveReopeningAndLeaveTheRunAsItWas) {
    ScratchDir dir;
    const std::string path = dir.file("run.faultline");
    writeRunFile(test::tinyRun(), path);
    const Nanos begin = test::tinyRun().downtimes.at(2).begin;
    {
        IncidentNotesStore store(path);
        store.save({begin, "Replaced the HGX board; second HBM failure on this host.", RootCause::GpuHbm3Memory,
                    {"hbm", "repeat offender"}, 0});
    }
    IncidentNotesStore reopened(path);
    const auto notes = reopened.load();
    ASSERT_EQ(notes.size(), 1u);
    const IncidentNote& n = notes.at(begin);
    EXPECT_EQ(n.notes, "Replaced the HGX board; second HBM failure on this host.");
    EXPECT_EQ(n.confirmedCause, RootCause::GpuHbm3Memory);
    EXPECT_EQ(n.tags, (std::vector<std::string>{"hbm", "repeat offender"}));
    EXPECT_GT(n.updatedEpochNs, 0);
    // The imported data reads back unchanged.
    const faultline::Run run = readRunFile(path);
    EXPECT_EQ(run.downtimes.size(), test::tinyRun().downtimes.size());
    EXPECT_EQ(run.steps.size(), test::tinyRun().steps.size());
}

TEST(IncidentNotes, EmptyNoteIsRemoved) {
    ScratchDir dir;
    const std::string path = dir.file("run.faultline");
    writeRunFile(test::tinyRun(), path);
    IncidentNotesStore store(path);
    store.save({42, "draft", std::nullopt, {}, 0});
    ASSERT_EQ(store.load().size(), 1u);
    store.save({42, "  ", std::nullopt, {}, 0});
    EXPECT_TRUE(store.load().empty());
}

TEST(IncidentNotes, NoteSurvivesACrashRightAfterSaving) {
    ScratchDir dir;
    const std::string path = dir.file("run.faultline");
    writeRunFile(test::tinyRun(), path);
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        IncidentNotesStore store(path);
        store.save({7, "written just before the crash", RootCause::Nic, {}, 0});
        _exit(9);  // no destructors, no clean close: as a crash leaves it
    }
    int status = 0;
    waitpid(child, &status, 0);
    EXPECT_EQ(IncidentNotesStore(path).load().at(7).notes, "written just before the crash");
}

TEST(IncidentNotes, OnlyRunFilesTakeNotes) {
    ScratchDir dir;
    std::ofstream(dir.file("notes.txt")) << "hello";
    EXPECT_THROW(IncidentNotesStore(dir.file("notes.txt")), Error);
}

TEST(IncidentNotes, Tags) {
    EXPECT_EQ(splitTags(" hbm, ,repeat offender ,"), (std::vector<std::string>{"hbm", "repeat offender"}));
    EXPECT_EQ(joinTags({"a", "b c"}), "a, b c");
    EXPECT_TRUE(splitTags("").empty());
}

}  // namespace
}  // namespace faultline
