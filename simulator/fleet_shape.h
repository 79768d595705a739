#pragma once
// The shape of a fleet (the fleet-350k preset, docs/fabric-presets.md): buildings of data
// halls, one cluster per hall with its own fabric and size, the pre-training job on one of
// them and a mix of other jobs scheduled over the rest.
#include "model/fat_tree.h"
#include "model/topology.h"

#include <string>
#include <vector>

namespace faultline {

struct FleetClusterShape {
    std::string name;
    std::string hall;
    std::string building;
    FabricKind fabric = FabricKind::RoceClos;
    int gpus = 0;
};

// One kind of job of the mix: its size and how long it runs.
struct FleetJobKind {
    std::string name;           // the job's name in sacct: "finetune"
    int gpus = 8;
    double weight = 1.0;        // share of the jobs started
    double medianHours = 6.0;   // log-normal run time
};

struct FleetShape {
    std::vector<FleetClusterShape> clusters;  // empty: not a fleet
    int pretrainingCluster = 0;  // the cluster whose first hosts the pre-training job holds
    int pretrainingGpus = 16'384;
    std::vector<FleetJobKind> jobMix;
    double warmUpDays = 14.0;    // scheduled before the run's start, so it opens on a busy fleet
    double idleMedianMinutes = 30.0;  // between one job's end and the next start on its hosts
};

// The fleet-350k shape: five buildings, eleven halls, RoCE and InfiniBand clusters of 8,192
// to 65,536 GPUs (352,256 in all).
FleetShape fleet350kShape();

// The fleet's topology: each cluster built as its own fabric (buildFabric or buildFatTree),
// names prefixed with the cluster's, zones and switches marked with their cluster.
Topology buildFleetTopology(const FleetShape& shape);
// One cluster's fabric on its own, unprefixed, for `gpus` of it (the pre-training job's part).
Topology buildClusterFabric(const FleetClusterShape& cluster, int gpus);
// What the cluster's names start with in the fleet: "a1-" for "a1-roce-24k".
std::string fleetNamePrefix(const FleetClusterShape& cluster);

}  // namespace faultline
