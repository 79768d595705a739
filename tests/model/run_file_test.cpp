#include "run_file_sql.h"
#include "test_runs.h"

#include "model/error.h"
#include "model/run_file.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <csignal>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

namespace faultline {
namespace {

using test::runSql;
using test::ScratchDir;
using test::tinyRun;

// A run that uses every table, collectives and rank map included.
Run fullRun() {
    faultline::Run run = tinyRun();
    run.collectiveOps = {"allreduce", "allgather"};
    run.processGroups = {{"dp", {0, 1, 2, 3}}, {"tp", {0, 1}}};
    run.collectives = {{0, 0, 0, 1, 1'000, 5'000, 1 << 20}, {1, 0, 0, 1, 1'200, 5'010, 1 << 20},
                       {0, 1, 1, 7, 9'000, 9'500, 4096}};
    run.rankToGpu = {0, 1, 2, 3};
    run.rankSteps = {{0, 1, 6 * kSecond, 6 * kSecond}, {1, 1, 6'100 * kMillisecond, 6'100 * kMillisecond}};
    run.jobShape = {4, 2, 2, 2, 1};
    run.untracedGpus = {4, 5, 9};
    return run;
}

// Edits a database behind Faultline's back, as another program (or damage) would.

// Overwrites part of a file, as a bad disk or a stray write would.
void scribble(const std::string& path, std::uintmax_t at, std::size_t bytes) {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(at));
    const std::string garbage(bytes, '\xA5');
    f.write(garbage.data(), static_cast<std::streamsize>(garbage.size()));
}

std::string errorOf(const std::string& path) {
    try {
        readRunFile(path);
    } catch (const Error& e) {
        return e.what();
    }
    return "no error";
}

void expectSameRun(const Run& a, const Run& b) {
    EXPECT_EQ(a.info.name, b.info.name);
    EXPECT_EQ(a.info.startEpochNs, b.info.startEpochNs);
    EXPECT_EQ(a.info.duration, b.info.duration);
    EXPECT_EQ(a.info.source, b.info.source);
    EXPECT_EQ(a.jobShape, b.jobShape);
    EXPECT_EQ(a.untracedGpus, b.untracedGpus);
    ASSERT_EQ(a.topology.gpus.size(), b.topology.gpus.size());
    EXPECT_EQ(a.topology.gpuName(100), b.topology.gpuName(100));
    EXPECT_EQ(a.topology.gpus[100].pciBusId, b.topology.gpus[100].pciBusId);
    EXPECT_EQ(a.topology.switches.size(), b.topology.switches.size());
    EXPECT_EQ(a.topology.links.size(), b.topology.links.size());
    EXPECT_EQ(a.topology.links.back().upper, b.topology.links.back().upper);
    ASSERT_EQ(a.failures.size(), b.failures.size());
    for (std::size_t i = 0; i < a.failures.size(); ++i) {
        EXPECT_EQ(a.failures[i].time, b.failures[i].time);
        EXPECT_EQ(a.failures[i].cause, b.failures[i].cause);
        EXPECT_EQ(a.failures[i].component, b.failures[i].component);
        EXPECT_EQ(a.failures[i].xid, b.failures[i].xid);
        EXPECT_EQ(a.failures[i].gpus, b.failures[i].gpus);
        EXPECT_EQ(a.failures[i].detail, b.failures[i].detail);
    }
    ASSERT_EQ(a.downtimes.size(), b.downtimes.size());
    for (std::size_t i = 0; i < a.downtimes.size(); ++i) {
        EXPECT_EQ(a.downtimes[i].begin, b.downtimes[i].begin);
        EXPECT_EQ(a.downtimes[i].end, b.downtimes[i].end);
        EXPECT_EQ(a.downtimes[i].lostWork, b.downtimes[i].lostWork);
        EXPECT_EQ(a.downtimes[i].planned, b.downtimes[i].planned);
        EXPECT_EQ(a.downtimes[i].failure, b.downtimes[i].failure);
    }
    ASSERT_EQ(a.checkpoints.size(), b.checkpoints.size());
    EXPECT_EQ(a.checkpoints.back().step, b.checkpoints.back().step);
    EXPECT_EQ(a.checkpoints.back().kind, b.checkpoints.back().kind);
    ASSERT_EQ(a.steps.size(), b.steps.size());
    EXPECT_EQ(a.steps.back().time, b.steps.back().time);
    EXPECT_EQ(a.steps.back().duration, b.steps.back().duration);
    ASSERT_EQ(a.stragglers.size(), b.stragglers.size());
    EXPECT_EQ(a.stragglers.front().slowdown, b.stragglers.front().slowdown);
    EXPECT_EQ(a.stragglers.front().cause, b.stragglers.front().cause);
    EXPECT_EQ(a.collectiveOps, b.collectiveOps);
    ASSERT_EQ(a.processGroups.size(), b.processGroups.size());
    EXPECT_EQ(a.processGroups[0].ranks, b.processGroups[0].ranks);
    ASSERT_EQ(a.collectives.size(), b.collectives.size());
    EXPECT_EQ(a.collectives[2].seq, b.collectives[2].seq);
    EXPECT_EQ(a.collectives[1].enter, b.collectives[1].enter);
    EXPECT_EQ(a.rankToGpu, b.rankToGpu);
    ASSERT_EQ(a.rankSteps.size(), b.rankSteps.size());
    for (std::size_t i = 0; i < a.rankSteps.size(); ++i) {
        EXPECT_EQ(a.rankSteps[i].rank, b.rankSteps[i].rank);
        EXPECT_EQ(a.rankSteps[i].time, b.rankSteps[i].time);
        EXPECT_EQ(a.rankSteps[i].duration, b.rankSteps[i].duration);
    }
}

TEST(RunFile, RoundTripKeepsEverything) {
    ScratchDir dir;
    const faultline::Run run = fullRun();
    writeRunFile(run, dir.file("run.faultline"));
    expectSameRun(run, readRunFile(dir.file("run.faultline")));
}

TEST(RunFile, OverwritesAnExistingRunAndLeavesNoTemporaryFile) {
    ScratchDir dir;
    writeRunFile(tinyRun(), dir.file("run.faultline"));
    faultline::Run other = tinyRun();
    other.info.name = "second";
    writeRunFile(other, dir.file("run.faultline"));
    EXPECT_EQ(readRunFile(dir.file("run.faultline")).info.name, "second");
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), {}), 1);
}

// A followed folder's run file brought up to date (updateRunFile): its first rank steps are
// kept as they are in the file, every other row is the new run's, and the file is replaced
// whole or not at all.
TEST(RunFile, AnUpdatedFileKeepsItsFirstRankStepsAndHoldsTheGrownRun) {
    ScratchDir dir;
    const std::string path = dir.file("run.faultline");
    writeRunFile(fullRun(), path);
    faultline::Run grown = fullRun();
    grown.info.name = "grown";
    grown.rankSteps.push_back({0, 2, 12 * kSecond, 6 * kSecond});
    grown.rankSteps.push_back({1, 2, 12'300 * kMillisecond, 6'200 * kMillisecond});
    grown.collectives[1].enter += 10;
    grown.rankToGpu = {3, 2, 1, 0};
    // Row 1 of the file differs from the grown run's: only the first is said to be the same.
    runSql(path, "UPDATE rank_steps SET duration_ns = 1 WHERE id = 1");
    updateRunFile(grown, path, 1);
    const faultline::Run read = readRunFile(path);
    EXPECT_EQ(read.info.name, "grown");
    expectSameRun(grown, read);
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), {}), 1) << "no temporary file is left";

    // A file holding fewer rank steps than are said to be kept is not updated.
    faultline::Run other = grown;
    other.info.name = "other";
    EXPECT_THROW(updateRunFile(other, path, 99), Error);
    EXPECT_EQ(readRunFile(path).info.name, "grown");
}

TEST(RunFile, MissingFile) {
    ScratchDir dir;
    EXPECT_EQ(errorOf(dir.file("nope.faultline")), dir.file("nope.faultline") + ": no such file");
}

TEST(RunFile, EmptyFile) {
    ScratchDir dir;
    std::ofstream(dir.file("empty.faultline")).close();
    EXPECT_EQ(errorOf(dir.file("empty.faultline")), dir.file("empty.faultline") + " is empty, not a Faultline run file");
}

TEST(RunFile, TextFileIsNotARunFile) {
    ScratchDir dir;
    std::ofstream(dir.file("notes.faultline")) << "[  12.3] NVRM: Xid (PCI:0000:18:00): 79, GPU has fallen off the bus\n";
    EXPECT_EQ(errorOf(dir.file("notes.faultline")),
              dir.file("notes.faultline") + " is not a Faultline run file (expected an SQLite database)");
}

TEST(RunFile, OtherSqliteDatabaseIsNotARunFile) {
    ScratchDir dir;
    runSql(dir.file("other.db"), "CREATE TABLE t(x); INSERT INTO t VALUES(1);");
    EXPECT_EQ(errorOf(dir.file("other.db")),
              dir.file("other.db") + " is not a Faultline run file (an SQLite database of another application)");
}

TEST(RunFile, NewerSchemaIsRefusedByName) {
    ScratchDir dir;
    const std::string path = dir.file("future.faultline");
    writeRunFile(tinyRun(), path);
    runSql(path, ("PRAGMA user_version=" + std::to_string(kRunFileSchemaVersion + 1)).c_str());
    EXPECT_EQ(errorOf(path), path + " was written by a newer Faultline (run file schema " + std::to_string(kRunFileSchemaVersion + 1) + "; this build reads schema " + std::to_string(kRunFileSchemaVersion) + " and older)");
}

// Before schema 4 every collective was a row of `collectives`.
#define kSchema3Collectives                                                                                       \
    "DROP TABLE collective_chunks; DROP TABLE hangs; DROP TABLE hang_findings; DROP TABLE hang_origins; "        \
    "CREATE TABLE collectives(id INTEGER PRIMARY KEY, rank INTEGER NOT NULL, grp INTEGER NOT NULL, op INTEGER NOT " \
    "NULL, seq INTEGER NOT NULL, enter_ns INTEGER NOT NULL, exit_ns INTEGER NOT NULL, bytes INTEGER NOT NULL); "

// A schema-3 file, collectives in rows, reads with the same collectives and no hang.
TEST(RunFile, Schema3CollectivesInRowsReadTheSame) {
    ScratchDir dir;
    const std::string path = dir.file("v3.faultline");
    const faultline::Run& run = test::tracedTinyRun();
    ASSERT_FALSE(run.collectives.empty());
    writeRunFile(run, path);
    runSql(path, kSchema3Collectives "PRAGMA user_version=3");
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr);
    sqlite3_stmt* s = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(db, "INSERT INTO collectives VALUES(?, ?, ?, ?, ?, ?, ?, ?)", -1, &s, nullptr), SQLITE_OK);
    for (std::size_t i = 0; i < run.collectives.size(); ++i) {
        const CollectiveRecord& c = run.collectives[i];
        const std::int64_t values[] = {static_cast<std::int64_t>(i), c.rank, c.group, c.op, c.seq, c.enter, c.exit, c.bytes};
        for (int k = 0; k < 8; ++k) sqlite3_bind_int64(s, k + 1, values[k]);
        ASSERT_EQ(sqlite3_step(s), SQLITE_DONE);
        sqlite3_reset(s);
    }
    sqlite3_finalize(s);
    sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
    sqlite3_close(db);
    const faultline::Run back = readRunFile(path);
    ASSERT_EQ(back.collectives.size(), run.collectives.size());
    for (std::size_t i = 0; i < run.collectives.size(); i += 997) {
        EXPECT_EQ(back.collectives[i].rank, run.collectives[i].rank) << i;
        EXPECT_EQ(back.collectives[i].enter, run.collectives[i].enter) << i;
        EXPECT_EQ(back.collectives[i].bytes, run.collectives[i].bytes) << i;
    }
    EXPECT_FALSE(back.hang);
}

// Schema 3 keeps who reported a failure and whom it points at; a schema-2 file reads with none.
TEST(RunFile, FailureRanksAndSuspectsRoundTripAndOlderFilesReadWithout) {
    ScratchDir dir;
    const std::string path = dir.file("who.faultline");
    faultline::Run run = tinyRun();
    ASSERT_FALSE(run.failures.empty());
    run.failures[0].ranks = {0, 1, 2};
    run.failures[0].suspectRanks = {3};
    writeRunFile(run, path);
    const faultline::Run back = readRunFile(path);
    EXPECT_EQ(back.failures[0].ranks, (std::vector<std::int32_t>{0, 1, 2}));
    EXPECT_EQ(back.failures[0].suspectRanks, (std::vector<std::int32_t>{3}));
    runSql(path, "ALTER TABLE failures DROP COLUMN ranks; ALTER TABLE failures DROP COLUMN suspect_ranks; " kSchema3Collectives "PRAGMA user_version=2");
    const faultline::Run old = readRunFile(path);
    ASSERT_EQ(old.failures.size(), run.failures.size());
    EXPECT_TRUE(old.failures[0].ranks.empty());
    EXPECT_TRUE(old.failures[0].suspectRanks.empty());
}

// Schema 6 keeps the fabric's kind and each leaf's rail; a schema-5 file reads as the RoCE
// fabric without rails it was drawn as.
TEST(RunFile, FabricKindAndRailsRoundTripAndOlderFilesReadAsRoce) {
    ScratchDir dir;
    const std::string path = dir.file("fabric.faultline");
    faultline::Run run = tinyRun();
    run.topology.fabric = FabricKind::InfinibandFatTree;
    run.topology.switches[0].rail = 3;
    writeRunFile(run, path);
    const faultline::Run back = readRunFile(path);
    EXPECT_EQ(back.topology.fabric, FabricKind::InfinibandFatTree);
    EXPECT_EQ(back.topology.switches[0].rail, 3);
    EXPECT_EQ(back.topology.switches[1].rail, -1);
    runSql(path, "DROP TABLE clusters; ALTER TABLE zones DROP COLUMN cluster; ALTER TABLE switches DROP COLUMN cluster; "
                 "DROP TABLE fabric; ALTER TABLE switches DROP COLUMN rail; PRAGMA user_version=5");
    const faultline::Run old = readRunFile(path);
    EXPECT_EQ(old.topology.fabric, FabricKind::RoceClos);
    EXPECT_EQ(old.topology.switches[0].rail, -1);
    EXPECT_EQ(old.topology.switches.size(), run.topology.switches.size());
}

// A host whose GPUs no file numbered keeps its count marked assumed; a file written before the
// mark reads as counts the files gave.
TEST(RunFile, AnAssumedGpuCountRoundTripsAndOlderFilesReadWithout) {
    ScratchDir dir;
    const std::string path = dir.file("assumed.faultline");
    faultline::Run run = tinyRun();
    ASSERT_GE(run.topology.hosts.size(), 2u);
    run.topology.hosts[1].gpuCountAssumed = true;
    writeRunFile(run, path);
    const faultline::Run back = readRunFile(path);
    EXPECT_FALSE(back.topology.hosts[0].gpuCountAssumed);
    EXPECT_TRUE(back.topology.hosts[1].gpuCountAssumed);
    runSql(path, "ALTER TABLE hosts DROP COLUMN gpu_count_assumed");
    const faultline::Run old = readRunFile(path);
    EXPECT_FALSE(old.topology.hosts[1].gpuCountAssumed);
    EXPECT_EQ(old.topology.hosts[1].gpuCount, run.topology.hosts[1].gpuCount);
}

// Schema 7 keeps a fleet's clusters (each with its hall, building and fabric) and which
// cluster each zone and switch is in; a schema-6 file reads as one cluster of its fabric.
TEST(RunFile, ClustersRoundTripAndOlderFilesReadAsOneCluster) {
    ScratchDir dir;
    const std::string path = dir.file("clusters.faultline");
    faultline::Run run = tinyRun();
    run.topology.clusters = {{"roce-a", "Hall 1", "Building A", FabricKind::RoceClos},
                             {"ib-b", "Hall 2", "Building B", FabricKind::InfinibandFatTree}};
    run.topology.zones.back().cluster = 1;
    for (Switch& s : run.topology.switches)
        s.cluster = s.zone >= 0 ? run.topology.zones[static_cast<std::size_t>(s.zone)].cluster : 0;
    writeRunFile(run, path);
    const faultline::Run back = readRunFile(path);
    ASSERT_EQ(back.topology.clusters.size(), 2u);
    EXPECT_EQ(back.topology.clusters[1].name, "ib-b");
    EXPECT_EQ(back.topology.clusters[1].hall, "Hall 2");
    EXPECT_EQ(back.topology.clusters[1].building, "Building B");
    EXPECT_EQ(back.topology.fabricOfZone(static_cast<std::int32_t>(back.topology.zones.size()) - 1), FabricKind::InfinibandFatTree);
    for (std::size_t i = 0; i < run.topology.switches.size(); ++i) EXPECT_EQ(back.topology.switches[i].cluster, run.topology.switches[i].cluster);

    runSql(path, "DROP TABLE clusters; ALTER TABLE zones DROP COLUMN cluster; ALTER TABLE switches DROP COLUMN cluster; PRAGMA user_version=6");
    const faultline::Run old = readRunFile(path);
    EXPECT_TRUE(old.topology.clusters.empty());
    EXPECT_EQ(old.topology.clusterCount(), 1u);
    EXPECT_EQ(old.topology.fabricOfZone(0), old.topology.fabric);
}

TEST(RunFile, TruncatedFileIsCorrupt) {
    ScratchDir dir;
    const std::string path = dir.file("cut.faultline");
    writeRunFile(tinyRun(), path);
    std::filesystem::resize_file(path, std::filesystem::file_size(path) / 2);
    const std::string message = errorOf(path);
    EXPECT_EQ(message.rfind(path + " is corrupt: ", 0), 0u) << message;
}

// Scribbled pages are found on opening, or, where they hold telemetry series (read when a
// view first asks for them, not on opening), when those are read.
TEST(RunFile, OverwrittenPagesAreCorrupt) {
    ScratchDir dir;
    const std::string path = dir.file("scribbled.faultline");
    writeRunFile(tinyRun(), path);
    scribble(path, std::filesystem::file_size(path) / 3, 20'000);
    std::string message;
    try {
        const faultline::Run run = readRunFile(path);
        for (std::size_t l = 0; l < run.telemetry.levels.size(); ++l) (void)run.telemetry.level(l);
        (void)run.telemetry.rawSeries();
        ADD_FAILURE() << "expected an error";
    } catch (const Error& e) {
        message = e.what();
    }
    EXPECT_EQ(message.rfind(path + " is corrupt: ", 0), 0u) << message;
}

TEST(RunFile, DanglingReferenceIsCorrupt) {
    ScratchDir dir;
    const std::string path = dir.file("dangling.faultline");
    writeRunFile(tinyRun(), path);
    runSql(path, "UPDATE stragglers SET gpu = 999999 WHERE id = 0");
    EXPECT_EQ(errorOf(path), path + " is corrupt: stragglers row 0: the episode names GPU 999999, which does not exist (the run has 256 GPUs)");
}

TEST(RunFile, UnwritableFolderGivesErrorAndNoFile) {
    try {
        writeRunFile(tinyRun(), "/nonexistent-folder/run.faultline");
        FAIL() << "expected an error";
    } catch (const Error& e) {
        EXPECT_STREQ(e.what(), "cannot write /nonexistent-folder/run.faultline: there is no folder /nonexistent-folder");
    }
    EXPECT_FALSE(std::filesystem::exists("/nonexistent-folder/run.faultline"));
}

// A writer killed at any moment leaves either no run file or the previous, complete one.
TEST(RunFile, KilledWriterLeavesNoPartialRun) {
    ScratchDir dir;
    const std::string path = dir.file("run.faultline");
    faultline::Run big = tinyRun();
    for (int copy = 0; copy < 8; ++copy) big.steps.insert(big.steps.end(), tinyRun().steps.begin(), tinyRun().steps.end());
    for (int delayMs : {0, 2, 10, 30, 60}) {
        std::filesystem::remove(path);
        const pid_t child = fork();
        ASSERT_GE(child, 0);
        if (child == 0) {
            writeRunFile(big, path);
            _exit(0);
        }
        usleep(static_cast<useconds_t>(delayMs * 1000));
        kill(child, SIGKILL);
        int status = 0;
        waitpid(child, &status, 0);
        if (std::filesystem::exists(path)) {
            EXPECT_EQ(readRunFile(path).steps.size(), big.steps.size()) << "after " << delayMs << " ms";
        }
    }
}

// A run file from before jobs (schema 1) opens as a run without jobs, with every figure it had.
TEST(RunFile, VersionOneFileStillOpens) {
    ScratchDir dir;
    const std::string path = dir.file("v1.faultline");
    std::ifstream sql(std::string(FAULTLINE_MODEL_TESTDATA) + "/run-schema-v1.sql");
    ASSERT_TRUE(sql) << "missing tests/data/model/run-schema-v1.sql";
    const std::string text((std::istreambuf_iterator<char>(sql)), std::istreambuf_iterator<char>());
    runSql(path, text.c_str());

    const faultline::Run run = readRunFile(path);
    EXPECT_EQ(run.info.name, "tiny (seed 1)");
    EXPECT_EQ(run.topology.gpus.size(), 16u);
    EXPECT_TRUE(run.jobs.empty());
    ASSERT_EQ(run.downtimes.size(), 6u);
    for (const Downtime& d : run.downtimes) EXPECT_EQ(d.job, -1);
    EXPECT_EQ(std::count_if(run.downtimes.begin(), run.downtimes.end(), [](const Downtime& d) { return d.planned; }), 1);
    EXPECT_EQ(run.steps.size(), 354u);

    // Written again, it is a version-2 file with the same run.
    writeRunFile(run, dir.file("v2.faultline"));
    const faultline::Run again = readRunFile(dir.file("v2.faultline"));
    ASSERT_EQ(again.downtimes.size(), run.downtimes.size());
    for (std::size_t i = 0; i < run.downtimes.size(); ++i) {
        EXPECT_EQ(again.downtimes[i].begin, run.downtimes[i].begin);
        EXPECT_EQ(again.downtimes[i].end, run.downtimes[i].end);
        EXPECT_EQ(again.downtimes[i].cause, run.downtimes[i].cause);
        EXPECT_EQ(again.downtimes[i].job, -1);
    }
    EXPECT_EQ(again.failures.size(), run.failures.size());
    EXPECT_EQ(again.steps.size(), run.steps.size());
}

// Jobs and the job a downtime ended go through the file as they are.
TEST(RunFile, JobsRoundTrip) {
    ScratchDir dir;
    faultline::Run run = tinyRun();
    Job job;
    job.id = "4242001";
    job.name = "pretrain";
    job.restarts = 1;
    job.hosts = {0, 1};
    job.gpus = 16;
    job.submit = -10 * kMinute;
    job.start = 0;
    job.end = 3 * kHour;
    job.state = "NODE_FAIL";
    job.exitCode = "0:0";
    job.reason = "NodeDown";
    job.inRun = true;
    run.jobs.push_back(job);
    Job step = job;
    step.id = "4242001.0";
    step.parent = 0;
    step.end.reset();
    run.jobs.push_back(step);
    run.downtimes.front().job = 0;
    writeRunFile(run, dir.file("jobs.faultline"));
    const faultline::Run back = readRunFile(dir.file("jobs.faultline"));
    ASSERT_EQ(back.jobs.size(), 2u);
    EXPECT_EQ(back.jobs[0].id, "4242001");
    EXPECT_EQ(back.jobs[0].submit, -10 * kMinute);
    EXPECT_EQ(back.jobs[0].end, 3 * kHour);
    EXPECT_EQ(back.jobs[0].hosts, (std::vector<std::int32_t>{0, 1}));
    EXPECT_EQ(back.jobs[0].reason, "NodeDown");
    EXPECT_EQ(back.jobs[0].restarts, 1);
    EXPECT_TRUE(back.jobs[0].inRun);
    EXPECT_EQ(back.jobs[1].parent, 0);
    EXPECT_FALSE(back.jobs[1].end.has_value());
    EXPECT_EQ(back.downtimes.front().job, 0);
}

// A downtime naming a job the file lacks is corruption, named as such.
TEST(RunFile, DowntimeNamingAMissingJobIsCorrupt) {
    ScratchDir dir;
    const std::string path = dir.file("bad.faultline");
    writeRunFile(tinyRun(), path);
    runSql(path, "UPDATE downtimes SET job = 7 WHERE id = 0");
    EXPECT_EQ(errorOf(path), path + " is corrupt: downtimes row 0: job 7 does not exist");
}

}  // namespace
}  // namespace faultline
