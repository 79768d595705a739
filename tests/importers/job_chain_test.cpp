// importers/job_chain.h on its own, over events built by hand: which jobs trained the run,
// and each downtime between them, its cause from the evidence on the job's nodes, and how
// long detection, restart and reload took.
#include "import_test_util.h"

#include "importers/events/import_report.h"
#include "importers/job_chain.h"

namespace faultline {
namespace {

using test::errorOf;

constexpr EpochNs kT0 = 1'704'067'200'000'000'000;  // 2024-01-01T00:00:00Z

EpochNs afterT0(Nanos since) { return kT0 + since; }

ImportedJob sacctJob(std::string id, std::string name, EpochNs start, EpochNs end, std::string state) {
    ImportedJob j;
    j.id = std::move(id);
    j.name = std::move(name);
    j.start = start;
    j.submit = start - kMinute;
    j.end = end;
    j.state = j.stateText = std::move(state);
    return j;
}

ImportedJob logJob(std::string id, std::string name, EpochNs firstLine) {
    ImportedJob j;
    j.id = std::move(id);
    j.name = std::move(name);
    j.fromLog = true;
    j.firstLogLine = firstLine;
    return j;
}

void addSteps(ImportedEvents& e, EpochNs from, EpochNs to) {
    for (EpochNs t = from; t <= to; t += 10 * kMinute) e.steps.push_back({0, static_cast<std::int64_t>(e.steps.size()), t, 10 * kMinute});
}

// Job 100 died under a GPU fault on one of its nodes; job 101, submitted under the same name,
// loaded the last checkpoint and trained on.
ImportedEvents gpuFaultAndRestart() {
    ImportedEvents e;
    ImportedJob first = sacctJob("100", "llama", afterT0(0), afterT0(10 * kHour), "NODE_FAIL");
    first.nodes = {"n1", "n2"};
    ImportedJob second = sacctJob("101", "llama", afterT0(10 * kHour + 5 * kMinute), afterT0(20 * kHour), "COMPLETED");
    second.nodes = {"n1", "n3"};
    e.jobs = {second, first, logJob("100", "llama", afterT0(kMinute)), logJob("101", "llama", afterT0(10 * kHour + 8 * kMinute))};
    addSteps(e, afterT0(20 * kMinute), afterT0(9 * kHour + 50 * kMinute));
    addSteps(e, afterT0(10 * kHour + 20 * kMinute), afterT0(19 * kHour));
    e.checkpoints.push_back({afterT0(9 * kHour + 29 * kMinute), afterT0(9 * kHour + 30 * kMinute), 0, CheckpointKind::Save, 0});
    e.checkpoints.push_back({afterT0(10 * kHour + 9 * kMinute), afterT0(10 * kHour + 12 * kMinute), 0, CheckpointKind::Load, 0});
    ImportedFailure elsewhere;  // a node the job did not run on
    elsewhere.time = afterT0(9 * kHour + 54 * kMinute);
    elsewhere.cause = RootCause::FaultyGpu;
    elsewhere.where.host = "n9";
    elsewhere.detail = "Xid 79 on n9";
    ImportedFailure xid = elsewhere;
    xid.time = afterT0(9 * kHour + 55 * kMinute);
    xid.where.host = "n2";
    xid.detail = "Xid 79";
    xid.source = "n2.dmesg:5";
    e.failures = {elsewhere, xid};
    return e;
}

TEST(JobChain, AJobEndedByAFaultOnItsNodeAndItsSuccessorMakeOneDowntime) {
    const ImportedEvents e = gpuFaultAndRestart();
    std::vector<std::string> warnings;
    const JobChain c = findJobChain(e, {}, warnings);
    EXPECT_TRUE(warnings.empty()) << warnings.front();
    // sacct's two jobs, each with its log's first line: the log records are merged into them.
    ASSERT_EQ(c.jobs.size(), 2u);
    ASSERT_EQ(c.chain, (std::vector<std::size_t>{0, 1}));
    EXPECT_EQ(c.runJobs, c.chain);
    EXPECT_EQ(c.jobs[0].id, "100");
    EXPECT_EQ(c.jobs[0].firstLogLine, afterT0(kMinute));
    EXPECT_EQ(c.jobs[1].id, "101");
    EXPECT_EQ(c.jobs[1].firstLogLine, afterT0(10 * kHour + 8 * kMinute));

    // The last job completed: the run ended there, no downtime after it.
    ASSERT_EQ(c.downtimes.size(), 1u);
    const ChainDowntime& d = c.downtimes[0];
    EXPECT_EQ(d.endedJob, 0u);
    EXPECT_EQ(d.cause, RootCause::FaultyGpu);
    EXPECT_FALSE(d.planned);
    EXPECT_EQ(d.evidence, 1) << "the fault on the job's own node, not the one on n9";
    EXPECT_EQ(d.begin, afterT0(9 * kHour + 55 * kMinute)) << "the fault, after the last step";
    EXPECT_EQ(d.detected, afterT0(10 * kHour)) << "the scheduler's end";
    EXPECT_EQ(d.restarted, afterT0(10 * kHour + 8 * kMinute)) << "the next job's first line";
    EXPECT_EQ(d.end, afterT0(10 * kHour + 12 * kMinute)) << "the checkpoint loaded";
    EXPECT_EQ(d.lostWork, 25 * kMinute) << "since the last save";
    EXPECT_NE(d.detail.find("Xid 79 [n2.dmesg:5]"), std::string::npos) << d.detail;
    EXPECT_NE(d.detail.find("Slurm job 100 \"llama\" ended NODE_FAIL at " + formatEpochNs(afterT0(10 * kHour))), std::string::npos) << d.detail;
    EXPECT_EQ(c.explained, (std::vector<char>{0, 1}));
}

TEST(JobChain, JobsThatRanSideBySideAreNoDowntimeAndTheWarningSaysHowToNameTheRun) {
    ImportedEvents e;
    e.jobs = {sacctJob("1", "sweep", afterT0(0), afterT0(2 * kHour), "COMPLETED"), sacctJob("2", "sweep", afterT0(kHour), afterT0(3 * kHour), "COMPLETED"),
              logJob("1", "sweep", afterT0(kMinute)), logJob("2", "sweep", afterT0(kHour + kMinute))};
    std::vector<std::string> warnings;
    const JobChain c = findJobChain(e, {}, warnings);
    EXPECT_EQ(c.chain.size(), 2u);
    EXPECT_TRUE(c.downtimes.empty());
    ASSERT_EQ(warnings.size(), 2u);
    EXPECT_EQ(warnings[0], "job 1 \"sweep\" and job 2 \"sweep\" ran at the same time: no downtime between them (name the run's own jobs with --job)");
    EXPECT_EQ(warnings[1], "no training log shows progress: downtimes run from each job's end, and no work is counted as lost");
}

TEST(JobChain, JobIdsSelectTheirArrayTasksAndAScheduledStopIsPlanned) {
    ImportedEvents e;
    e.jobs = {sacctJob("7_1", "a", afterT0(0), afterT0(kHour), "TIMEOUT"), sacctJob("7_2", "b", afterT0(kHour + kMinute), afterT0(2 * kHour), "COMPLETED"),
              sacctJob("8", "a", afterT0(3 * kHour), afterT0(4 * kHour), "COMPLETED")};
    std::vector<std::string> warnings;
    const JobChain c = findJobChain(e, {{"7"}, ""}, warnings);
    ASSERT_EQ(c.chain.size(), 2u);
    EXPECT_EQ(c.jobs[c.chain[0]].id, "7_1");
    EXPECT_EQ(c.jobs[c.chain[1]].id, "7_2");
    ASSERT_EQ(c.downtimes.size(), 1u);
    EXPECT_TRUE(c.downtimes[0].planned);
    EXPECT_EQ(c.downtimes[0].cause, RootCause::PlannedMaintenance);
    EXPECT_EQ(c.downtimes[0].lostWork, 0);
    EXPECT_EQ(c.downtimes[0].evidence, -1);
}

TEST(JobChain, ANamedJobThatIsNotThereIsAnError) {
    ImportedEvents e;
    e.jobs = {sacctJob("1", "x", afterT0(0), afterT0(kHour), "COMPLETED")};
    std::vector<std::string> warnings;
    EXPECT_EQ(errorOf([&] { findJobChain(e, {{"999"}, ""}, warnings); }), "no job in the files is --job 999 (or none of them started)");
    EXPECT_EQ(errorOf([&] { findJobChain(e, {{}, "y"}, warnings); }), "no job in the files is named \"y\" (or none of them started)");
}

TEST(JobChain, ALoneLogIsTheRunsJobButNoChain) {
    ImportedEvents e;
    e.jobs = {logJob("55", "solo", afterT0(kMinute))};
    addSteps(e, afterT0(10 * kMinute), afterT0(kHour));
    std::vector<std::string> warnings;
    const JobChain c = findJobChain(e, {}, warnings);
    EXPECT_TRUE(c.chain.empty());
    EXPECT_TRUE(c.downtimes.empty());
    ASSERT_EQ(c.runJobs.size(), 1u);
    EXPECT_EQ(c.jobs[c.runJobs[0]].id, "55");
    EXPECT_EQ(c.jobs[c.runJobs[0]].start, afterT0(kMinute)) << "a job only a log names starts at its first line";
}

TEST(JobChain, DuplicateRecordsAreOneJobStepsFollowTheirJobAndADependentJobContinuesTheRun) {
    ImportedEvents e;
    ImportedJob job = sacctJob("300", "train", afterT0(0), afterT0(kHour), "FAILED");
    job.exitCode = "1:0";
    ImportedJob step = sacctJob("300.0", "python", afterT0(kMinute), afterT0(kHour), "FAILED");
    step.parentId = "300";
    ImportedJob next = sacctJob("301", "eval-and-resume", afterT0(kHour + 2 * kMinute), afterT0(2 * kHour), "COMPLETED");
    next.dependsOn = {"300"};
    // sacct's text and JSON of the same job, imported together.
    e.jobs = {next, step, job, job, logJob("300", "train", afterT0(2 * kMinute))};
    std::vector<std::string> warnings;
    const JobChain c = findJobChain(e, {}, warnings);
    ASSERT_EQ(c.jobs.size(), 3u);
    EXPECT_EQ(c.jobs[0].id, "300");
    EXPECT_EQ(c.jobs[1].id, "300.0") << "a step right after its job";
    EXPECT_EQ(c.jobs[2].id, "301");
    ASSERT_EQ(c.chain, (std::vector<std::size_t>{0, 2})) << "301 waited for 300: it continues the run whatever its name";
    ASSERT_EQ(c.downtimes.size(), 1u);
    EXPECT_EQ(c.downtimes[0].cause, RootCause::SoftwareBug) << "a non-zero exit, no other evidence";
    EXPECT_NE(c.downtimes[0].detail.find("ended FAILED, exit code 1:0"), std::string::npos) << c.downtimes[0].detail;
    EXPECT_NE(c.downtimes[0].detail.find("no kernel log or training log line around the job's end names a cause"), std::string::npos)
        << c.downtimes[0].detail;
}

}  // namespace
}  // namespace faultline
