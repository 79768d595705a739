// Golden outputs: every fixture under tests/data/importers, imported alone, gives the import
// report and incidents kept beside it as NAME.expected.json. A change to any reader that
// changes what a fixture imports to shows here as a diff, to be reviewed, not missed.
//
// A mismatch writes NAME.actual.json beside the fixture and prints the diff. After a
// reviewed change, regenerate every expected file with one command:
//   FAULTLINE_UPDATE_GOLDEN=1 build/dev/bin/faultline_importers_tests --gtest_filter='*GoldenImports*'
#include "analysis/incidents.h"
#include "import_test_util.h"
#include "model/json_text.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
using namespace faultline;
using faultline::test::ScratchDir;

namespace {

const fs::path& dataDir() {
    static const fs::path dir(FAULTLINE_IMPORTER_TESTDATA);
    return dir;
}

bool isFixture(const fs::path& p) {
    const std::string name = p.filename().string();
    const auto endsWith = [&](std::string_view s) { return name.size() >= s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0; };
    return !endsWith(".expected.json") && !endsWith(".actual.json") && !endsWith(".md") && !endsWith(".tsv") && name.rfind("README", 0) != 0;
}

// Every fixture, relative to the data folder ("console_logs/09_cuda_ecc.log"), in a stable order.
std::vector<std::string> fixtures() {
    std::vector<std::string> out;
    for (const fs::directory_entry& e : fs::recursive_directory_iterator(dataDir()))
        if (e.is_regular_file() && isFixture(e.path())) out.push_back(fs::relative(e.path(), dataDir()).generic_string());
    std::sort(out.begin(), out.end());
    return out;
}

void replaceAll(std::string& s, const std::string& from, const std::string& to) {
    for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
}

// What a fixture imports to, as it would be for anyone who cloned the project: the file is
// copied to a folder of its own with a fixed modification time (a yearless date resolves
// against it), and the copy's path reads as the fixture's.
std::string importedJson(const std::string& fixture) {
    const ScratchDir dir;
    const fs::path copy = dir.path() / fs::path(fixture).filename();
    fs::copy_file(dataDir() / fixture, copy);
    const std::chrono::sys_seconds newYear{std::chrono::sys_days{std::chrono::year{2026} / 1 / 1}};
    fs::last_write_time(copy, std::chrono::file_clock::from_sys(newYear));
    nlohmann::json out;
    try {
        const ImportResult result = importFiles({copy.string()}, ImportOptions{});
        out["report"] = importSummaryToJson(result.summary);
        out["incidents"] = incidentsToJson(buildIncidents(result.run), result.run.info);
    } catch (const std::exception& e) {
        out["error"] = e.what();
    }
    std::string text = out.dump(2) + "\n";
    replaceAll(text, copy.string(), "tests/data/importers/" + fixture);
    replaceAll(text, dir.path().string(), "tests/data/importers/" + fs::path(fixture).parent_path().generic_string());
    return text;
}

std::string readFile(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

void writeFile(const fs::path& p, const std::string& text) {
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out << text;
}

std::string unifiedDiff(const fs::path& expected, const fs::path& actual) {
    const std::string command = "diff -u '" + expected.string() + "' '" + actual.string() + "' | head -60";
    std::string out;
    if (FILE* pipe = popen(command.c_str(), "r")) {
        char buffer[4096];
        while (std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
        pclose(pipe);
    }
    return out;
}

std::string goldenTestName(const testing::TestParamInfo<std::string>& info) {
    std::string name;
    for (char c : info.param) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    return name;
}

class GoldenImports : public testing::TestWithParam<std::string> {};

TEST(GoldenImportsSet, CoversTheFixtures) {
    EXPECT_GE(fixtures().size(), 90u) << "fixtures under " << dataDir();
}

TEST_P(GoldenImports, MatchesItsExpectedJson) {
    const std::string fixture = GetParam();
    const fs::path expected = dataDir() / (fixture + ".expected.json");
    const fs::path actual = dataDir() / (fixture + ".actual.json");
    const std::string text = importedJson(fixture);
    if (std::getenv("FAULTLINE_UPDATE_GOLDEN")) {
        writeFile(expected, text);
        fs::remove(actual);
        return;
    }
    ASSERT_TRUE(fs::exists(expected)) << expected << " is missing: regenerate with FAULTLINE_UPDATE_GOLDEN=1 (see this file's header)";
    if (readFile(expected) == text) {
        fs::remove(actual);
        return;
    }
    writeFile(actual, text);
    ADD_FAILURE() << fixture << " imports to something else than " << expected.filename() << "; wrote " << actual << "\n"
                  << unifiedDiff(expected, actual);
}

INSTANTIATE_TEST_SUITE_P(Fixtures, GoldenImports, testing::ValuesIn(fixtures()), goldenTestName);

}  // namespace
