#include "cli/build_info.h"

#include "faultline_build_commit.h"

#include <nlohmann/json_fwd.hpp>
#include <sqlite3.h>
#include <zlib.h>

namespace faultline {

namespace {

std::string compilerName() {
#if defined(__clang__)
    return "Clang " __clang_version__;
#elif defined(__GNUC__)
    return "GCC " + std::to_string(__GNUC__) + "." + std::to_string(__GNUC_MINOR__) + "." + std::to_string(__GNUC_PATCHLEVEL__);
#else
    return "unknown compiler";
#endif
}

}  // namespace

const char* faultlineVersion() { return FAULTLINE_VERSION; }

std::string buildDescription() {
    return std::string("git ") + FAULTLINE_GIT_COMMIT + ", " + FAULTLINE_BUILD_TYPE + ", " + compilerName();
}

std::string versionText(const std::string& program) {
    return program + " " + faultlineVersion() + "\nbuild: " + buildDescription() + "\n";
}

std::vector<LibraryInfo> coreLibraries() {
    const std::string json = std::to_string(NLOHMANN_JSON_VERSION_MAJOR) + "." + std::to_string(NLOHMANN_JSON_VERSION_MINOR) + "." +
                             std::to_string(NLOHMANN_JSON_VERSION_PATCH);
    return {
        {"SQLite", sqlite3_libversion(), "blessing (public domain)", "https://sqlite.org/copyright.html"},
        {"zlib", zlibVersion(), "Zlib", "https://zlib.net/zlib_license.html"},
        {"simdjson", FAULTLINE_SIMDJSON_VERSION, "Apache-2.0 OR MIT", "https://github.com/simdjson/simdjson"},
        {"JSON for Modern C++ (nlohmann/json)", json, "MIT", "https://github.com/nlohmann/json"},
    };
}

}  // namespace faultline
