// bench/ sits beside the tests, never under the product and never on the tests' code: no
// product folder includes a benchmark, and no benchmark includes a test header or links a test
// library (a benchmark that needs the tests' fixtures lives with those tests).
#include "source_tree.h"

#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>

namespace fs = std::filesystem;
using faultline::test::readText;
using faultline::test::sourceDir;

namespace {

// The quoted includes of every .h and .cpp under `folder`, as "file: include".
std::vector<std::pair<std::string, std::string>> quotedIncludes(const std::string& folder) {
    std::vector<std::pair<std::string, std::string>> out;
    const std::regex include(R"(^\s*#\s*include\s+"([^"]+)\")");
    for (const fs::directory_entry& e : fs::recursive_directory_iterator(sourceDir() / folder)) {
        const std::string ext = e.path().extension().string();
        if (!e.is_regular_file() || (ext != ".h" && ext != ".cpp")) continue;
        std::istringstream lines(readText(e.path()));
        std::string line;
        std::smatch m;
        while (std::getline(lines, line))
            if (std::regex_search(line, m, include)) out.emplace_back(fs::relative(e.path(), sourceDir()).generic_string(), m[1]);
    }
    return out;
}

// The file names of every header under tests/: what a test include would name.
std::set<std::string> testHeaderNames() {
    std::set<std::string> names;
    for (const fs::directory_entry& e : fs::recursive_directory_iterator(sourceDir() / "tests"))
        if (e.is_regular_file() && e.path().extension() == ".h") names.insert(e.path().filename().string());
    return names;
}

}  // namespace

TEST(BenchFloor, NoBenchmarkIncludesATestHeaderOrLinksATestLibrary) {
    const std::set<std::string> testHeaders = testHeaderNames();
    ASSERT_FALSE(testHeaders.empty());
    const auto includes = quotedIncludes("bench");
    ASSERT_FALSE(includes.empty()) << "bench/ has no sources to check";
    for (const auto& [file, target] : includes) {
        EXPECT_FALSE(target.starts_with("tests/")) << file << " includes " << target;
        // A bare name is found through an include path; it must not be a test's header.
        if (target.find('/') == std::string::npos) {
            EXPECT_FALSE(testHeaders.count(target)) << file << " includes the test header " << target;
        }
    }
    const std::string cmake = readText(sourceDir() / "bench" / "CMakeLists.txt");
    // Fixtures (tests/data) are files a benchmark may read; test code is not.
    for (std::size_t at = cmake.find("tests/"); at != std::string::npos; at = cmake.find("tests/", at + 1))
        EXPECT_EQ(cmake.compare(at, 11, "tests/data/"), 0) << "bench/CMakeLists.txt reaches into tests/ for code: " << cmake.substr(at, 40);
    EXPECT_EQ(cmake.find("test_support"), std::string::npos) << "bench/CMakeLists.txt links a test support library";
}

TEST(BenchFloor, NoProductFolderIncludesABenchmark) {
    int checked = 0;
    for (const std::string folder : {"app", "cli", "exports", "importers", "model", "analysis", "simulator", "views", "widgets", "remote"}) {
        for (const auto& [file, target] : quotedIncludes(folder)) {
            ++checked;
            EXPECT_FALSE(target.starts_with("bench/")) << file << " includes " << target;
        }
    }
    EXPECT_GT(checked, 500);
}
