// Jobs and the downtimes between them, from real sacct output, kernel logs and training
// logs (../shared/realdata), paired with job records written for the tests where a real
// file has none.
#include "import_test_util.h"

#include "analysis/incidents.h"
#include "analysis/summary.h"
#include "importers/slurm/slurm_job.h"
#include "importers/text/text_parse.h"

#include <algorithm>

namespace faultline {
namespace {

using test::kGpudMemoryLog;
using test::at;
using test::fixture;
using test::importPaths;
using test::realData;

const Job* findJob(const faultline::Run& run, const std::string& id, int restarts = 0) {
    for (const Job& j : run.jobs)
        if (j.id == id && j.restarts == restarts) return &j;
    return nullptr;
}

std::string chainText(const Incident& inc) {
    std::string out;
    for (const IncidentEvent& e : inc.chain) out += e.what + "\n";
    return out;
}

constexpr const char* kBigScienceLog = "training_logs/bigscience/experiments/gpt2-meg/meg_gpt2_base_n8_dp1_tp4_pp8-1809562.out";

// The Megatron log names its job when slurmstepd cancels it; sacct names the job that
// continued it. The gap between them is a planned stop, measured from the log's last step.
TEST(Jobs, MegatronLogAndItsSacctRecordsMakeAChainWithAPlannedStop) {
    FAULTLINE_REQUIRE_REALDATA();
    const ImportResult r = importPaths({realData(kBigScienceLog), fixture("jobs/bigscience-1809562.sacct.txt")});
    const faultline::Run& run = r.run;
    const EpochNs start = run.info.startEpochNs;

    ASSERT_EQ(run.jobs.size(), 5u);  // two jobs, each followed by its steps (three in all)
    const Job* first = findJob(run, "1809562");
    ASSERT_NE(first, nullptr);
    EXPECT_TRUE(first->inRun);
    EXPECT_EQ(first->name, "meg_gpt2");
    EXPECT_EQ(first->state, "CANCELLED");
    EXPECT_EQ(first->exitCode, "0:15");
    EXPECT_EQ(first->gpus, 32);
    EXPECT_EQ(first->hosts.size(), 8u);
    EXPECT_EQ(start + *first->end, at("2021-05-23T08:29:53Z"));
    const Job* step = findJob(run, "1809562.0");
    ASSERT_NE(step, nullptr);
    EXPECT_EQ(&run.jobs[static_cast<std::size_t>(step->parent)], first);

    // "using world size: 32, ..., tensor-model-parallel size: 4, pipeline-model-parallel size: 8"
    // on 8 nodes: 4 ranks a node, on the job's own nodes.
    EXPECT_EQ(run.topology.gpus.size(), 32u);
    EXPECT_EQ(run.topology.hosts.size(), 8u);
    ASSERT_EQ(run.rankToGpu.size(), 32u);
    EXPECT_EQ(run.topology.hosts[static_cast<std::size_t>(run.topology.gpus[static_cast<std::size_t>(run.rankToGpu[31])].host)].name, "r6i5n8");

    ASSERT_EQ(run.downtimes.size(), 1u);
    const Downtime& d = run.downtimes[0];
    EXPECT_TRUE(d.planned);
    EXPECT_EQ(start + d.begin, 1621758578446000000LL);  // iteration 200, the log's last progress
    EXPECT_EQ(start + d.detected, at("2021-05-23T08:29:53Z"));
    EXPECT_EQ(start + d.restarted, at("2021-05-23T08:41:12Z"));  // the next job has no log: its start
    EXPECT_EQ(d.job, static_cast<std::int32_t>(first - run.jobs.data()));
    EXPECT_TRUE(run.failures.empty());  // the cancellation is the job's end, not a failure

    const RunSummary s = summarize(run);
    EXPECT_EQ(s.planned, 1);
    EXPECT_EQ(s.unexpected, 0);
    EXPECT_TRUE(s.ettrKnown);
}

// gpud's kernel log has an Xid 13 burst at 04:41:44; the job on that host failed a minute
// later. Its requeue after a node failure has no evidence: the incident says so.
TEST(Jobs, XidOnTheJobsNodeIsTheCauseAndMissingEvidenceIsSaid) {
    FAULTLINE_REQUIRE_REALDATA();
    ImportOptions options;
    options.host = "gpu-host-a";
    options.jobName = "llm-pretrain";
    const ImportResult r = importPaths({realData(kGpudMemoryLog), fixture("jobs/gpud-host-a.sacct.txt")}, options);
    const faultline::Run& run = r.run;
    const EpochNs start = run.info.startEpochNs;

    ASSERT_EQ(run.downtimes.size(), 2u);
    const Downtime& xid = run.downtimes[0];
    EXPECT_FALSE(xid.planned);
    EXPECT_EQ(xid.cause, RootCause::SoftwareBug);  // Xid 13: graphics engine exception
    EXPECT_EQ(start + xid.begin, at("2025-01-21T04:41:44.283302Z"));
    EXPECT_EQ(start + xid.detected, at("2025-01-21T04:42:31Z"));
    EXPECT_EQ(start + xid.restarted, at("2025-01-21T04:50:02Z"));
    ASSERT_GE(xid.failure, 0);
    const Failure& f = run.failures[static_cast<std::size_t>(xid.failure)];
    EXPECT_EQ(f.xid, 13);
    ASSERT_EQ(f.gpus.size(), 1u);
    EXPECT_EQ(run.topology.gpus[static_cast<std::size_t>(f.gpus[0])].pciBusId, "0000:38:00.0");

    const Downtime& node = run.downtimes[1];
    EXPECT_EQ(node.cause, RootCause::HostMaintenance);  // NODE_FAIL, and no kernel log says more
    const Job* requeued = findJob(run, "7002", 1);
    ASSERT_NE(requeued, nullptr);
    EXPECT_TRUE(requeued->inRun);
    EXPECT_EQ(start + node.restarted, start + *requeued->start);

    // Another user's job on another host is in the run file, but is no part of the run.
    const Job* other = findJob(run, "7050");
    ASSERT_NE(other, nullptr);
    EXPECT_FALSE(other->inRun);
    EXPECT_EQ(summarize(run).unexpected, 2);

    const auto incidents = buildIncidents(run);
    ASSERT_EQ(incidents.size(), 2u);
    const std::string first = chainText(incidents[0]);
    EXPECT_NE(first.find("Xid 13"), std::string::npos) << first;
    EXPECT_NE(first.find("no training log of job 7001"), std::string::npos) << first;
    EXPECT_NE(first.find("Slurm job 7001 (llm-pretrain) ended FAILED, exit code 1:0"), std::string::npos) << first;
    const std::string second = chainText(incidents[1]);
    EXPECT_NE(second.find("no kernel log or training log line around the job's end names a cause"), std::string::npos) << second;
    EXPECT_NE(second.find("NODE_FAIL"), std::string::npos) << second;
}

TEST(Jobs, UnknownJobIsAnErrorNamingIt) {
    FAULTLINE_REQUIRE_REALDATA();
    ImportOptions options;
    options.jobIds = {"999"};
    const std::string message = test::errorOf([&] { importPaths({fixture("jobs/gpud-host-a.sacct.txt")}, options); });
    EXPECT_EQ(message, "no job in the files is --job 999 (or none of them started)");
}

// sacct --json of three Slurm versions: exit code, GPUs, submit time and state per job.
TEST(Jobs, SacctJsonJobsKeepTheirDetails) {
    FAULTLINE_REQUIRE_REALDATA();
    const ImportResult r = importPaths({realData("slurm/SARC/tests/functional/jobs/sacct_outputs/slurm_22_5_9.json")});
    ASSERT_EQ(r.run.jobs.size(), 1u);
    const Job& j = r.run.jobs[0];
    EXPECT_EQ(j.id, "20247445");
    EXPECT_EQ(j.name, "roberta-encoder-with_scheduler");
    EXPECT_EQ(j.state, "FAILED");
    EXPECT_EQ(j.exitCode, "0:0");
    EXPECT_EQ(j.gpus, 16);
    EXPECT_EQ(j.hosts.size(), 4u);
    EXPECT_EQ(r.run.info.startEpochNs + *j.submit, 1692160813LL * 1'000'000'000);
    EXPECT_FALSE(j.inRun);  // no log and no --job: a cluster's accounting, not a run
}

// gcm's capture has REQUEUED jobs among hundreds of others; every job is kept with its state.
TEST(Jobs, SacctRequeuedJobsAreKept) {
    FAULTLINE_REQUIRE_REALDATA();
    const ImportResult r = importPaths({realData("slurm/gcm/gcm/tests/data/sample-sacct-output-midnight-edge-case.txt")});
    const auto requeued = std::count_if(r.run.jobs.begin(), r.run.jobs.end(), [](const Job& j) { return j.state == "REQUEUED"; });
    EXPECT_EQ(requeued, 2);
    const Job* j = findJob(r.run, "39326011");
    ASSERT_NE(j, nullptr);
    EXPECT_EQ(r.run.info.startEpochNs + *j->end, at("2021-04-07T23:57:36Z"));

    // Named with --job, the requeued job is the run; requeued with no next run in the
    // capture, the run ends there with no downtime.
    ImportOptions options;
    options.jobIds = {"39326011"};
    const ImportResult chain = importPaths({realData("slurm/gcm/gcm/tests/data/sample-sacct-output-midnight-edge-case.txt")}, options);
    EXPECT_TRUE(findJob(chain.run, "39326011")->inRun);
    EXPECT_TRUE(chain.run.downtimes.empty());
    EXPECT_TRUE(chain.run.failures.empty());  // the other jobs' ends are theirs, not the run's
}

// A log appended to across a requeue, with no sacct: the banners make the chain, the NCCL
// watchdog says why the first run ended, and the missing scheduler record is said.
TEST(Jobs, AppendedLogOfARequeueIsAChainOnItsOwn) {
    const ImportResult r = importPaths({fixture("jobs/appended-requeue.out")});
    const faultline::Run& run = r.run;
    const EpochNs start = run.info.startEpochNs;
    ASSERT_EQ(run.jobs.size(), 2u);
    EXPECT_EQ(run.jobs[1].restarts, 1);
    EXPECT_TRUE(run.jobs[0].inRun && run.jobs[1].inRun);
    ASSERT_EQ(run.downtimes.size(), 1u);
    const Downtime& d = run.downtimes[0];
    EXPECT_EQ(d.cause, RootCause::NcclWatchdogTimeout);
    EXPECT_EQ(start + d.begin, at("2025-06-10T03:00:50Z"));     // the last iteration
    EXPECT_EQ(start + d.detected, at("2025-06-10T03:10:51Z"));  // the watchdog, as no sacct says when it ended
    EXPECT_EQ(start + d.restarted, at("2025-06-10T03:14:00Z"));
    EXPECT_EQ(start + d.end, at("2025-06-10T03:15:10Z"));
    EXPECT_EQ(d.lostWork, 2 * kSecond);  // iteration 3, after the save of iteration 2
    ASSERT_GE(d.failure, 0);
    const Failure& f = run.failures[static_cast<std::size_t>(d.failure)];
    EXPECT_NE(f.detail.find("no scheduler record of job 91234"), std::string::npos) << f.detail;
    EXPECT_EQ(run.topology.gpuName(f.gpus.at(0)), "node02-gpu1");  // rank 9, 8 to a node
}

// The job that continued the BigScience run was submitted under another name to wait for it
// (sacct's SubmitLine: --dependency=afterany:1809562): it is the run's next job all the same;
// an unrelated job of the capture is not.
TEST(Jobs, DependentJobOfAnotherNameContinuesTheRun) {
    FAULTLINE_REQUIRE_REALDATA();
    const ImportResult r = importPaths({realData(kBigScienceLog), fixture("jobs/bigscience-dependency.sacct.txt")});
    const faultline::Run& run = r.run;
    const Job* resume = findJob(run, "1809701");
    ASSERT_NE(resume, nullptr);
    EXPECT_TRUE(resume->inRun);
    EXPECT_EQ(resume->name, "meg_gpt2_resume");
    EXPECT_FALSE(findJob(run, "1809702")->inRun);
    ASSERT_EQ(run.downtimes.size(), 1u);
    EXPECT_TRUE(run.downtimes[0].planned);
    EXPECT_EQ(run.info.startEpochNs + run.downtimes[0].restarted, at("2021-05-23T08:41:12Z"));
}

// sacct --json's submit_line: a retry submitted with "-d afternotok:" joins the job named with
// --job-name; the node failure that ended the first is the downtime's cause.
TEST(Jobs, SacctJsonDependencyJoinsTheNamedRun) {
    ImportOptions options;
    options.jobName = "llm-pretrain";
    const ImportResult r = importPaths({fixture("jobs/dependency-retry.sacct.json")}, options);
    const faultline::Run& run = r.run;
    ASSERT_NE(findJob(run, "500200"), nullptr);
    EXPECT_TRUE(findJob(run, "500100")->inRun);
    EXPECT_TRUE(findJob(run, "500200")->inRun);
    EXPECT_FALSE(findJob(run, "500300")->inRun);
    ASSERT_EQ(run.downtimes.size(), 1u);
    EXPECT_FALSE(run.downtimes[0].planned);
    EXPECT_EQ(run.info.startEpochNs + run.downtimes[0].detected, 1717210000LL * kSecond);
    EXPECT_EQ(run.info.startEpochNs + run.downtimes[0].restarted, 1717210600LL * kSecond);

    // Named exactly with --job, the run is that job alone.
    ImportOptions exact;
    exact.jobIds = {"500100"};
    const ImportResult only = importPaths({fixture("jobs/dependency-retry.sacct.json")}, exact);
    EXPECT_FALSE(findJob(only.run, "500200")->inRun);
}

TEST(Jobs, DependenciesAreReadFromSubmitLines) {
    using V = std::vector<std::string>;
    EXPECT_EQ(dependenciesInSubmitLine("sbatch --dependency=afterok:12:13,afterany:14+5 run.sh"), (V{"12", "13", "14"}));
    EXPECT_EQ(dependenciesInSubmitLine("sbatch -d afternotok:500100 train.sh"), (V{"500100"}));
    EXPECT_EQ(dependenciesInSubmitLine("sbatch -dafterok:7_3 train.sh"), (V{"7_3"}));
    EXPECT_EQ(dependenciesInSubmitLine("sbatch --dependency afterok:8?afterany:9 train.sh"), (V{"8", "9"}));
    EXPECT_TRUE(dependenciesInSubmitLine("sbatch --dependency=singleton train.sh").empty());
    EXPECT_TRUE(dependenciesInSubmitLine("sbatch --job-name=x -N 4 train.sh --data-dir /d").empty());
    EXPECT_TRUE(dependenciesInSubmitLine("").empty());
}

// The SubmitLine column of a real capture (gcm's, all fields) is read without harm: its jobs
// were submitted without dependencies.
TEST(Jobs, RealSubmitLinesWithoutDependencies) {
    FAULTLINE_REQUIRE_REALDATA();
    const ImportResult r = importPaths({realData("slurm/gcm/gcm/tests/data/sample-sacct-one-multiline.txt")});
    EXPECT_FALSE(r.run.jobs.empty());
    EXPECT_EQ(r.summary.files.at(0).skippedLines, 0);
}

// NVRx's ft_launcher restarted the workers inside job 66120 after an NCCL watchdog timeout (the
// other node's launcher joined the restart): one downtime of the run without any scheduler
// record, from the last iteration to the reload.
TEST(Jobs, InJobRestartByTheLauncherIsADowntime) {
    const ImportResult r = importPaths({fixture("ft_launcher_in_job_restart.log")});
    const faultline::Run& run = r.run;
    const EpochNs start = run.info.startEpochNs;
    EXPECT_EQ(r.summary.files.at(0).counts.at("in-job restarts"), 2);  // the failed node's launcher, and the other's
    ASSERT_EQ(run.downtimes.size(), 1u);                                // one restart
    const Downtime& d = run.downtimes[0];
    EXPECT_FALSE(d.planned);
    EXPECT_EQ(d.cause, RootCause::NcclWatchdogTimeout);
    EXPECT_EQ(start + d.begin, at("2025-08-04T09:00:51Z"));           // iteration 103, the last progress
    EXPECT_EQ(start + d.detected, at("2025-08-04T09:11:05.480Z"));    // the launcher's restart
    EXPECT_EQ(start + d.restarted, at("2025-08-04T09:11:05.480Z"));
    EXPECT_EQ(start + d.end, at("2025-08-04T09:13:10Z"));             // iteration 101 reloaded
    EXPECT_EQ(d.lostWork, 10 * kSecond);                               // since the save of iteration 101
    ASSERT_GE(d.failure, 0);
    const std::string detail = run.failures[static_cast<std::size_t>(d.failure)].detail;
    EXPECT_NE(detail.find("Worker group FAILED. 2/3 attempts left"), std::string::npos) << detail;
    const RunSummary s = summarize(run);
    EXPECT_EQ(s.unexpected, 1);
    // Minutes of log: the downtime is counted, but an ETTR of them would be no figure.
    EXPECT_EQ(s.ettrKnown, s.duration >= kShortestAccountedRun) << unknownFigureText(s.evidenceFor(SummaryFigure::Ettr));
}

}  // namespace
}  // namespace faultline
