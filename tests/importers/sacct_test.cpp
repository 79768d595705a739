// Slurm sacct: gcm's pipe-delimited captures (with multi-line, invalid-line and "|#"
// edge cases), a snowman-delimited fixture, and SARC's --json from Slurm 21.08, 22.05, 23.02.
#include "import_test_util.h"

#include "importers/text/hostlist.h"
#include "importers/text/text_parse.h"
#include "test_runs.h"

#include <fstream>

namespace faultline {
namespace {

using test::at;
using test::fixture;
using test::importPaths;
using test::realData;

const std::string kGcm = "slurm/gcm/gcm/tests/data/";
const std::string kSarc = "slurm/SARC/tests/functional/jobs/sacct_outputs/";

TEST(Sacct, MidnightEdgeCaseCountsJobsByState) {
    FAULTLINE_REQUIRE_REALDATA();
    const ImportResult r = importPaths({realData(kGcm + "sample-sacct-output-midnight-edge-case.txt")});
    const FileReport& f = r.summary.files.at(0);
    EXPECT_EQ(f.format, "sacct");
    EXPECT_EQ(f.counts.at("jobs"), 306);  // 1,186 lines less the .batch / .extern / .N steps
    EXPECT_EQ(f.counts.at("jobs FAILED"), 259);
    EXPECT_EQ(f.counts.at("jobs CANCELLED"), 24);  // "CANCELLED by 1185300516" included
    EXPECT_EQ(f.counts.at("jobs REQUEUED"), 2);
    EXPECT_EQ(f.counts.at("jobs OUT_OF_MEMORY"), 2);
    EXPECT_EQ(f.counts.at("jobs TIMEOUT"), 1);
    EXPECT_EQ(f.counts.at("failures"), 288);
    EXPECT_EQ(f.skippedLines, 0);
    // Job 39624088 ran 2021-04-07T20:56:57 .. 23:57:09 and timed out.
    bool found = false;
    for (const Failure& x : r.run.failures) {
        if (x.detail.find("39624088") == std::string::npos) continue;
        found = true;
        EXPECT_EQ(r.run.info.startEpochNs + x.time, at("2021-04-07T23:57:09Z"));
        EXPECT_NE(x.detail.find("TIMEOUT"), std::string::npos);
    }
    EXPECT_TRUE(found);
    EXPECT_EQ(f.first, at("2021-04-04T23:59:03Z"));
    EXPECT_EQ(f.last, at("2021-04-07T23:59:56Z"));
}

// A note a person put above the header ("# job 4191701, node fail") is skipped: the file is
// still sacct (found as such, and read), not "unknown format".
TEST(Sacct, ACommentAboveTheHeaderIsSkipped) {
    const test::ScratchDir dir;
    const std::string path = dir.file("job.txt");
    {
        std::ofstream out(path);
        out << "# job 4191701, lost a node overnight\n"
               "JobID|JobName|State|Start|End|NodeList|ExitCode\n"
               "4191701|pretrain|NODE_FAIL|2024-03-02T01:00:00|2024-03-02T06:10:00|gpu-a17|0:0\n";
    }
    const ImportResult r = importPaths({path});
    EXPECT_EQ(r.summary.files.at(0).format, "sacct");
    ASSERT_EQ(r.run.jobs.size(), 1u);
    EXPECT_EQ(r.run.jobs[0].state, "NODE_FAIL");
    ASSERT_EQ(r.run.failures.size(), 1u) << importSummaryToText(r.summary);
    EXPECT_EQ(r.run.failures[0].cause, RootCause::HostMaintenance);
}

TEST(Sacct, StepOnlyCapturesStandForTheirJob) {
    FAULTLINE_REQUIRE_REALDATA();
    // gcm's full-field sample holds 68 lines, all of step 8012944_24093.0 (COMPLETED).
    const ImportResult r = importPaths({realData(kGcm + "sample-sacct-output.txt")});
    const FileReport& f = r.summary.files.at(0);
    EXPECT_EQ(f.skippedLines, 0);
    EXPECT_EQ(f.counts.at("jobs"), 1);
    EXPECT_EQ(f.counts.count("failures"), 0u);
    EXPECT_EQ(f.first, at("2020-11-16T11:59:11Z"));
    EXPECT_EQ(f.last, at("2020-11-16T11:59:59Z"));
}

TEST(Sacct, ShortLineIsReportedWithItsLineNumberAndSkipped) {
    FAULTLINE_REQUIRE_REALDATA();
    const ImportResult r = importPaths({realData(kGcm + "sample-sacct-output-with-invalid-lines.txt")});
    const FileReport& f = r.summary.files.at(0);
    EXPECT_EQ(f.skippedLines, 1);
    ASSERT_EQ(f.warnings.size(), 1u);
    EXPECT_NE(f.warnings[0].find("sample-sacct-output-with-invalid-lines.txt:2: expected 109 fields separated by \"|\", found 93"),
              std::string::npos)
        << f.warnings[0];
}

TEST(Sacct, MultiCharacterDelimiterAndMultilineRecords) {
    FAULTLINE_REQUIRE_REALDATA();
    // "|#"-delimited; job 201844's Comment spans lines. gcm's expected parse has 3 jobs.
    for (const char* name : {"sample-sacct-one-multiline.txt", "sample-sacct-multiple-multiline.txt"}) {
        const ImportResult r = importPaths({realData(kGcm + name)});
        const FileReport& f = r.summary.files.at(0);
        EXPECT_EQ(f.format, "sacct") << name;
        EXPECT_EQ(f.skippedLines, 0) << name << ": " << (f.warnings.empty() ? "" : f.warnings[0]);
        EXPECT_EQ(f.counts.at("jobs"), 3) << name;
        EXPECT_EQ(f.counts.at("jobs FAILED"), 1) << name;
        EXPECT_EQ(f.counts.at("jobs REQUEUED"), 1) << name;
        EXPECT_EQ(f.counts.at("jobs CANCELLED"), 1) << name;  // job 200131, known only by its step .0
        bool found = false;
        for (const Failure& x : r.run.failures) {
            if (x.detail.find("201844") == std::string::npos) continue;
            found = true;
            EXPECT_EQ(r.run.info.startEpochNs + x.time, at("2023-01-16T07:31:52Z")) << name;
            EXPECT_EQ(x.gpus.size(), 32u * 8u) << name;  // node[1001-1002,1073-1074,1129-1131,1136-1139,1155,1482-1494,1532-1538]
        }
        EXPECT_TRUE(found) << name;
    }
    const ImportResult running = importPaths({realData(kGcm + "sample-sacct-running-output.txt")});
    EXPECT_EQ(running.summary.files[0].counts.at("jobs"), 1);
    EXPECT_TRUE(running.run.failures.empty());
    EXPECT_TRUE(running.run.topology.findHost("learnnode0423"));
}

TEST(Sacct, InvalidUtf8DoesNotStopTheImport) {
    FAULTLINE_REQUIRE_REALDATA();
    const ImportResult r = importPaths({realData(kGcm + "sample-sacct-output-invalid-utf8.txt")});
    const FileReport& f = r.summary.files.at(0);
    EXPECT_EQ(f.counts.at("jobs"), 3);
    EXPECT_EQ(f.counts.at("jobs FAILED"), 2);
    EXPECT_EQ(f.counts.at("jobs TIMEOUT"), 1);
}

TEST(Sacct, SnowmanDelimiterAndNodeFailTakesOutBothHosts) {
    const ImportResult r = importPaths({fixture("sacct_snowman.txt")});
    const FileReport& f = r.summary.files.at(0);
    EXPECT_EQ(f.counts.at("jobs"), 2);
    EXPECT_EQ(f.counts.at("jobs NODE_FAIL"), 1);
    ASSERT_EQ(r.run.failures.size(), 1u);
    const Failure& x = r.run.failures[0];
    EXPECT_EQ(r.run.info.startEpochNs + x.time, at("2021-07-14T15:01:15Z"));
    EXPECT_EQ(x.component.kind, ComponentKind::Host);
    EXPECT_EQ(x.gpus.size(), 16u);  // two derived hosts of 8 GPUs
    EXPECT_EQ(r.run.topology.hosts.size(), 3u);
    EXPECT_TRUE(r.run.topology.findHost("mycluster2-node206"));
}

TEST(Sacct, HeaderlessOutputWithTheFieldListGiven) {
    FAULTLINE_REQUIRE_REALDATA();
    // slurm-jobinfo's capture: --parsable --noheader --delimiter=☃, columns as its README lists.
    ImportOptions options;
    options.format = "sacct";
    options.sacctFields =
        "JobID,JobName,User,Partition,NodeList,NNodes,ncpus,NTasks,State,Submit,start,end,timelimit,elapsed,TotalCPU,UserCPU,"
        "SystemCPU,ReqMem,MaxRSS,TRESUsageInTot,TRESUsageOutTot,MaxDiskWrite,MaxDiskRead,MaxRSSNode,MaxDiskWriteNode,MaxDiskReadNode,Comment";
    const ImportResult r = importPaths({realData("slurm/slurm-jobinfo/test/data/sacct.txt")}, options);
    const FileReport& f = r.summary.files.at(0);
    EXPECT_EQ(f.skippedLines, 0);
    EXPECT_EQ(f.counts.at("jobs"), 20);
    EXPECT_EQ(f.counts.at("jobs FAILED"), 1);
    ASSERT_EQ(r.run.failures.size(), 1u);
    EXPECT_NE(r.run.failures[0].detail.find("20940996"), std::string::npos);
    EXPECT_EQ(r.run.info.startEpochNs + r.run.failures[0].time, at("2021-07-14T15:01:15Z"));
    EXPECT_EQ(r.run.topology.gpuName(r.run.failures[0].gpus.at(0)), "mycluster2-node205-gpu0");
    // Without the field list the file is still told as sacct by its rows, and the message says
    // which --sacct-fields would read it; that list does (the jobs, their failure and its time).
    const std::string msg = test::errorOf([&] { importPaths({realData("slurm/slurm-jobinfo/test/data/sacct.txt")}); });
    const std::string list = "JobID,-,-,-,-,-,-,-,State,Submit,Start,End,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-";
    EXPECT_NE(msg.find("sacct.txt:1: no header line (sacct --noheader): its 27 columns separated by \"\xe2\x98\x83\" hold a job id first and a state "
                       "in column 9, but the others cannot be named; give the list passed to sacct --format, e.g. --sacct-fields " + list),
              std::string::npos)
        << msg;
    ImportOptions suggested;
    suggested.sacctFields = list;
    const ImportResult s = importPaths({realData("slurm/slurm-jobinfo/test/data/sacct.txt")}, suggested);
    EXPECT_EQ(s.summary.files.at(0).counts.at("jobs"), 20);
    ASSERT_EQ(s.run.failures.size(), 1u);
    EXPECT_EQ(s.run.info.startEpochNs + s.run.failures[0].time, at("2021-07-14T15:01:15Z"));
}

// Plain sacct's fixed-width columns (names cut with "+") are refused saying how to write it.
TEST(Sacct, FixedWidthOutputIsRefusedSayingHowToWriteIt) {
    FAULTLINE_REQUIRE_REALDATA();
    const std::string msg = test::errorOf([&] { importPaths({realData("slurm/ood-sacct-3944216/sacct.txt")}); });
    EXPECT_NE(msg.find("sacct.txt:1: fixed-width sacct output (as plain sacct prints it, long values cut with \"+\") is not read: write it with "
                       "sacct --parsable2 (-P) or --json"),
              std::string::npos)
        << msg;
}

// sacct --delimiter takes any string: with a header, the delimiter is what separates its known
// column names; without one, the rows' shape says it (a job id first, a state column), and
// --sacct-fields names the columns. The same jobs, whatever the delimiter.
TEST(Sacct, AnyDelimiterWithOrWithoutAHeader) {
    const test::ScratchDir dir;
    const std::vector<std::string> header = {"JobID", "JobName", "State", "ExitCode", "Start", "End", "NodeList"};
    const std::vector<std::vector<std::string>> rows = {
        {"4411", "train", "FAILED", "1:0", "2024-06-01T08:00:00", "2024-06-01T10:00:00", "gpu01"},
        {"4411.batch", "batch", "FAILED", "1:0", "2024-06-01T08:00:00", "2024-06-01T10:00:00", "gpu01"},
        {"4412", "eval", "COMPLETED", "0:0", "2024-06-01T10:05:00", "2024-06-01T10:30:00", "gpu02"},
    };
    const auto line = [](const std::vector<std::string>& fields, const std::string& delim) {
        std::string out;
        for (const std::string& f : fields) out += (out.empty() ? "" : delim) + f;
        return out + "\n";
    };
    int n = 0;
    for (const std::string delim : {"|", ";", ",", "\t", "::", "\xe2\x86\x92" /* → */, "|#", "\xe2\x98\x83" /* ☃ */, " | "}) {
        for (const bool withHeader : {true, false}) {
            const std::string path = dir.file("sacct" + std::to_string(n++) + ".txt");
            {
                std::ofstream out(path, std::ios::binary);
                if (withHeader) out << line(header, delim);
                for (const auto& r : rows) out << line(r, delim);
            }
            const std::string what = "delimiter \"" + delim + "\"" + (withHeader ? " with a header" : " without a header");
            if (!withHeader) {
                const std::string msg = test::errorOf([&] { importPaths({path}); });
                EXPECT_NE(msg.find("--sacct-fields JobID,-,State,ExitCode,Start,End,-"), std::string::npos) << what << ": " << msg;
            }
            ImportOptions options;
            if (!withHeader) options.sacctFields = "JobID,JobName,State,ExitCode,Start,End,NodeList";
            const ImportResult r = importPaths({path}, options);
            const FileReport& f = r.summary.files.at(0);
            EXPECT_EQ(f.format, "sacct") << what;
            EXPECT_EQ(f.skippedLines, 0) << what;
            EXPECT_EQ(f.counts.at("jobs"), 2) << what;
            ASSERT_EQ(r.run.failures.size(), 1u) << what;
            EXPECT_EQ(r.run.info.startEpochNs + r.run.failures[0].time, at("2024-06-01T10:00:00Z")) << what;
            EXPECT_TRUE(r.run.topology.findHost("gpu01")) << what;
            EXPECT_TRUE(r.run.topology.findHost("gpu02")) << what;
        }
    }
}

// `sacct -n -P` with sacct's default fields: a job id first, a state sixth, an exit code
// seventh is their shape; read with those fields, and the report says so.
TEST(Sacct, HeaderlessDefaultFieldsAreReadAndSaidSo) {
    const ImportResult r = importPaths({fixture("sacct_noheader_default.txt")});
    const FileReport& f = r.summary.files.at(0);
    EXPECT_EQ(f.format, "sacct");
    EXPECT_EQ(f.skippedLines, 0);
    EXPECT_EQ(f.counts.at("jobs"), 3);
    EXPECT_EQ(f.counts.at("jobs FAILED"), 1);
    EXPECT_EQ(f.counts.at("jobs TIMEOUT"), 1);
    EXPECT_TRUE(std::any_of(f.notes.begin(), f.notes.end(), [](const std::string& n) {
        return n.find(":1: no header line; its 7 columns, separated by \"|\", read as sacct's default fields "
                      "JobID,JobName,Partition,Account,AllocCPUS,State,ExitCode") != std::string::npos;
    }));
}

TEST(Sacct, FakeLineBreakIsOneRecord) {
    FAULTLINE_REQUIRE_REALDATA();
    const ImportResult r = importPaths({realData(kGcm + "sample-sacct-fake-line-break.txt")});
    const FileReport& f = r.summary.files.at(0);
    EXPECT_EQ(f.skippedLines, 0);
    EXPECT_EQ(f.counts.at("jobs"), 3);
}

TEST(SacctJson, ReadsTheThreeSlurmVersions) {
    FAULTLINE_REQUIRE_REALDATA();
    struct Case {
        const char* file;
        const char* state;
        const char* end;
        std::size_t nodes;
    };
    for (const Case& c : {Case{"slurm_21_8_8.json", "REQUEUED", "2023-01-10T16:49:46Z", 1},
                          Case{"slurm_22_5_9.json", "FAILED", "2023-09-04T22:04:04Z", 4}}) {
        const ImportResult r = importPaths({realData(kSarc + c.file)});
        const FileReport& f = r.summary.files.at(0);
        EXPECT_EQ(f.format, "sacct-json") << c.file;
        EXPECT_EQ(f.counts.at("jobs"), 1) << c.file;
        EXPECT_EQ(f.counts.at(std::string("jobs ") + c.state), 1) << c.file;
        ASSERT_EQ(r.run.failures.size(), 1u) << c.file;
        EXPECT_EQ(r.run.info.startEpochNs + r.run.failures[0].time, at(c.end)) << c.file;
        EXPECT_EQ(r.run.failures[0].gpus.size(), c.nodes * 8) << c.file;
    }
    // 22.05: "ng[30103,30203,30706-30707]"
    const ImportResult r22 = importPaths({realData(kSarc + "slurm_22_5_9.json")});
    EXPECT_TRUE(r22.run.topology.findHost("ng30707"));
    // 23.02 (time.limit is an object there): job 4 on mila02 is still RUNNING.
    const ImportResult r23 = importPaths({realData(kSarc + "slurm_23_2_6.json")});
    EXPECT_EQ(r23.summary.files[0].counts.at("jobs"), 1);
    EXPECT_TRUE(r23.run.failures.empty());
    EXPECT_EQ(r23.run.info.startEpochNs, 1613725209LL * 1'000'000'000);
    EXPECT_TRUE(r23.run.topology.findHost("mila02"));
}

TEST(HostList, ExpandsRangesKeepingPadding) {
    EXPECT_EQ(expandHostList("node[01-03,20]"), (std::vector<std::string>{"node01", "node02", "node03", "node20"}));
    EXPECT_EQ(expandHostList("ng[30103,30706-30707],login1"), (std::vector<std::string>{"ng30103", "ng30706", "ng30707", "login1"}));
    EXPECT_EQ(expandHostList("r[1-2]n[1-2]"), (std::vector<std::string>{"r1n1", "r1n2", "r2n1", "r2n2"}));
    EXPECT_NE(test::errorOf([] { expandHostList("node[01-03"); }).find("without ']'"), std::string::npos);
    EXPECT_NE(test::errorOf([] { expandHostList("node[5-1]"); }).find("\"5-1\""), std::string::npos);
    EXPECT_TRUE(naturalLess("node2", "node10"));
    EXPECT_FALSE(naturalLess("node10", "node2"));
}

}  // namespace
}  // namespace faultline
