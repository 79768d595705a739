// Following a job's folder while the job writes it (importers/folder_follower.h): each look
// reads what changed, never tells an incident twice, waits for a line's end, survives log
// rotation, and after the last look the run file is the one-shot import of the folder.
#include "importers/folder_follower.h"

#include "growing_files.h"
#include "import_test_util.h"
#include "model/run_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

namespace faultline::test {
namespace {

namespace fs = std::filesystem;

// One Xid a line, each on its own GPU and minute: one incident each.
std::string xidLine(int i) {
    char line[200];
    std::snprintf(line, sizeof line, "2025-01-21T04:%02d:10+0000 gpu-node-%02d kernel: NVRM: Xid (PCI:0000:%02x:00): 79, pid=77, name=python, GPU has fallen off the bus.\n",
                  10 + i, 1 + i % 4, 0x1b + 0x10 * (i % 4));
    return line;
}

using test::append;

std::string incidentsOf(const faultline::Run& run) { return incidentsToText(buildIncidents(run), run.info); }

TEST(FolderFollower, GrowingFilesAreReadAsTheyChangeEachIncidentToldOnceAndTheLastLookIsTheOneShotImport) {
    ScratchDir dir;
    const fs::path job = dir.path() / "job";
    fs::create_directories(job / "kernel");
    const std::string kernelLog = (job / "kernel" / "syslog").string();
    const std::string output = dir.file("live.faultline");
    FolderFollower follower({job.string()}, output, {});

    // Nothing Faultline reads yet: nothing is written, and it says why.
    FolderFollower::Look look = follower.look();
    EXPECT_FALSE(look.written);
    EXPECT_FALSE(fs::exists(output));

    std::set<std::string> told;
    auto tell = [&](const FolderFollower::Look& l) {
        for (const Incident& incident : l.newIncidents) EXPECT_TRUE(told.insert(std::to_string(incident.begin) + " " + incident.headline).second) << "told twice: " << incident.headline;
    };
    append(kernelLog, xidLine(0) + xidLine(1));
    look = follower.look();
    ASSERT_TRUE(look.written);
    EXPECT_EQ(look.newIncidents.size(), 2u);
    tell(look);
    EXPECT_EQ(buildIncidents(readRunFile(output)).size(), 2u);

    // Unchanged: nothing is read and nothing written again.
    look = follower.look();
    EXPECT_FALSE(look.written);
    EXPECT_EQ(look.filesRead, 0u);

    // Grown, and a new host's log beside it: only the changed files are read.
    append(kernelLog, xidLine(2));
    // node04 failed before any line read so far: the run's start moves back, no incident is told again.
    append((job / "kernel" / "node04.log").string(), xidLine(3) + xidLine(-1));
    std::ofstream((job / "README").string()) << "notes of the team, not evidence\n";
    look = follower.look();
    ASSERT_TRUE(look.written);
    EXPECT_EQ(look.filesRead, 3u);
    EXPECT_EQ(look.newIncidents.size(), 3u);
    tell(look);
    for (std::size_t i = 1; i < look.newIncidents.size(); ++i) EXPECT_LE(look.newIncidents[i - 1].begin, look.newIncidents[i].begin);

    look = follower.look(true);
    tell(look);
    EXPECT_EQ(told.size(), 5u);
    const faultline::Run followed = readRunFile(output);
    const faultline::Run oneShot = importPaths({job.string()}).run;
    EXPECT_EQ(incidentsOf(followed), incidentsOf(oneShot));
    EXPECT_EQ(followed.topology.gpus.size(), oneShot.topology.gpus.size());
    EXPECT_EQ(followed.info.startEpochNs, oneShot.info.startEpochNs);
    EXPECT_EQ(followed.info.duration, oneShot.info.duration);
}

TEST(FolderFollower, AHalfWrittenLastLineWaitsForItsEnd) {
    ScratchDir dir;
    const fs::path job = dir.path() / "job";
    fs::create_directories(job);
    const std::string log = (job / "syslog").string();
    FolderFollower follower({job.string()}, dir.file("live.faultline"), {});
    append(log, xidLine(0));
    ASSERT_TRUE(follower.look().written);

    const std::string second = xidLine(1);
    append(log, second.substr(0, 40));
    FolderFollower::Look look = follower.look();
    EXPECT_FALSE(look.written);
    ASSERT_EQ(look.waiting.size(), 1u);
    EXPECT_EQ(look.waiting.front(), log + ": its last line is not ended yet");

    append(log, second.substr(40));
    look = follower.look();
    ASSERT_TRUE(look.written);
    EXPECT_EQ(look.newIncidents.size(), 1u);
    EXPECT_TRUE(look.waiting.empty());
}

TEST(FolderFollower, ALineThatNeverEndsIsReadAfterTwoLooks) {
    // A writer that died mid-line, or one always mid-line when looked at, is still read.
    ScratchDir dir;
    const fs::path job = dir.path() / "job";
    fs::create_directories(job);
    const std::string log = (job / "syslog").string();
    append(log, xidLine(0) + "2025-01-21T04:30:00+0000 gpu-node-01 kernel: NVRM: Xid (PCI:0000");
    FolderFollower follower({job.string()}, dir.file("live.faultline"), {});
    EXPECT_FALSE(follower.look().written);
    append(log, ":1b");
    EXPECT_FALSE(follower.look().written);
    const FolderFollower::Look third = follower.look();
    EXPECT_TRUE(third.written);
    EXPECT_EQ(third.newIncidents.size(), 1u);
}

TEST(FolderFollower, RotatedAndTruncatedLogsLoseNothingAndCountNothingTwice) {
    ScratchDir dir;
    const fs::path job = dir.path() / "job";
    fs::create_directories(job);
    const std::string log = (job / "syslog").string();
    FolderFollower follower({job.string()}, dir.file("live.faultline"), {});
    append(log, xidLine(0) + xidLine(1));
    ASSERT_TRUE(follower.look().written);

    // logrotate's rename: syslog becomes syslog.1, a new syslog goes on.
    fs::rename(log, log + ".1");
    append(log, xidLine(2));
    FolderFollower::Look look = follower.look();
    ASSERT_TRUE(look.written);
    EXPECT_EQ(look.newIncidents.size(), 1u);

    // copytruncate: the log copied to syslog.2, then emptied in place and written again.
    fs::copy_file(log, log + ".2");
    fs::resize_file(log, 0);
    append(log, xidLine(3));
    look = follower.look();
    ASSERT_TRUE(look.written);
    EXPECT_EQ(look.newIncidents.size(), 1u);
    EXPECT_EQ(buildIncidents(readRunFile(dir.file("live.faultline"))).size(), 4u);
}

// What a reader of the run sees of a run: its incidents, failures, steps and checkpoints, span.
std::string runText(const faultline::Run& run) {
    std::string rankSteps;
    for (const RankStep& r : run.rankSteps)
        rankSteps += std::to_string(r.rank) + ":" + std::to_string(r.step) + "@" + std::to_string(r.time) + "+" + std::to_string(r.duration) + " ";
    return incidentsOf(run) + "\nfailures " + std::to_string(run.failures.size()) + ", steps " + std::to_string(run.steps.size()) + ", checkpoints " +
           std::to_string(run.checkpoints.size()) + ", start " + std::to_string(run.info.startEpochNs) + ", duration " + std::to_string(run.info.duration) +
           "\nrank steps " + rankSteps;
}

// A log written a few bytes at a time (lines cut anywhere, a traceback over many looks),
// looked at after each piece: no incident is told twice, and the last look is the one-shot
// import of the finished file, whatever the looks saw on the way.
TEST(FolderFollower, ALogAppendedInManySmallPiecesEndsAsTheOneShotImport) {
    for (const char* name : {"torchtitan_4ranks_straggler.log", "megatron_checkpoints.log", "console_logs/03_watchdog_exception.log", "xid_journal.log"}) {
        SCOPED_TRACE(name);
        std::ifstream in(fixture(name), std::ios::binary);
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        ASSERT_GT(text.size(), 100u);
        ScratchDir dir;
        const fs::path job = dir.path() / "job";
        fs::create_directories(job);
        const std::string log = (job / "rank0.log").string();
        const std::string output = dir.file("live.faultline");
        FolderFollower follower({job.string()}, output, {});
        std::set<std::string> told;
        auto tell = [&](const FolderFollower::Look& l) {
            for (const Incident& incident : l.newIncidents)
                EXPECT_TRUE(told.insert(std::to_string(l.info.startEpochNs + incident.begin) + " " + incident.hardware).second)
                    << "told twice: " << incident.headline;
        };
        // Pieces of a prime number of bytes, so the cuts fall everywhere in the lines; bigger
        // ones for the bigger log, so that it takes a hundred looks, not six hundred.
        const std::size_t piece = text.size() > 4000 ? 211 : 37;
        for (std::size_t at = 0; at < text.size(); at += piece) {
            append(log, text.substr(at, piece));
            try {
                tell(follower.look());
            } catch (const Error&) {
                // What is written so far may not be a run yet (no line Faultline knows).
            }
        }
        tell(follower.look(true));
        const faultline::Run oneShot = importPaths({job.string()}).run;
        EXPECT_EQ(runText(readRunFile(output)), runText(oneShot));
    }
}

// A console log that grew is read from where the last look left it: what it grew by, not the
// whole log again; after the last look the run is still the one-shot import.
TEST(FolderFollower, AConsoleLogThatGrewIsReadFromWhereTheLastLookLeftIt) {
    ScratchDir dir;
    const fs::path job = dir.path() / "job";
    fs::create_directories(job);
    const std::string log = (job / "rank0.log").string();
    const std::string output = dir.file("live.faultline");
    int iteration = 0;
    auto lines = [&](int n) {
        std::string text;
        // Two ranks in one log (srun's stdout): each rank's steps are kept, in time order.
        for (int k = 0; k < n; ++k, ++iteration)
            for (const char* rank : {"[rank0]:", "[rank1]:"}) {
                char stamp[32];
                std::snprintf(stamp, sizeof stamp, "[2024-03-05 %02d:%02d:%02d]", 10 + iteration / 3600, iteration / 60 % 60, iteration % 60);
                text += std::string(rank) + stamp + " iteration " + std::to_string(iteration + 1) + "/ 100000 | elapsed time per iteration (ms): 1000.0 | lm loss: 2.0 |\n";
            }
        return text;
    };
    FolderFollower follower({job.string()}, output, {});
    append(log, lines(3000));
    const std::uint64_t firstSize = fs::file_size(log);
    EXPECT_EQ(follower.look().bytesRead, firstSize);
    std::size_t steps = readRunFile(output).steps.size();
    ASSERT_GT(readRunFile(output).rankSteps.size(), 0u) << "no rank steps: the file would be written whole at every look";
    for (int look = 0; look < 4; ++look) {
        const std::string more = lines(10);
        append(log, more);
        const FolderFollower::Look grown = follower.look();
        EXPECT_TRUE(grown.written);
        EXPECT_EQ(grown.bytesRead, more.size()) << "what the log grew by, of " << fs::file_size(log) << " bytes";
        const faultline::Run followed = readRunFile(output);
        EXPECT_GT(followed.steps.size(), steps);
        steps = followed.steps.size();
        EXPECT_EQ(runText(followed), runText(importPaths({job.string()}).run)) << "the run file brought up to date, not written whole";
    }
    // Another writer's run file put in its place between two looks: written whole, none of
    // its rows kept.
    faultline::Run foreign = readRunFile(output);
    for (RankStep& r : foreign.rankSteps) r.duration += 1;
    writeRunFile(foreign, output);
    append(log, lines(10));
    follower.look();
    EXPECT_EQ(runText(readRunFile(output)), runText(importPaths({job.string()}).run)) << "rows of another writer's file were kept";
    append(log, lines(1).substr(0, 30));  // the last line, cut short when the job died
    follower.look(true);
    EXPECT_EQ(runText(readRunFile(output)), runText(importPaths({job.string()}).run));
}

// A console log rotated (renamed to .1, a new one begun at its name) and one whose last line
// never ends: the new file is read from its start, the old one keeps what it gave, the unended
// line is read once it stopped changing, and the run is the one-shot import.
TEST(FolderFollower, ARotatedConsoleLogAndOneWhoseLastLineNeverEndsEndAsTheOneShotImport) {
    ScratchDir dir;
    const fs::path job = dir.path() / "job";
    fs::create_directories(job);
    const std::string log = (job / "rank0.log").string(), other = (job / "rank1.log").string();
    const std::string output = dir.file("live.faultline");
    auto line = [](int rank, int i) {
        return "[rank" + std::to_string(rank) + "]:[2024-03-05 10:0" + std::to_string(i / 60) + ":" + std::to_string(10 + i % 50) + "] iteration " +
               std::to_string(i) + "/ 1000 | elapsed time per iteration (ms): 1000.0 |\n";
    };
    FolderFollower follower({job.string()}, output, {});
    for (int i = 1; i <= 5; ++i) append(log, line(0, i)), append(other, line(1, i));
    follower.look();
    append(log, line(0, 6));
    follower.look();
    fs::rename(log, log + ".1");
    for (int i = 7; i <= 9; ++i) append(log, line(0, i));
    append(other, line(1, 6) + "[rank1]:[2024-03-05 10:00:17] RuntimeError: CUDA error: an illegal mem");
    const FolderFollower::Look rotated = follower.look();
    EXPECT_TRUE(rotated.written);
    follower.look();
    follower.look();  // the line stopped changing two looks ago
    EXPECT_EQ(runText(readRunFile(output)), runText(importPaths({job.string()}).run)) << "the unended line read whole";
    follower.look(true);
    EXPECT_EQ(runText(readRunFile(output)), runText(importPaths({job.string()}).run));
}

// copytruncate written past the old size before the next look: the same file (inode), larger
// than at the last look, yet not the bytes read before. The run is the new bytes' only.
TEST(FolderFollower, ACopytruncateWrittenPastTheOldSizeBeforeTheNextLookIsReadAnew) {
    ScratchDir dir;
    const fs::path job = dir.path() / "job";
    fs::create_directories(job);
    const std::string log = (job / "syslog").string();
    const std::string output = dir.file("live.faultline");
    FolderFollower follower({job.string()}, output, {});
    append(log, xidLine(0));
    ASSERT_TRUE(follower.look().written);
    fs::copy_file(log, dir.file("syslog.1"));  // copied out of the folder: only the new bytes stay
    fs::resize_file(log, 0);
    append(log, xidLine(1) + xidLine(2));
    const FolderFollower::Look look = follower.look();
    ASSERT_TRUE(look.written);
    EXPECT_EQ(look.newIncidents.size(), 2u);
    EXPECT_EQ(runText(readRunFile(output)), runText(importPaths({job.string()}).run));
    EXPECT_EQ(buildIncidents(readRunFile(output)).size(), 2u);
}

TEST(FolderFollower, ADumpStillBeingWrittenWaitsWhileTheOtherFilesGoOn) {
    ScratchDir dir;
    const fs::path job = dir.path() / "job";
    fs::create_directories(job);
    std::ifstream in(fixture("fr_shared_input_sizes_7"), std::ios::binary);
    const std::string dump((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ASSERT_GT(dump.size(), 1000u);
    const std::string dumpPath = (job / "nccl_trace_rank_7").string();
    append(dumpPath, dump.substr(0, dump.size() / 2));
    // A log of the same minute as the dump.
    append((job / "syslog").string(), "2025-09-23T06:55:06+0000 gpu-node-01 kernel: NVRM: Xid (PCI:0000:1b:00): 79, pid=77, name=python, GPU has fallen off the bus.\n");

    FolderFollower follower({job.string()}, dir.file("live.faultline"), {});
    FolderFollower::Look look = follower.look();
    // The half dump cannot be read (or waits as text without an end); the log is read.
    ASSERT_TRUE(look.written);
    EXPECT_EQ(look.newIncidents.size(), 1u);
    ASSERT_FALSE(look.waiting.empty());
    EXPECT_EQ(look.waiting.front().rfind(dumpPath + ": ", 0), 0u) << look.waiting.front();

    append(dumpPath, dump.substr(dump.size() / 2));
    for (int i = 0; i < 3 && !look.waiting.empty(); ++i) look = follower.look();
    EXPECT_TRUE(look.waiting.empty());
    const faultline::Run run = readRunFile(dir.file("live.faultline"));
    const faultline::Run oneShot = importPaths({job.string()}).run;
    EXPECT_EQ(run.collectives.size(), oneShot.collectives.size());
    EXPECT_EQ(incidentsOf(run), incidentsOf(oneShot));
}

TEST(FolderFollower, TheRunFileMayNotBeInsideTheFolderItFollows) {
    ScratchDir dir;
    const std::string message = errorOf([&] { FolderFollower({dir.path().string()}, dir.file("live.faultline"), {}); });
    EXPECT_NE(message.find("cannot be written inside the folder it follows"), std::string::npos) << message;
}

}  // namespace
}  // namespace faultline::test
