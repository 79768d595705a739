// Saved viewpoints as the review file keeps them: beside the run (never in it), beside the
// notes (neither write loses the other), in the order saved, and refused on another cluster.
#include "saved_camera.h"
#include "test_runs.h"

#include "model/error.h"
#include "model/incident_notes.h"
#include "model/review_file.h"
#include "model/run_file.h"
#include "model/viewpoints.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace faultline {
namespace {

using test::ScratchDir;

using test::savedCamera;

TEST(Viewpoints, SavedRenamedAndDeletedInTheReviewFileNotTheRun) {
    ScratchDir dir;
    const std::string path = dir.file("run.faultline");
    writeRunFile(test::tinyRun(), path);
    const std::string runBefore = test::fileChecksum(path);
    {
        ViewpointStore store(path);
        store.save(savedCamera("Zone 1 from the aisle", 10));
        store.save(savedCamera("  Top of row 2 ", 20));  // the name is trimmed
        store.save(savedCamera("Zone 1 from the aisle", 15));  // the same name: its camera replaced, in place
    }
    EXPECT_TRUE(std::filesystem::exists(path + "-review"));
    EXPECT_EQ(test::fileChecksum(path), runBefore) << "saving a viewpoint never writes the run file";
    std::vector<Viewpoint> all = readViewpoints(path);
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(all[0].name, "Zone 1 from the aisle");
    EXPECT_EQ(all[0].position, (std::array<double, 3>{15, -120.5, 80.25}));
    EXPECT_EQ(all[0].focal, (std::array<double, 3>{15, 40, 3}));
    EXPECT_EQ(all[0].up, (std::array<double, 3>{0, 0.6, 0.8}));
    EXPECT_EQ(all[0].topology, stampOf(test::tinyRun().topology));
    EXPECT_GT(all[0].savedEpochNs, 0);
    EXPECT_EQ(all[1].name, "Top of row 2");

    ViewpointStore store(path);
    store.rename("Top of row 2", "Row 2 from above");
    EXPECT_NE(findViewpoint(store.load(), "Row 2 from above"), nullptr);
    EXPECT_THROW(store.rename("Row 2 from above", "Zone 1 from the aisle"), Error) << "a name in use";
    EXPECT_THROW(store.rename("No such view", "x"), Error);
    EXPECT_THROW(store.save(savedCamera("   ", 1)), Error) << "a viewpoint needs a name";
    store.remove("Zone 1 from the aisle");
    all = store.load();
    ASSERT_EQ(all.size(), 1u);
    EXPECT_EQ(all[0].name, "Row 2 from above");
    EXPECT_THROW(store.remove("Zone 1 from the aisle"), Error);
}

TEST(Viewpoints, NotesAndViewpointsKeepEachOtherAndEnterTheRunFileTogether) {
    ScratchDir dir;
    const std::string path = dir.file("run.faultline");
    writeRunFile(test::tinyRun(), path);
    ViewpointStore(path).save(savedCamera("Overview", 1));
    IncidentNotesStore(path).save({42, "Rack switch reseated", std::nullopt, {"network"}, 0});
    ASSERT_EQ(readViewpoints(path).size(), 1u) << "saving a note keeps the viewpoints";
    ViewpointStore(path).save(savedCamera("Close-up", 2));
    ASSERT_EQ(readIncidentNotes(path).size(), 1u) << "saving a viewpoint keeps the notes";

    saveReviewIntoRunFile(path);
    EXPECT_FALSE(std::filesystem::exists(path + "-review"));
    const std::vector<Viewpoint> fromRun = readViewpoints(path);
    ASSERT_EQ(fromRun.size(), 2u);
    EXPECT_EQ(fromRun[1].name, "Close-up");
    EXPECT_EQ(readIncidentNotes(path).at(42).notes, "Rack switch reseated");
}

TEST(Viewpoints, AViewpointOfAnotherClusterIsRefusedNamingBoth) {
    Viewpoint v = savedCamera("Hall", 1);
    EXPECT_FALSE(viewpointMismatch(v, test::tinyRun().topology));
    const Topology other = buildFabric(FabricShape{.gpus = 1024});
    const auto why = viewpointMismatch(v, other);
    ASSERT_TRUE(why);
    EXPECT_NE(why->find("\"Hall\""), std::string::npos) << *why;
    EXPECT_NE(why->find("256 GPUs"), std::string::npos) << *why;
    EXPECT_NE(why->find("1024 GPUs"), std::string::npos) << *why;
    // The same size, other names: still another cluster.
    Topology renamed = test::tinyRun().topology;
    renamed.racks.front().name += "-b";
    const auto sameSize = viewpointMismatch(v, renamed);
    ASSERT_TRUE(sameSize);
    EXPECT_NE(sameSize->find("same size"), std::string::npos) << *sameSize;
}

TEST(Viewpoints, OnlyARunFileKeepsViewpoints) {
    ScratchDir dir;
    const std::string notRun = dir.file("notes.txt");
    { std::ofstream(notRun) << "not a run"; }
    EXPECT_THROW(ViewpointStore{notRun}, Error);
}

}  // namespace
}  // namespace faultline
