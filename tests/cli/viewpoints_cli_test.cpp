// `faultline-cli viewpoints` as a user runs it: the review file's saved cameras listed in
// order, those of another cluster marked.
#include "saved_camera.h"
#include "test_runs.h"

#include "model/run_file.h"
#include "model/viewpoints.h"

#include <gtest/gtest.h>

namespace faultline {
namespace {

using test::ScratchDir;

using test::savedCamera;

TEST(Viewpoints, TheCliListsThemInOrderAndSaysWhichDoNotFit) {
    ScratchDir dir;
    const std::string path = dir.file("run.faultline");
    writeRunFile(test::tinyRun(), path);
    const std::string cli = std::string(FAULTLINE_CLI) + " viewpoints ";
    test::CommandResult r = test::runCommand(cli + path);
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.output.find("has no saved viewpoints"), std::string::npos) << r.output;
    ViewpointStore(path).save(savedCamera("Aisle", 10));
    Viewpoint alien = savedCamera("Other hall", 1);
    alien.topology = stampOf(buildFabric(FabricShape{.gpus = 1024}));
    ViewpointStore(path).save(alien);
    r = test::runCommand(cli + path);
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("2 viewpoints saved"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("  1  Aisle       from (10.0, -120.5, 80.2) towards (10.0, 40.0, 3.0)"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("  2  Other hall  does not fit"), std::string::npos) << r.output;
    r = test::runCommand(cli + path + " --json");
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("\"name\": \"Aisle\""), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("\"fits\": false"), std::string::npos) << r.output;
    EXPECT_EQ(test::runCommand(cli).status, 2) << "a run file is needed";
}

}  // namespace
}  // namespace faultline
