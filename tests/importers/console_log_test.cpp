// Console logs of crashed and hung jobs: the wrapper peeler, the catalogue on real line shapes,
// the real BigScience / m4 console slices against their README table, and our fixtures of the
// shapes users paste into issue threads (tests/data/importers/console_logs, one shape each).
#include "corpus_truth.h"
#include "import_test_util.h"

#include <algorithm>

#include "analysis/incidents.h"
#include "importers/console/console_catalogue.h"
#include "importers/console/console_line.h"
#include "importers/text/text_encoding.h"
#include "importers/text/text_parse.h"

#include <sys/stat.h>
#include <utime.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace faultline {
namespace {

using test::at;
using test::fixture;
using test::importPaths;

std::string consoleFixture(const std::string& name) { return fixture("console_logs/" + name); }

// --- The peeler: every wrapper the issue names, with the rank and host it remembers.
struct PeelCase {
    const char* raw;
    const char* inner;
    std::int32_t rank, localRank;
    const char* host;
};

TEST(ConsoleLine, PeelsEveryWrapper) {
    const PeelCase cases[] = {
        {"12: iteration 5", "iteration 5", 12, -1, ""},                                      // srun -l
        {"[rank3]:boom", "boom", 3, -1, ""},                                                  // torchrun
        {"[default0]:[rank12]:boom", "boom", 12, 0, ""},                                      // torchrun --tee, nested
        {"[1,7]<stdout>:boom", "boom", 7, -1, ""},                                            // mpirun --tag-output
        {"node017: boom", "boom", -1, -1, "node017"},                                         // pdsh
        {"10.1.2.3: boom", "boom", -1, -1, "10.1.2.3"},                                       // pdsh by address
        {"(RayWorker pid=123, ip=10.0.0.2) boom", "boom", -1, -1, "10.0.0.2"},                // Ray
        {"2024-03-05T10:00:00.123456789Z boom", "boom", -1, -1, ""},                          // kubectl --timestamps
        {"[2024-03-05 10:00:00] boom", "boom", -1, -1, ""},                                   // a collector
        {"Mar  5 10:00:00 node9 python[12]: boom", "boom", -1, -1, "node9"},                  // journald / syslog
        {"  123\tboom", "boom", -1, -1, ""},                                                  // a viewer's line numbers
        {"\x1b[31m[rank2]:\x1b[0mboom", "boom", 2, -1, ""},                                   // ANSI
        {"[31m[rank2]:[0mboom", "boom", 2, -1, ""},                                           // ANSI without ESC
        {"Sun Oct  1 17:01:10 2017[1,30]<stdout>:boom", "boom", 30, -1, ""},                  // mpirun --timestamp-output
        {"[rank1]:[E1022 13:45:01.123456 1234 ProcessGroupNCCL.cpp:616] boom", "boom", 1, -1, ""},  // glog
        {"[80746] [rank0]:[E321 02:07:08.408271 1 ProcessGroupNCCL.cpp:607] boom", "boom", 0, -1, ""},  // a paste's line number
        {"18:11:06.680 [rank4]:[E205 18:11:06.375750 1 ProcessGroupNCCL.cpp:1870] boom", "boom", 4, -1, ""},  // a bare time of day
        {"[1] boom", "[1] boom", -1, -1, ""},                                                 // a number that prefixes no wrapper
        {"12:30:00 [note] boom", "[note] boom", -1, -1, ""},                                  // a time of day is dropped, not read
        {"RuntimeError: CUDA error", "RuntimeError: CUDA error", -1, -1, ""},                // not a host
        {"frame #0: c10::Error", "frame #0: c10::Error", -1, -1, ""},
    };
    YearResolver years(2024, std::nullopt);
    ConsoleLinePeeler peeler(years);
    for (const PeelCase& c : cases) {
        std::string plain;
        const ConsoleLine l = peeler.peel(stripAnsi(c.raw, plain));
        EXPECT_EQ(l.text, c.inner) << c.raw;
        EXPECT_EQ(l.rank, c.rank) << c.raw;
        EXPECT_EQ(l.localRank, c.localRank) << c.raw;
        EXPECT_EQ(l.host, c.host) << c.raw;
    }
}

TEST(ConsoleLine, SplitsProgressBarsRedrawnOrJoined) {
    YearResolver years(2024, std::nullopt);
    ConsoleLinePeeler peeler(years);
    std::vector<ConsoleLine> out;
    peeler.split(" 50%|#####     | 1/2 [00:01<00:01,  1.00s/it]\r100%|##########| 2/2 [00:02<00:00,  1.00s/it]{'loss': 2.3}", out);
    ASSERT_EQ(out.size(), 3u);
    EXPECT_EQ(out[2].text, "{'loss': 2.3}");
}

// --- The catalogue: each entry on a real line of its kind.
TEST(ConsoleCatalogue, EachEntryOnARealLine) {
    const std::pair<const char*, const char*> cases[] = {
        {"nccl-timeout", "[Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=10240, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600051 milliseconds before timing out."},
        {"nccl-timeout", "[Rank 0] Caught collective operation timeout: WorkNCCL(OpType=BROADCAST, Timeout(ms)=1800000) ran for 1806194 milliseconds before timing out."},
        {"watchdog-exception", "[PG ID 0 PG GUID 0(default_pg) Rank 3] Exception (either an error or timeout) detected by watchdog at work: 88, last enqueued NCCL work: 88, last completed NCCL work: 87."},
        {"nccl-work-counters", "[PG ID 0 PG GUID 0(default_pg) Rank 3] Timeout at NCCL work: 10240, last enqueued NCCL work: 10240, last completed NCCL work: 10239."},
        {"heartbeat-timeout", "[PG 0 Rank 2] Heartbeat monitor timed out! Process will be terminated after dumping debug info. workMetaList_.size()=1"},
        {"nccl-abort", "Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data."},
        {"nccl-error", "node7:23456:23890 [3] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion from peer 10.10.1.8<57102> with error 12, opcode 1, len 0, vendor err 129"},
        {"cuda-oom", "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.23 GiB is free."},
        {"terminate", "terminate called after throwing an instance of 'c10::CUDAError'"},
        {"cuda-error", "RuntimeError: CUDA error: an illegal memory access was encountered"},
        {"cuda-error", "  what():  CUDA error: uncorrectable ECC error encountered"},
        {"cuda-error", "RuntimeError: CUDA error: unspecified launch failure"},
        {"cuda-error", "RuntimeError: CUDA error: device-side assert triggered"},
        {"host-oom", "Out of memory: Killed process 28123 (python) total-vm:812345678kB, anon-rss:498765432kB"},
        {"host-oom", "slurmstepd: error: Detected 1 oom_kill event in StepId=4242.0. Some of the step tasks have been OOM Killed."},
        {"crash", "pt_main_thread[2536443]: segfault at 0 ip 00007f0e5b3c1a2e sp 00007f0e2bffe1a0 error 4 in libnccl.so.2.18.3[7f0e5b200000+1c7e000]"},
        {"elastic-failure", "failed (exitcode: -6) local_rank: 3 (pid: 1234) of binary: /usr/bin/python3"},
        {"elastic-summary", "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: "},
        {"elastic-summary", "  rank      : 11 (local_rank: 3)"},
        {"worker-group-restart", "[default] Worker group FAILED. 2/3 attempts left; will restart worker group"},
        {"signal", "Received 15 death signal, shutting down workers"},
        {"signal", "Main process received SIGTERM, exiting"},
        {"slurm-cancel", "slurmstepd: error: *** JOB 1999616 ON r6i4n5 CANCELLED AT 2021-05-27T21:42:11 DUE TO TIME LIMIT ***"},
        {"slurm-cancel", "slurmstepd: error: *** STEP 1943824.0 ON jean-zay-iam17 CANCELLED AT 2023-03-06T03:17:51 DUE TO NODE FAILURE, SEE SLURMCTLD LOG FOR DETAILS ***"},
        {"slurm-node-failure", "srun: error: Node failure on jean-zay-iam37"},
        {"slurm-task-exit", "srun: error: node7: task 12: Killed"},
        {"slurm-step-aborted", "srun: Job step aborted: Waiting up to 62 seconds for job step to finish."},
        {"traceback", "Traceback (most recent call last):"},
        {"step", " iteration    43680/  311541 | consumed samples:     25709904 | elapsed time per iteration (ms): 25593.4 | learning rate: 9.135E-05"},
        {"step", "[Rank 0] step=100, skipped=0, lr=[0.0001], mom=[(0.9, 0.95)]"},
        {"step", "[titan] 2025-01-01 00:00:01,000 - root - INFO - step:  1  loss:  9.1000  memory: 40.00GiB(50.00%)"},
        {"step", "  6%|▋         | 1/16 [00:58<14:40, 58.70s/it]"},
        {"step", "{'loss': 1.2345, 'grad_norm': 3.21, 'learning_rate': 4.9e-05, 'epoch': 0.1}"},
        {"step", "Epoch 0:  45%|████▌     | 450/1000 [01:23<01:42,  5.37it/s, v_num=0, train_loss=2.310]"},
        {"step", "iteration:  2500/500000   0% | elapsed time: 07:41:19 | per_token_loss: 3.1525"},
        {"checkpoint", "saving checkpoint at iteration   33241 to /gpfsscratch/checkpoints"},
        {"checkpoint", "[INFO|trainer.py:1884] 2021-05-25 06:53:45,424 >> Saving model checkpoint to output_dir"},
        {"checkpoint", "Epoch 0, global step 500: 'val_loss' reached 2.30000 (best 2.30000), saving model to '/ckpt/epoch=0-step=500.ckpt' as top 1"},
        {"checkpoint-timer", "time (ms) | save-checkpoint: 57514.53"},
        {"nccl-comm-init", "r7i5n3:1663:1747 [1] NCCL INFO comm 0x14b41417aff0 rank 1 nranks 4 cudaDev 1 busId 1c000 - Init COMPLETE"},
        {"job-shape", "  world_size ................... 16"},
    };
    for (const auto& [kind, line] : cases) {
        const auto e = recogniseConsoleLine(line);
        ASSERT_TRUE(e) << line;
        EXPECT_EQ(consoleKindName(e->kind), kind) << line;
    }
    EXPECT_FALSE(recogniseConsoleLine("Effective Tera Flops per GPU: 41.31 and total parameters 52.005 B"));
}

// --- The real console logs against their README table.
struct RealCase {
    const char* file;
    const char* format;
    std::vector<const char*> kinds;  // catalogue kinds that must be understood
    int steps;                        // -1: unknown
    std::int64_t firstStep, lastStep;
    int failures;                     // -1: unknown
    const char* firstError;           // "" when not printed (or none)
    int world;                        // 0: unknown
};

TEST(ConsoleLog, RealSlicesMatchTheirReadme) {
    FAULTLINE_REQUIRE_REALDATA();
    const RealCase cases[] = {
        {"33-bigscience-meg-ds-zero-1999616-slurm-time-limit.log", "training-log", {"step", "slurm-cancel", "slurm-step-aborted", "signal"}, 4, 1, 4, -1, "2021-05-27T21:42:11Z", 0},
        {"34-bigscience-tr1-13B-ecc-iteration-traceback.log", "training-log", {"step", "traceback", "cuda-error"}, 1, 43680, 43680, 1, "", 0},
        {"35-bigscience-tr1-13B-checkpoint-exit-alert.log", "training-log", {"step", "checkpoint", "checkpoint-timer"}, 1, 33240, 33240, 0, "", 0},
        {"36-bigscience-tr11-176B-default-prefix-cuda-unknown.log", "training-log", {"terminate", "cuda-error"}, 0, 0, 0, 1, "", 0},
        {"37-bigscience-tr11-176B-eval-hang-pulse.log", "training-log", {"step"}, 1, 45000, 45000, 0, "", 0},
        {"38-bigscience-hf-ds-gpt2-n4-tqdm-cr-control.log", "training-log", {"step", "checkpoint"}, 16, 1, 16, 0, "", 16},
        {"39-m4-logs-tr141-exp6.1-iteration-node-failure.log", "training-log", {"step", "slurm-node-failure", "slurm-cancel"}, 1, 2500, 2500, -1, "2023-03-06T03:17:51Z", 0},
        {"40-m4-logs-tr141-exp2.1-cuda-unknown-node-failure.log", "training-log", {"terminate", "cuda-error", "slurm-node-failure"}, 0, 0, 0, -1, "", 0},
        {"41-m4-logs-tr141-try3-dmesg-hung-task.log", "kernel-log", {}, 0, 0, 0, 1, "2023-03-04T04:10:52Z", 0},
    };
    for (const RealCase& c : cases) {
        SCOPED_TRACE(c.file);
        const ImportResult r = importPaths({test::realData(std::string("console_logs/") + c.file)});
        const FileReport& f = r.summary.files.at(0);
        EXPECT_EQ(f.format, c.format);
        for (const char* kind : c.kinds) EXPECT_TRUE(f.understoodByKind.count(kind)) << kind;
        if (c.steps >= 0) {
            // Steps a single rank printed; the run keeps them in order.
            ASSERT_EQ(static_cast<int>(r.run.steps.size()), c.steps);
            if (c.steps > 0) {
                EXPECT_EQ(r.run.steps.front().step, c.firstStep);
                EXPECT_EQ(r.run.steps.back().step, c.lastStep);
            }
        }
        if (c.failures >= 0) {
            EXPECT_EQ(static_cast<int>(r.run.failures.size()), c.failures);
        }
        if (*c.firstError) {
            ASSERT_FALSE(r.run.failures.empty());
            EXPECT_EQ(r.run.info.startEpochNs + r.run.failures.front().time, at(c.firstError));
        }
    }
}

// --- Our fixtures: every file imports, and every kind its "# expect:" line names is understood.
std::vector<std::string> expectedKinds(const std::string& path) {
    std::ifstream in(path);
    std::string line;
    std::vector<std::string> out;
    while (std::getline(in, line) && line.rfind("# ", 0) == 0) {
        if (line.rfind("# expect: ", 0) != 0) continue;
        std::stringstream list(line.substr(10));
        for (std::string kind; std::getline(list, kind, ',');) out.push_back(std::string(trim(kind)));
    }
    return out;
}

TEST(ConsoleLog, EveryFixtureShapeIsRecognised) {
    int files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(consoleFixture(""))) {
        if (entry.path().extension() != ".log") continue;
        ++files;
        const std::string path = entry.path().string();
        SCOPED_TRACE(path);
        ImportOptions options;
        options.year = 2024;  // fixtures' yearless lines; their mtime is the checkout's
        const ImportResult r = importPaths({path}, options);
        const FileReport& f = r.summary.files.at(0);
        EXPECT_EQ(f.format, "training-log");
        for (const std::string& kind : expectedKinds(path)) EXPECT_TRUE(f.understoodByKind.count(kind)) << kind;
    }
    EXPECT_GE(files, 40);
}

// A line the catalogue does not know is quoted in the report cut to a readable length: cut
// before a character, never inside one, so a rich traceback's box-drawing frame (3 bytes a
// character) still gives a report that JSON can hold.
TEST(ConsoleLog, AQuotedLineCutShortStaysValidUtf8) {
    const test::ScratchDir dir;
    const std::string path = dir.file("accelerate.log");
    std::string frame = "\xe2\x94\x82";  // │
    for (int i = 0; i < 60; ++i) frame += "\xe2\x94\x80";  // ─, 3 bytes each: byte 160 falls inside one
    {
        std::ofstream out(path);
        out << frame << "\nRuntimeError: CUDA error: uncorrectable ECC error encountered\n";
    }
    const ImportResult r = importFiles({path}, {});
    const FileReport& f = r.summary.files.at(0);
    ASSERT_EQ(f.unrecognised.size(), 1u);
    EXPECT_TRUE(validUtf8(f.unrecognised[0])) << f.unrecognised[0];
    EXPECT_NO_THROW((void)importSummaryToJson(r.summary).dump());
    EXPECT_EQ(utf8Prefix("a\xe2\x94\x80" "b", 2), "a");
    EXPECT_EQ(utf8Prefix("a\xe2\x94\x80" "b", 4), "a\xe2\x94\x80");
}

// NCCL's "Connection closed by localRank 0" names a local rank, not the global one: the NET/IB
// error is the host's that its NCCL prefix names, not rank 0's drawn on a host of unplaced ranks.
TEST(ConsoleLog, ALocalRankIsNoGlobalRank) {
    const test::ScratchDir dir;
    const std::string path = dir.file("nccl.log");
    {
        std::ofstream out(path);
        out << "node042:25146:25854 [0] transport/net_ib.cc:1105 NCCL WARN NET/IB : Got completion from peer 10.0.3.1<49189> with error 12, opcode 0, len 0, vendor err 129 (Send)\n"
               "node042:25146:25852 [0] NCCL INFO [Service thread] Connection closed by localRank 0\n"
               "node042:25172:25848 [1] NCCL INFO [Service thread] Connection closed by localRank 0\n";
    }
    const ImportResult r = importFiles({path}, {});
    ASSERT_EQ(r.run.failures.size(), 1u) << importSummaryToText(r.summary);
    const Failure& f = r.run.failures[0];
    EXPECT_EQ(f.cause, RootCause::NetworkSwitchCable);
    EXPECT_TRUE(f.ranks.empty()) << f.detail;
    EXPECT_EQ(test::failureHosts(r.run, f), std::set<std::string>{"node042"});
}

TEST(ConsoleLog, ASilentRankOfAWatchdogTimeoutIsTheSuspect) {
    ImportOptions options;
    options.year = 2024;
    const ImportResult r = importPaths({consoleFixture("01_torchrun_rank_watchdog_new.log")}, options);
    ASSERT_EQ(r.run.failures.size(), 1u);  // seven ranks' reports of one hang
    const Failure& f = r.run.failures[0];
    EXPECT_EQ(f.cause, RootCause::NcclWatchdogTimeout);
    EXPECT_EQ(f.ranks.size(), 7u);
    EXPECT_EQ(f.suspectRanks, (std::vector<std::int32_t>{5}));
    EXPECT_NE(f.detail.find("suspect rank(s) 5 (did not report)"), std::string::npos) << f.detail;
    EXPECT_NE(f.detail.find("of 8"), std::string::npos) << f.detail;
    const auto incidents = buildIncidents(r.run);
    ASSERT_EQ(incidents.size(), 1u);
    EXPECT_EQ(incidents[0].suspectRanks, (std::vector<std::int32_t>{5}));
    EXPECT_EQ(incidentsToJson(incidents, r.run.info)[0]["suspect_ranks"], nlohmann::json::array({5}));
}

// The watchdog reports the CUDA error that stopped the collective: the cause is the ECC error
// and the rank whose GPU raised it the suspect, not "NCCL Watchdog Timeouts" with none.
TEST(ConsoleLog, AWatchdogCarryingAnEccErrorIsFiledAsEcc) {
    const std::string path = ::testing::TempDir() + "/watchdog-ecc.log";
    std::ofstream(path) << "[rank12]:[E0610 03:10:01.000000 1 ProcessGroupNCCL.cpp:1182] [PG ID 0 PG GUID 0(default_pg) Rank 12] "
                           "Process group watchdog thread terminated with exception: CUDA error: uncorrectable ECC error encountered\n";
    ImportOptions options;
    options.year = 2024;
    const ImportResult r = importPaths({path}, options);
    ASSERT_EQ(r.run.failures.size(), 1u);
    const Failure& f = r.run.failures[0];
    EXPECT_EQ(f.cause, RootCause::GpuHbm3Memory) << f.detail;
    EXPECT_EQ(f.suspectRanks, (std::vector<std::int32_t>{12}));
    EXPECT_NE(f.detail.find("uncorrectable ECC error encountered"), std::string::npos) << f.detail;
}

TEST(ConsoleLog, LaggingCountersNameTheRankBehind) {
    const std::string path = ::testing::TempDir() + "/lagging.log";
    {
        std::ofstream out(path);
        for (int rank : {0, 1, 2})
            out << "[rank" << rank << "]:[E0610 03:10:0" << rank << ".000000 1 ProcessGroupNCCL.cpp:1785] [PG ID 0 PG GUID 0(default_pg) Rank " << rank
                << "] Timeout at NCCL work: 500, last enqueued NCCL work: " << (rank == 2 ? 499 : 500)
                << ", last completed NCCL work: " << (rank == 2 ? 498 : 499) << ".\n";
    }
    ImportOptions options;
    options.year = 2024;
    const ImportResult r = importPaths({path}, options);
    ASSERT_EQ(r.run.failures.size(), 1u);
    EXPECT_EQ(r.run.failures[0].suspectRanks, (std::vector<std::int32_t>{2}));  // it never enqueued work 500
    // Without counters, the silent rank below the reporter is the suspect (import_invariants.h):
    // rank 1 of a world of 2 timed out, rank 0 said nothing.
    const ImportResult silent = importPaths({consoleFixture("02_watchdog_old_wording.log")});
    ASSERT_EQ(silent.run.failures.size(), 1u);
    EXPECT_EQ(silent.run.failures[0].suspectRanks, (std::vector<std::int32_t>{0}));
}

TEST(ConsoleLog, TorchrunSummaryNamesTheRootCauseRankAndHost) {
    const ImportResult r = importPaths({consoleFixture("18_childfailederror_summary.log")});
    ASSERT_EQ(r.run.failures.size(), 1u);
    const Failure& f = r.run.failures[0];
    EXPECT_EQ(f.suspectRanks, (std::vector<std::int32_t>{11}));
    EXPECT_NE(f.detail.find("rank 11 on gpu-node-12, exit code -6 (SIGABRT) at 2024-03-05T10:00:04"), std::string::npos) << f.detail;
    EXPECT_EQ(r.run.info.startEpochNs + f.time, at("2024-03-05T10:00:04Z"));
}

TEST(ConsoleLog, CudaOutOfMemoryIsAFailureWithItsAmounts) {
    const ImportResult r = importPaths({consoleFixture("12_cuda_oom_new.log")});
    ASSERT_EQ(r.run.failures.size(), 1u);
    EXPECT_NE(r.run.failures[0].detail.find("Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.23 GiB is free"),
              std::string::npos)
        << r.run.failures[0].detail;
    EXPECT_EQ(r.run.info.startEpochNs + r.run.failures[0].time, at("2024-08-01T12:00:01Z"));
}

TEST(ConsoleLog, UnrecognisedLinesAreCountedAndShown) {
    FAULTLINE_REQUIRE_REALDATA();
    const ImportResult r = importPaths({test::realData("console_logs/35-bigscience-tr1-13B-checkpoint-exit-alert.log")});
    const FileReport& f = r.summary.files.at(0);
    EXPECT_EQ(f.linesRead, 10);
    EXPECT_GT(f.linesUnderstood, 3);
    EXPECT_LT(f.linesUnderstood, f.linesRead);
    ASSERT_FALSE(f.unrecognised.empty());
    EXPECT_NE(f.unrecognised[0].find("35-bigscience-tr1-13B-checkpoint-exit-alert.log:"), std::string::npos) << f.unrecognised[0];
    EXPECT_NE(importSummaryToText(r.summary).find("not recognised (first"), std::string::npos);
}

// Yearless times take the year that puts them at or before the file's modification time.
TEST(ConsoleLog, YearlessTimesNeverLandAfterTheFileWasWritten) {
    const std::string path = ::testing::TempDir() + "/glog_yearless.log";
    {
        std::ofstream out(path);
        out << "[rank3]:[E1230 23:59:00.000000 1 ProcessGroupNCCL.cpp:616] [Rank 3] Watchdog caught collective operation timeout: "
               "WorkNCCL(SeqNum=1, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600001 milliseconds before timing out.\n";
    }
    // Written on 2025-01-02: the 30th of December was 2024's, not 2025's (weeks into the future).
    const struct utimbuf times{1735776000, 1735776000};
    ASSERT_EQ(::utime(path.c_str(), &times), 0);
    const ImportResult r = importPaths({path});
    ASSERT_EQ(r.run.failures.size(), 1u);
    EXPECT_EQ(r.run.info.startEpochNs + r.run.failures[0].time, at("2024-12-30T23:59:00Z"));
    const auto& notes = r.summary.files.at(0).notes;
    ASSERT_FALSE(notes.empty());
    EXPECT_TRUE(std::any_of(notes.begin(), notes.end(), [](const std::string& n) { return n.find("took 2024") != std::string::npos; }))
        << notes.front();
    ImportOptions forced;
    forced.year = 2023;
    EXPECT_EQ(importPaths({path}, forced).run.failures.size(), 1u);
}

TEST(ConsoleLog, ANodeFailureAndTheStepCancelAreOneFailure) {
    const ImportResult r = importPaths({consoleFixture("22_slurm_node_failure.log")});
    ASSERT_EQ(r.run.failures.size(), 1u);
    EXPECT_EQ(r.run.failures[0].cause, RootCause::HostMaintenance);
    EXPECT_TRUE(r.run.topology.findHost("gpu-a17"));
}

}  // namespace
}  // namespace faultline
