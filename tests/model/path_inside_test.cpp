// One notion of "inside a folder" for the output guard and the folder follower: by names,
// after links and "..", so that a sibling sharing a prefix is not inside and a link is.
#include "model/path_inside.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace faultline {
namespace {

namespace fs = std::filesystem;

class PathInside : public ::testing::Test {
protected:
    void SetUp() override {
        m_root = fs::temp_directory_path() / ("faultline-path-inside-" + std::to_string(::getpid()));
        fs::remove_all(m_root);
        fs::create_directories(m_root / "run" / "logs");
        fs::create_directories(m_root / "run2");
        std::ofstream(m_root / "run" / "logs" / "rank0.log") << "x\n";
    }
    void TearDown() override { fs::remove_all(m_root); }
    std::string at(const std::string& relative) const { return (m_root / relative).string(); }
    fs::path m_root;
};

TEST_F(PathInside, AFileBelowTheFolderIsInsideAndTheFolderItselfIsNot) {
    EXPECT_TRUE(isInsideFolder(at("run/logs/rank0.log"), at("run")));
    EXPECT_TRUE(isInsideFolder(at("run/logs"), at("run")));
    EXPECT_TRUE(isInsideFolder(at("run/not-written-yet.faultline"), at("run")));
    EXPECT_TRUE(isInsideFolder(at("run/logs/rank0.log"), at("run") + "/"));
    EXPECT_FALSE(isInsideFolder(at("run"), at("run")));
    EXPECT_FALSE(isInsideFolder(at("run/"), at("run")));
}

TEST_F(PathInside, ASiblingThatSharesTheFoldersNameIsNotInside) {
    EXPECT_FALSE(isInsideFolder(at("run2/x.faultline"), at("run")));
    EXPECT_FALSE(isInsideFolder(at("run.faultline"), at("run")));
}

TEST_F(PathInside, DotDotAndLinksAreResolvedBeforeComparing) {
    EXPECT_FALSE(isInsideFolder(at("run/../x.faultline"), at("run")));
    EXPECT_TRUE(isInsideFolder(at("run2/../run/x.faultline"), at("run")));
    fs::create_directory_symlink(m_root / "run", m_root / "link-to-run");
    EXPECT_TRUE(isInsideFolder(at("link-to-run/x.faultline"), at("run")));
    EXPECT_TRUE(isInsideFolder(at("run/x.faultline"), at("link-to-run")));
}

TEST_F(PathInside, ARelativePathIsTakenFromTheWorkingFolder) {
    const fs::path was = fs::current_path();
    fs::current_path(m_root / "run");
    EXPECT_TRUE(isInsideFolder("logs/rank0.log", at("run")));
    EXPECT_FALSE(isInsideFolder("../run2/x", "."));
    fs::current_path(was);
}

}  // namespace
}  // namespace faultline
