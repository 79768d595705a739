// No function of the product is longer than a reader can hold in mind: at most 120 lines,
// measured as Universal Ctags measures them (end - start + 1). Longer ones are cut at the
// seams their comments mark.
#include "source_tree.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

using faultline::test::sourceDir;

namespace {

constexpr int kMaxLines = 120;
// The product's folders; tests, benchmarks and fuzz harnesses are not held to it.
constexpr const char* kProductFolders = "app cli exports importers model analysis simulator views widgets remote";

struct Function {
    std::string name, file;
    int line = 0, end = 0;
};

// The value of ctags' "key:value" field in one tab-separated tag line.
int fieldOf(const std::string& tag, const std::string& key) {
    const std::size_t at = tag.find("\t" + key + ":");
    return at == std::string::npos ? 0 : std::atoi(tag.c_str() + at + key.size() + 2);
}

// Every C++ function ctags finds in the product, or nothing when ctags is not installed.
std::vector<Function> productFunctions(bool& ctagsFound) {
    const std::string command = "cd '" + sourceDir().string() + "' && ctags -o - --c++-kinds=f --fields=+ne -R " + kProductFolders + " 2>/dev/null";
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
    std::vector<Function> out;
    ctagsFound = false;
    if (!pipe) return out;
    std::string text;
    char buffer[65536];
    while (const std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe.get())) text.append(buffer, n);
    std::istringstream lines(text);
    std::string tag;
    while (std::getline(lines, tag)) {
        ctagsFound = true;
        const std::size_t nameEnd = tag.find('\t');
        const std::size_t fileEnd = tag.find('\t', nameEnd + 1);
        if (fileEnd == std::string::npos) continue;
        out.push_back({tag.substr(0, nameEnd), tag.substr(nameEnd + 1, fileEnd - nameEnd - 1), fieldOf(tag, "line"), fieldOf(tag, "end")});
    }
    return out;
}

}  // namespace

TEST(FunctionLength, NoProductFunctionIsOverAHundredAndTwentyLines) {
    bool ctagsFound = false;
    const std::vector<Function> functions = productFunctions(ctagsFound);
    if (!ctagsFound) GTEST_SKIP() << "Universal Ctags (package universal-ctags) is not installed: function lengths not measured";
    ASSERT_GT(functions.size(), 1000u) << "ctags found too few functions to have read the product";
    int measured = 0;
    for (const Function& f : functions) {
        if (f.end == 0) continue;
        ++measured;
        EXPECT_LE(f.end - f.line + 1, kMaxLines) << f.file << ":" << f.line << ": " << f.name << " is " << f.end - f.line + 1 << " lines";
    }
    EXPECT_GT(measured, 1000) << "ctags gave no end line: is it Universal Ctags?";
}
