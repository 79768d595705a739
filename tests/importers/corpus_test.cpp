// The corpus of failed jobs' logs (issue #36, item 6): files of our own writing in the shapes
// users pasted into public issue threads (each names its thread in its first line), imported
// one by one through the CLI's entry point. Every event its truth row gives (truth.tsv: kind,
// rank, host, time, as the file says it) is found; no failure of a kind its rows do not allow
// appears; the import keeps every invariant. A row marked "known-miss:" is a reader's known
// gap: reported, expected to fail, and counted a miss by faultline_bench_recognition.
#include "corpus_truth.h"
#include "import_invariant_checks.h"
#include "import_test_util.h"

#include <filesystem>
#include <fstream>

namespace faultline {
namespace {

namespace fs = std::filesystem;

const std::string& corpusDir() {
    static const std::string dir = std::string(FAULTLINE_IMPORTER_TESTDATA) + "/corpus";
    return dir;
}

std::vector<std::string> corpusFiles() {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(corpusDir()))
        if (e.path().extension() == ".log" || e.path().extension() == ".jsonl" || e.path().extension() == ".txt") out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

const std::map<std::string, std::vector<test::TruthRow>>& truth() {
    static const auto rows = test::readTruth(corpusDir() + "/truth.tsv");
    return rows;
}

TEST(Corpus, EveryFileHasTruthAndNamesItsThread) {
    const std::vector<std::string> files = corpusFiles();
    EXPECT_GE(files.size(), 150u);
    for (const std::string& file : files) {
        EXPECT_TRUE(truth().count(file)) << file << " has no row in truth.tsv";
        std::ifstream in(corpusDir() + "/" + file);
        std::string first;
        std::getline(in, first);
        EXPECT_NE(first.find("https://github.com/"), std::string::npos) << file << ": its first line names no thread";
    }
    for (const auto& [file, rows] : truth()) EXPECT_TRUE(fs::exists(corpusDir() + "/" + file)) << "truth.tsv names " << file << ", which is absent";
}

class CorpusFile : public testing::TestWithParam<std::string> {};

TEST_P(CorpusFile, GivesItsTruthAndKeepsTheInvariants) {
    const std::string file = GetParam();
    const test::ScratchDir scratch;
    EpochNs written = 0;
    ImportResult r;
    try {
        r = test::importCorpusFile(corpusDir() + "/" + file, scratch.path().string(), written);
    } catch (const std::exception& e) {
        // A refusal names what it could not read: allowed only where every row is a known miss.
        const auto rows = truth().find(file);
        ASSERT_NE(rows, truth().end());
        for (const test::TruthRow& row : rows->second)
            if (!row.none() && !row.optional() && !row.knownMiss()) FAIL() << file << " was refused: " << e.what();
        std::printf("[ known miss ] %s refused: %s\n", file.c_str(), e.what());
        return;
    }
    EXPECT_EQ(test::importInvariantViolations(r, written), "");
    const auto it = truth().find(file);
    ASSERT_NE(it, truth().end());
    const test::FileVerdict v = test::judge(r, it->second);
    std::string missed;
    for (const test::TruthRow* row : v.missed) {
        if (row->knownMiss()) {
            std::printf("[ known miss ] %s row %d (%s): %s\n", file.c_str(), row->line, row->kind.c_str(), row->note.c_str());
            continue;
        }
        missed += "row " + std::to_string(row->line) + "\n";
    }
    EXPECT_EQ(missed, "") << file << ":\n" << v.why << importSummaryToText(r.summary);
    for (const test::TruthRow* row : v.found)
        EXPECT_FALSE(row->knownMiss()) << file << " row " << row->line << " is found now: drop its known-miss mark";
    std::string unexpected;
    for (const std::string& u : v.unexpected) unexpected += u + "\n";
    EXPECT_EQ(unexpected, "") << file << ": failures outside its truth";
}

std::string testName(const testing::TestParamInfo<std::string>& info) {
    std::string name;
    for (char c : info.param) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    return name;
}

INSTANTIATE_TEST_SUITE_P(Files, CorpusFile, testing::ValuesIn(corpusFiles()), testName);

}  // namespace
}  // namespace faultline
