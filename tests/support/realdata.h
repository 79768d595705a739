#pragma once
// Real files written by real tools live outside the repository: ../shared/realdata beside the
// project by default, or where the CMake cache variable FAULTLINE_REALDATA_DIR (or, at run
// time, the environment variable FAULTLINE_REALDATA) says. A test that reads them starts with
// FAULTLINE_REQUIRE_REALDATA(): where the set is absent it is skipped, with the reason.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace faultline::test {

inline std::string realDataDir() {
    const char* env = std::getenv("FAULTLINE_REALDATA");
    return env && *env ? std::string(env) : std::string(FAULTLINE_REALDATA);
}
inline bool haveRealData() { return std::filesystem::is_directory(realDataDir()); }
inline std::string realData(const std::string& rel) { return realDataDir() + "/" + rel; }

}  // namespace faultline::test

#define FAULTLINE_REQUIRE_REALDATA()                                                                                 \
    if (!::faultline::test::haveRealData())                                                                          \
    GTEST_SKIP() << "real-data set not found at " << ::faultline::test::realDataDir()                              \
                 << " (clone with ../shared/realdata beside it, or set FAULTLINE_REALDATA_DIR; see README)"
