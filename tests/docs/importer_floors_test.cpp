// importers/ is one library in floors: the pipeline at its top, one folder per family of
// sources, and events/ and text/ beneath them. A family reads through events/ and text/
// only, so a reader can be understood, changed or removed without the others.
#include "source_tree.h"

#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using faultline::test::readText;
using faultline::test::sourceDir;

namespace {

struct Include {
    std::string file;    // "importers/console/console_line.cpp"
    std::string target;  // "importers/text/text_parse.h"
};

// Every `#include "importers/..."` of every file under importers/.
std::vector<Include> importerIncludes() {
    std::vector<Include> out;
    const std::regex include(R"(^\s*#\s*include\s+"(importers/[^"]+)\")");
    for (const fs::directory_entry& e : fs::recursive_directory_iterator(sourceDir() / "importers")) {
        if (!e.is_regular_file()) continue;
        const std::string ext = e.path().extension().string();
        if (ext != ".h" && ext != ".cpp") continue;
        const std::string file = fs::relative(e.path(), sourceDir()).generic_string();
        std::istringstream lines(readText(e.path()));
        std::string line;
        std::smatch m;
        while (std::getline(lines, line))
            if (std::regex_search(line, m, include)) out.push_back({file, m[1]});
    }
    return out;
}

// "importers/console/x.cpp" -> "console"; a pipeline file -> "".
std::string floorOf(const std::string& path) {
    const std::string rest = path.substr(std::string("importers/").size());
    const std::size_t slash = rest.find('/');
    return slash == std::string::npos ? std::string() : rest.substr(0, slash);
}

// Whether a file on floor `from` may include one on floor `to`.
bool allowed(const std::string& from, const std::string& to) {
    if (from == to || from.empty()) return true;  // its own floor; the pipeline uses all
    if (to.empty()) return false;                 // nothing below includes the pipeline
    if (from == "events") return false;           // events/ is the bottom floor
    if (from == "text") return to == "events";
    return to == "events" || to == "text";        // a family: the two floors beneath it
}

}  // namespace

TEST(ImporterFloors, NoReaderIncludesAnotherFamilyOrThePipeline) {
    const std::vector<Include> includes = importerIncludes();
    ASSERT_GT(includes.size(), 100u) << "no includes read under " << sourceDir() / "importers";
    for (const Include& i : includes)
        EXPECT_TRUE(allowed(floorOf(i.file), floorOf(i.target))) << i.file << " includes " << i.target;
}

TEST(ImporterFloors, EveryFamilyListsItsReaders) {
    int families = 0;
    for (const fs::directory_entry& e : fs::directory_iterator(sourceDir() / "importers")) {
        const std::string name = e.path().filename().string();
        if (!e.is_directory() || name == "events" || name == "text") continue;
        ++families;
        EXPECT_TRUE(fs::exists(e.path() / "readers.h")) << "importers/" << name << "/ has no readers.h listing its readers";
        EXPECT_NE(readText(sourceDir() / "importers" / "formats.cpp").find("importers/" + name + "/readers.h"), std::string::npos)
            << "importers/formats.cpp does not gather importers/" << name << "/readers.h";
    }
    EXPECT_GE(families, 7);
}
