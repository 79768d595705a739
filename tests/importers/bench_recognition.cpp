// Recognition over every log we hold (issue #36, item 6): our corpus of failed jobs' logs
// written in the shapes of public issue threads (tests/data/importers/corpus, with its truth),
// our console, shape and invariant fixtures, and the real console, kernel, training and Slurm
// files (../shared/realdata, skipped where absent). Prints, per set: files imported, expected events found with the right kind,
// rank, host and time (where a truth table gives them), and invariant violations (must be 0).
//   faultline_bench_recognition [--verbose]   (--verbose: every miss and unexpected failure)
#include "corpus_truth.h"
#include "import_invariant_checks.h"

#include <cstdio>
#include <cstring>
#include <filesystem>

using namespace faultline;
namespace fs = std::filesystem;

namespace {

struct Tally {
    int files = 0, imported = 0, expected = 0, found = 0, knownMisses = 0, unexpected = 0, violations = 0;
};

Tally scoreSet(const char* name, const std::string& dir, const std::map<std::string, std::vector<test::TruthRow>>* truth, bool verbose) {
    if (!fs::is_directory(dir)) {
        std::printf("%-22s skipped: %s is absent\n", name, dir.c_str());
        return {};
    }
    std::vector<fs::path> files;
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
        const std::string n = e.path().filename().string();
        if (e.is_regular_file() && n.find(".expected.json") == std::string::npos && n.find(".actual.json") == std::string::npos &&
            e.path().extension() != ".tsv" && e.path().extension() != ".md" && n.rfind("README", 0) != 0 && n.rfind("LICENSE", 0) != 0 && n != "SOURCE_COMMIT")
            files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    const std::string scratch = (fs::temp_directory_path() / ("faultline_bench_recognition_" + std::to_string(::getpid()))).string();
    fs::create_directories(scratch);
    Tally t;
    for (const fs::path& p : files) {
        ++t.files;
        const std::string file = p.filename().string();
        const auto rows = truth && truth->count(file) ? &truth->at(file) : nullptr;
        try {
            EpochNs written = 0;
            const ImportResult r = test::importCorpusFile(p.string(), scratch, written);
            ++t.imported;
            const std::string bad = test::importInvariantViolations(r, written);
            if (!bad.empty()) {
                ++t.violations;
                std::printf("  %s: invariant violated:\n%s", file.c_str(), bad.c_str());
            }
            if (!rows) continue;
            const test::FileVerdict v = test::judge(r, *rows);
            t.expected += static_cast<int>(v.found.size() + v.missed.size());
            t.found += static_cast<int>(v.found.size());
            for (const test::TruthRow* m : v.missed) t.knownMisses += m->knownMiss();
            t.unexpected += static_cast<int>(v.unexpected.size());
            if (verbose && (!v.missed.empty() || !v.unexpected.empty())) {
                std::printf("  %s:\n%s", file.c_str(), v.why.c_str());
                for (const std::string& u : v.unexpected) std::printf("    unexpected %s\n", u.c_str());
                for (const Failure& f : r.run.failures) {
                    std::string hosts, ranks;
                    for (const std::string& h : test::failureHosts(r.run, f)) hosts += h + " ";
                    for (std::int32_t k : f.ranks) ranks += std::to_string(k) + " ";
                    std::printf("    failure %s ranks [%s] hosts [%s] at %s\n", std::string(rootCauseKey(f.cause)).c_str(), ranks.c_str(), hosts.c_str(),
                                formatEpochNs(r.run.info.startEpochNs + f.time).c_str());
                }
            }
        } catch (const std::exception& e) {
            std::printf("  %s: NOT IMPORTED: %s\n", file.c_str(), e.what());
            if (rows)
                for (const test::TruthRow& row : *rows) t.expected += !row.none() && !row.optional();
        }
    }
    fs::remove_all(scratch);
    std::printf("%-22s %d of %d files imported", name, t.imported, t.files);
    if (truth)
        std::printf("; %d of %d expected events found with the right kind, rank, host and time (%.1f%%; %d known misses); %d failures outside the truth",
                    t.found, t.expected, 100.0 * t.found / std::max(1, t.expected), t.knownMisses, t.unexpected);
    std::printf("; invariant violations: %d\n", t.violations);
    return t;
}

}  // namespace

int main(int argc, char** argv) {
    const bool verbose = argc > 1 && std::strcmp(argv[1], "--verbose") == 0;
    const std::string data = FAULTLINE_IMPORTER_TESTDATA;
    const auto truth = test::readTruth(data + "/corpus/truth.tsv");
    std::size_t rows = 0;
    for (const auto& [file, r] : truth) rows += r.size();
    std::printf("corpus truth: %zu files, %zu rows\n", truth.size(), rows);
    Tally all;
    const auto add = [&all](const Tally& t) {
        all.files += t.files;
        all.imported += t.imported;
        all.expected += t.expected;
        all.found += t.found;
        all.violations += t.violations;
    };
    add(scoreSet("corpus", data + "/corpus", &truth, verbose));
    add(scoreSet("console fixtures", data + "/console_logs", nullptr, verbose));
    add(scoreSet("shape fixtures", data + "/shapes", nullptr, verbose));
    add(scoreSet("invariant fixtures", data + "/invariants", nullptr, verbose));
    const std::string real = FAULTLINE_REALDATA;
    add(scoreSet("real console logs", real + "/console_logs", nullptr, verbose));
    add(scoreSet("real kernel logs", real + "/kernel_logs", nullptr, verbose));
    add(scoreSet("real Xid kernel logs", real + "/xid_kernel_logs", nullptr, verbose));
    add(scoreSet("real training logs", real + "/training_logs", nullptr, verbose));
    add(scoreSet("real Slurm files", real + "/slurm", nullptr, verbose));
    std::printf("all: %d of %d files imported; %d of %d expected events found with the right kind, rank, host and time; invariant violations: %d\n",
                all.imported, all.files, all.found, all.expected, all.violations);
}
