// docs/architecture.md's folder map against the tree: a folder nobody described, or a
// description of a folder that is gone, fails here rather than misleading the next reader.
#include "source_tree.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

namespace fs = std::filesystem;
using faultline::test::isSourceFolder;
using faultline::test::readText;
using faultline::test::sourceDir;

namespace {

// The folders (to two levels: "importers/console") that hold anything.
std::set<std::string> treeFolders() {
    std::set<std::string> out;
    for (const fs::directory_entry& top : fs::directory_iterator(sourceDir())) {
        if (!top.is_directory() || !isSourceFolder(top.path().filename())) continue;
        const std::string name = top.path().filename().string();
        out.insert(name + "/");
        for (const fs::directory_entry& sub : fs::directory_iterator(top.path()))
            if (sub.is_directory() && isSourceFolder(sub.path().filename())) out.insert(name + "/" + sub.path().filename().string() + "/");
    }
    return out;
}

// Every "folder/" or "folder/sub/" a line of the map's code block starts its words with.
std::set<std::string> mappedFolders(const std::string& doc) {
    const std::size_t section = doc.find("## Folder map");
    const std::size_t open = doc.find("```\n", section);
    const std::size_t close = doc.find("```", open + 4);
    if (section == std::string::npos || open == std::string::npos || close == std::string::npos) return {};
    std::set<std::string> out;
    std::istringstream block(doc.substr(open + 4, close - open - 4));
    std::string word;
    while (block >> word) {
        const bool path = word.size() > 1 && word.back() == '/' &&
                          std::all_of(word.begin(), word.end(), [](char c) { return std::islower(static_cast<unsigned char>(c)) || c == '_' || c == '/' || c == '.'; });
        if (path) out.insert(word);
    }
    return out;
}

}  // namespace

TEST(FolderMap, NamesEveryFolderOfTheTree) {
    const std::set<std::string> mapped = mappedFolders(readText(sourceDir() / "docs" / "architecture.md"));
    ASSERT_GT(mapped.size(), 20u) << "docs/architecture.md has no \"## Folder map\" code block naming the folders";
    const std::set<std::string> tree = treeFolders();
    ASSERT_TRUE(tree.count("importers/console/")) << "the tree was not walked from " << sourceDir();
    for (const std::string& folder : tree)
        EXPECT_TRUE(mapped.count(folder)) << folder << " is in the tree but not in docs/architecture.md's folder map";
    for (const std::string& folder : mapped)
        EXPECT_TRUE(tree.count(folder)) << folder << " is in docs/architecture.md's folder map but not in the tree";
}
