#pragma once
// An InfiniBand fat tree as NVIDIA's DGX SuperPOD reference architecture lays one out:
// scalable units of 32 hosts, one leaf per rail in each unit (leaf r serves NIC r of every
// host in the unit), pods of leaves joined by spines, and a core tier joining the pods when
// there is more than one. Every switch keeps as many ports up as down: non-blocking.
// docs/fabric-presets.md says why this shape stands for Meta's 24,576-GPU InfiniBand cluster.
#include "topology.h"

namespace faultline {

struct FatTreeShape {
    int gpus = 24'576;
    int gpusPerHost = 8;     // one NIC (one rail) per GPU
    int hostsPerRack = 2;    // the same halls and racks as the RoCE cluster
    int racksPerRow = 16;
    int hostsPerUnit = 32;   // a scalable unit: each of its leaves has 32 hosts below
    int unitsPerPod = 4;     // 4 units x 8 rails = 32 leaves below each spine
    int switchPorts = 64;    // NVIDIA Quantum-2 QM9700: 64 ports of 400 Gb/s NDR
};

// Leaves are SwitchTier::Rack with rack -1 and their rail set, spines SwitchTier::Cluster
// (zone = pod), cores SwitchTier::Aggregation. Throws Error when a tier would need more
// ports than a switch has, or the GPUs do not fill whole units.
Topology buildFatTree(const FatTreeShape& shape);

}  // namespace faultline
