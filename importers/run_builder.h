#pragma once
// Turns what the importers read into a Run: times become Nanos since the earliest event,
// host names / PCI bus ids / ranks become GPU indices, and (when no topology file was given)
// a plausible topology is derived from the hosts and ranks the files name.
#include "importers/events/imported_events.h"
#include "importers/job_chain.h"

#include "analysis/straggler_analysis.h"
#include "model/run.h"

#include <optional>
#include <string>
#include <vector>

namespace faultline {

struct BuildResult {
    Run run;
    StragglerReport stragglers;         // analyzeStragglers(run): its collectives' late ranks
    bool derivedTopology = false;
    std::vector<std::string> warnings;  // events that could not be placed, and why
    std::vector<std::string> notes;     // what the build guessed (hosts no file names)
};

// `topology` is the cluster when a topology file was given; events naming hosts it lacks
// are dropped with a warning. Without one, hosts get as many GPUs as the job's nodes hold (the
// launcher's nproc_per_node or SLURM_GPUS_ON_NODE, else 8; more if a file names a higher GPU
// index), two hosts to a rack, racks in rows of 16 and zones of 128 as in the built fabrics;
// ranks no file places get unplaced hosts of their own, as many ranks to a host ("unplaced
// ranks 0-7", model/topology.h), after the named hosts in a zone of their own, and a note says so.
// With a chain of jobs (named by `selection`, else by the training logs' banners), every
// gap between its jobs becomes a downtime, and the failures are the downtimes' symptoms.
// The Flight Recorder dumps are released once made the run's collectives (analyse the hang
// first): they are most of an import's memory.
BuildResult buildRun(ImportedEvents& events, const std::optional<Topology>& topology, const std::string& name,
                     const JobSelection& selection = {});

}  // namespace faultline
