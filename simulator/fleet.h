#pragma once
// A fleet simulated (the fleet-350k preset): the pre-training job, simulated as any run on
// the first hosts of its cluster, and a mix of other jobs scheduled over the rest of the
// fleet. Failures strike every GPU at the same rate; each ends the jobs holding its GPUs
// (Failure::jobs): the pre-training job's become its downtimes, the others' end and requeue
// those jobs. docs/fabric-presets.md describes the shape and the job mix.
#include "simulator.h"

namespace faultline {

Run simulateFleet(const SimulationParams& params);

}  // namespace faultline
