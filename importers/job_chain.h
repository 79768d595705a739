#pragma once
// The chain of scheduler jobs that trained one run (a job, its requeues, the jobs submitted to
// continue it) and the downtime each gap between them was: why the job ended, from the
// evidence around its end, and how long each part of the recovery took, from the training
// logs' last progress, the job's end and the next job's first sign of life and checkpoint load.
#include "importers/events/imported_events.h"

#include <optional>
#include <string>
#include <vector>

namespace faultline {

struct JobSelection {
    std::vector<std::string> ids;  // --job: these jobs (every run of each, array tasks "123_4" by "123" too)
    std::string name;              // --job-name: every job of this name
};

// One interruption between two jobs of the chain, in epoch time.
struct ChainDowntime {
    EpochNs begin = 0, detected = 0, restarted = 0, end = 0;
    Nanos lostWork = 0;
    bool planned = false;
    RootCause cause = RootCause::Unknown;
    std::int32_t evidence = -1;  // index into events.failures of the first symptom; -1 when none
    std::size_t endedJob = 0;    // index into JobChain::jobs
    std::string detail;          // the evidence, the scheduler's word, and what is missing
};

struct JobChain {
    // sacct's jobs with what the training logs add (first sign of life), plus jobs only a log
    // names; steps follow their job.
    std::vector<ImportedJob> jobs;
    std::vector<std::size_t> chain;  // indices into `jobs`, in start order; empty: no run chain
    // The jobs that trained the run: the chain's, or the one job a lone training log is the
    // stdout of (no chain to follow, but still the run's job).
    std::vector<std::size_t> runJobs;
    std::vector<ChainDowntime> downtimes;
    // Per events.failures: true where it is part of the chain's story (evidence of a downtime,
    // or the end state of a job); with a chain, the others stopped no job of the run.
    std::vector<char> explained;
};

JobChain findJobChain(const ImportedEvents& events, const JobSelection& selection, std::vector<std::string>& warnings);

}  // namespace faultline
