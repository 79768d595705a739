#pragma once
// The source tree as the tests of its structure see it: folders and files of the checkout,
// without build outputs and version control.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace faultline::test {

inline const std::filesystem::path& sourceDir() {
    static const std::filesystem::path dir(FAULTLINE_SOURCE_DIR);
    return dir;
}

// A folder a developer made: not a build output, not version control or an editor's cache.
inline bool isSourceFolder(const std::filesystem::path& name) {
    const std::string n = name.string();
    if (n.rfind("build", 0) == 0) return false;
    return n.empty() || n[0] != '.' || n == ".ci";
}

inline std::string readText(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

}  // namespace faultline::test
