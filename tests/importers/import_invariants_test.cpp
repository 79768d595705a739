// The rules every import holds whatever its files say (importers/import_invariants.h): no
// event after the files were written or before 1990, silent ranks of a timeout named, no
// invented GPUs, no fabric named without a topology file. One data-driven test holds every
// fixture and every real file to them.
#include "import_invariant_checks.h"
#include "import_test_util.h"

#include "analysis/fabric_outline.h"
#include "analysis/summary.h"
#include "importers/import_invariants.h"

#include <algorithm>
#include <filesystem>
#include <set>

namespace faultline {
namespace {

namespace fs = std::filesystem;
using test::fixture;

// 2024-03-09T00:00:00Z.
constexpr EpochNs kMarch2024 = 1'709'942'400LL * kSecond;

const Failure* failureOf(const Run& run, RootCause cause) {
    for (const Failure& f : run.failures)
        if (f.cause == cause) return &f;
    return nullptr;
}

bool anyNote(const ImportSummary& s, const std::string& text) {
    for (const FileReport& f : s.files)
        for (const std::string& n : f.notes)
            if (n.find(text) != std::string::npos) return true;
    return false;
}

TEST(ImportInvariants, SilentRankBelowTheHighestReporterIsTheSuspect) {
    const ImportResult r = test::importPaths({fixture("invariants/silent_rank_zero.log")});
    const Failure* timeout = failureOf(r.run, RootCause::NcclWatchdogTimeout);
    ASSERT_NE(timeout, nullptr);
    EXPECT_EQ(timeout->suspectRanks, std::vector<std::int32_t>{0});
    EXPECT_NE(timeout->detail.find("silent rank(s) 0 of 4"), std::string::npos) << timeout->detail;
}

TEST(ImportInvariants, AStatedWorldSizeNamesTheSilentRanksAboveTheReporters) {
    ImportOptions options;
    options.worldSize = 6;
    const ImportResult r = test::importPaths({fixture("invariants/silent_rank_zero.log")}, options);
    const Failure* timeout = failureOf(r.run, RootCause::NcclWatchdogTimeout);
    ASSERT_NE(timeout, nullptr);
    EXPECT_EQ(timeout->suspectRanks, (std::vector<std::int32_t>{0, 4, 5}));
    EXPECT_TRUE(anyNote(r.summary, "as --world-size says"));
}

TEST(ImportInvariants, ATimeAfterTheFileWasWrittenIsKeptAsUndated) {
    const fs::path dir = fs::temp_directory_path() / "faultline_invariants_future";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const fs::path copy = dir / "job.log";
    fs::copy_file(fixture("invariants/date_after_written.log"), copy);
    // Written in March 2024: a line dated 2049 cannot be right.
    fs::last_write_time(copy, fs::file_time_type::clock::from_sys(std::chrono::sys_seconds(std::chrono::seconds(kMarch2024 / kSecond))));
    const ImportResult r = test::importPaths({copy.string()});
    ASSERT_FALSE(r.run.failures.empty());
    const EpochNs newest = kMarch2024 + kLocalTimeSlackNs;
    for (const Failure& f : r.run.failures) EXPECT_LE(r.run.info.startEpochNs + f.time, newest) << f.detail;
    const bool undated = std::any_of(r.run.failures.begin(), r.run.failures.end(),
                                     [](const Failure& f) { return f.detail.find("undated: its time 2049-03-08T10:12:05") != std::string::npos; });
    EXPECT_TRUE(undated);
    EXPECT_TRUE(anyNote(r.summary, "kept as undated")) << importSummaryToText(r.summary);
    EXPECT_LE(r.summary.files.front().last, newest);
    fs::remove_all(dir);
}

TEST(ImportInvariants, AYearlessTimeAfterTheFileWasWrittenMovesToTheYearBefore) {
    ImportedEvents events;
    ImportedFailure f;
    f.time = 1'733'097'600LL * kSecond;  // 2024-12-02, from "Dec  2" in a file written in March 2024
    f.cause = RootCause::FaultyGpu;
    events.failures.push_back(f);
    FileReport report;
    report.notes.push_back("times without a year took 2024 (nearest the log's own dated lines; pass --year to set it)");
    enforceTimeBounds(events, report, kMarch2024);
    EXPECT_EQ(events.failures.front().time, 1'701'475'200LL * kSecond);  // 2023-12-02
    EXPECT_FALSE(events.failures.front().timeInferred);
    ASSERT_FALSE(report.notes.empty());
    EXPECT_NE(report.notes.back().find("1 moved to the year before"), std::string::npos) << report.notes.back();
}

TEST(ImportInvariants, WithinTheBoundsIsWhatEnforcingThemWouldLeaveAlone) {
    ImportedEvents events;
    ImportedStep step;
    step.end = kMarch2024 - kSecond;
    events.steps.push_back(step);
    ImportedJob job;
    job.start = kMarch2024 - kSecond;
    events.jobs.push_back(job);
    EXPECT_TRUE(withinTimeBounds(events, kMarch2024));
    EXPECT_TRUE(withinTimeBounds(events, 0));  // no write time known: only the 1990 floor
    events.jobs.front().end = 2'500'000'000LL * kSecond;  // 2049
    EXPECT_FALSE(withinTimeBounds(events, kMarch2024));
    events.jobs.front().end = 0;  // unknown is no time
    ImportedCheckpoint early;
    early.begin = 3'600LL * kSecond;  // 1970
    events.checkpoints.push_back(early);
    EXPECT_FALSE(withinTimeBounds(events, 0));
    FileReport report;
    enforceTimeBounds(events, report, kMarch2024);
    EXPECT_TRUE(withinTimeBounds(events, kMarch2024));
}

// A followed folder's files are lent to each look's build: the run is the one the same files
// give when the import owns them, time rules included, and the files are left as they were.
TEST(ImportInvariants, ALentImportIsTheImportOfTheSameFilesAndLeavesThemAsTheyWere) {
    const test::ScratchDir dir;
    const fs::path late = fs::path(dir.file("job.log"));
    fs::copy_file(fixture("invariants/date_after_written.log"), late);
    fs::last_write_time(late, fs::file_time_type::clock::from_sys(std::chrono::sys_seconds(std::chrono::seconds(kMarch2024 / kSecond))));
    fs::copy_file(fixture("ft_launcher_in_job_restart.log"), dir.file("launcher.log"));
    ImportOptions options;
    options.allowDisjoint = true;  // a log of 2025 beside one that ends in 2049: two stretches of time
    const ReadImport read = readImportFiles({dir.path().string()}, options);
    ASSERT_EQ(read.files.size(), 2u);
    std::vector<const ShardedFile*> lent;
    for (const ShardedFile& f : read.files) lent.push_back(&f);
    std::vector<std::size_t> failuresBefore, stepsBefore;
    for (const ShardedFile& f : read.files) failuresBefore.push_back(f.events.failures.size()), stepsBefore.push_back(f.events.steps.size());
    const std::vector<EpochNs> timesBefore = [&] {
        std::vector<EpochNs> t;
        for (const ShardedFile& f : read.files)
            for (const ImportedFailure& x : f.events.failures) t.push_back(x.time);
        return t;
    }();

    const ImportResult fromLent = buildLentImport(lent, {}, options, read.runName, read.label, read.warnings);
    const ImportResult owned = buildReadImport(read, {}, options);
    EXPECT_TRUE(anyNote(owned.summary, "kept as undated")) << "the case must break a time rule";
    EXPECT_EQ(importSummaryToText(fromLent.summary), importSummaryToText(owned.summary));
    ASSERT_EQ(fromLent.run.failures.size(), owned.run.failures.size());
    for (std::size_t i = 0; i < owned.run.failures.size(); ++i) {
        EXPECT_EQ(fromLent.run.failures[i].time, owned.run.failures[i].time);
        EXPECT_EQ(fromLent.run.failures[i].detail, owned.run.failures[i].detail);
    }
    EXPECT_EQ(fromLent.run.rankSteps.size(), owned.run.rankSteps.size());
    EXPECT_EQ(fromLent.run.info.startEpochNs, owned.run.info.startEpochNs);

    std::vector<EpochNs> timesAfter;
    for (std::size_t i = 0; i < read.files.size(); ++i) {
        EXPECT_EQ(read.files[i].events.failures.size(), failuresBefore[i]);
        EXPECT_EQ(read.files[i].events.steps.size(), stepsBefore[i]);
        for (const ImportedFailure& x : read.files[i].events.failures) timesAfter.push_back(x.time);
    }
    EXPECT_EQ(timesAfter, timesBefore) << "a lent file's times are not the import's to move";
}

TEST(ImportInvariants, NothingBefore1990) {
    ImportedEvents events;
    ImportedFailure f;
    f.time = 86'400LL * kSecond;  // 1970-01-02: a count from boot read as a date
    events.failures.push_back(f);
    ImportedStep step;
    step.end = 3'600LL * kSecond;
    events.steps.push_back(step);
    ImportedStep good;
    good.end = kMarch2024 - kSecond;
    events.steps.push_back(good);
    FileReport report;
    report.first = step.end;
    enforceTimeBounds(events, report, kMarch2024);
    EXPECT_EQ(events.steps.size(), 1u);
    EXPECT_TRUE(events.failures.front().timeInferred);
    EXPECT_EQ(events.failures.front().time, good.end);
    EXPECT_EQ(report.first, good.end);
}

TEST(ImportInvariants, AOneGpuScrapeIsOneHostOfOneGpu) {
    const ImportResult r = test::importPaths({fixture("invariants/one_gpu_scrape.prom")});
    EXPECT_EQ(r.summary.hosts, 1u);
    EXPECT_EQ(r.summary.gpus, 1u);
}

TEST(ImportInvariants, AHostNamedByNoGpuGetsAnAssumedCountAndSaysSo) {
    // sacct names the jobs' nodes, never their GPUs.
    const ImportResult r = test::importPaths({fixture("sacct_snowman.txt")});
    ASSERT_GT(r.summary.hosts, 0u);
    EXPECT_TRUE(anyNote(r.summary, "an assumed count")) << importSummaryToText(r.summary);
    // The run keeps which counts are assumed, for the summary and the inspector to say.
    const faultline::Run& run = r.run;
    ASSERT_FALSE(run.topology.hosts.empty());
    for (const Host& h : run.topology.hosts) EXPECT_TRUE(h.gpuCountAssumed) << h.name;
    const RunSummary s = summarize(run);
    EXPECT_EQ(s.assumedHosts, run.topology.hosts.size());
    EXPECT_NE(summaryToText(s).find(" of them assumed: no file numbers the GPUs of "), std::string::npos) << summaryToText(s);
}

TEST(ImportInvariants, AHostWhoseGpusAFileNumbersHasNoAssumedCount) {
    const ImportResult r = test::importPaths({fixture("invariants/one_gpu_scrape.prom")});
    const faultline::Run& run = r.run;
    ASSERT_EQ(run.topology.hosts.size(), 1u);
    EXPECT_FALSE(run.topology.hosts[0].gpuCountAssumed);
    EXPECT_EQ(summarize(run).assumedGpus, 0u);
}

// Once refused as runs no reader could open (1970..2024, and 2262): the times before 1990 or
// after the files were written are left unknown, the rest imported, and the report says so.
TEST(ImportInvariants, ImpossibleSacctTimesAreLeftUnknownNotRefused) {
    for (const char* name : {"repro/span-54y.sacct.txt", "repro/year2262.sacct.txt"}) {
        SCOPED_TRACE(name);
        const std::string path = fixture(name);
        const test::ScratchDir dir;
        const std::string out = dir.file("run.faultline");
        importToRunFile({path}, out, {});
        EXPECT_TRUE(fs::exists(out));
        const ImportResult r = test::importPaths({path});
        EXPECT_TRUE(anyNote(r.summary, "job time(s) left unknown")) << importSummaryToText(r.summary);
        const EpochNs newest = fileWriteTime(path) + kLocalTimeSlackNs;
        for (const FileReport& f : r.summary.files)
            if (f.first != 0) {
                EXPECT_GE(f.first, kEarliestPlausibleTime);
                EXPECT_LE(f.last, newest);
            }
    }
    // The 2024 job keeps its times.
    const ImportResult span = test::importPaths({fixture("repro/span-54y.sacct.txt")});
    ASSERT_FALSE(span.run.jobs.empty());
    EXPECT_EQ(formatEpochNs(span.summary.files.front().last), "2024-06-01T12:00:00.000000Z");
}

TEST(ImportInvariants, TheFabricIsUnknownWithoutATopologyFile) {
    const ImportResult r = test::importPaths({fixture("invariants/silent_rank_zero.log")});
    EXPECT_EQ(fabricOutlineText(outlineFabric(r.run.topology)), "unknown: no topology file names a switch");
    const ImportResult withTopology = test::importPaths({fixture("ibnetdiscover_leaf_per_rack.out")});
    EXPECT_EQ(fabricOutlineText(outlineFabric(withTopology.run.topology)).rfind("unknown", 0), std::string::npos);
}

// Every file we hold, fixtures and real files alike, alone: refused with a message, or
// imported into a run that keeps every rule.
std::vector<std::string> filesUnder(const std::string& root) {
    std::vector<std::string> out;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
        if (it->is_regular_file()) out.push_back(it->path().string());
    std::sort(out.begin(), out.end());
    return out;
}

void expectInvariants(const std::string& path) {
    SCOPED_TRACE(path);
    ImportResult r;
    try {
        r = importFiles({path}, {});
    } catch (const Error&) {
        return;  // a refusal names what it could not read: never a wrong answer
    }
    EXPECT_EQ(test::importInvariantViolations(r, fileWriteTime(path)), "");
}

TEST(ImportInvariants, EveryFixtureKeepsEveryRule) {
    for (const std::string& path : filesUnder(FAULTLINE_IMPORTER_TESTDATA)) expectInvariants(path);
}

TEST(ImportInvariants, EveryRealFileKeepsEveryRule) {
    FAULTLINE_REQUIRE_REALDATA();
    for (const std::string& path : filesUnder(test::realDataDir())) {
        const std::string name = fs::path(path).filename().string();
        if (name == "LICENSE" || name == "SOURCE_COMMIT" || name.rfind("README", 0) == 0) continue;
        expectInvariants(path);
    }
}

}  // namespace
}  // namespace faultline
