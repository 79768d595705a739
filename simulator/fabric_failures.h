#pragma once
// Fabric failures with rates of their own, per component-hour, for the presets that compare
// two fabrics (meta-24k-roce, meta-24k-ib). Each kind strikes one part of the fabric (a host
// cable, a switch-to-switch cable, a leaf, a spine, or the whole InfiniBand subnet) and either
// interrupts the job (it cuts GPUs off, or its collectives time out) or slows it (traffic is
// rerouted or paused and the GPUs below it straggle). docs/fabric-presets.md gives the
// source or the assumption behind every rate.
#include "random.h"
#include "model/run.h"

#include <vector>

namespace faultline {

enum class FabricPart : std::uint8_t {
    HostLink,     // NIC to leaf (RTSW) cable
    TrunkLink,    // leaf (RTSW) to spine (CTSW) cable
    LeafSwitch,   // RTSW or leaf
    SpineSwitch,  // CTSW or spine
    Subnet,       // the fabric as one: InfiniBand's subnet manager
};

enum class FabricEffect : std::uint8_t {
    Interruption,  // the job stops and restarts (NCCL errors or times out)
    Slowdown,      // straggler episodes on every GPU below the failed part
};

struct FabricFailureKind {
    const char* name;        // "link flap": opens the failure's detail or the straggler's cause
    FabricPart part;
    double perComponentHour;
    FabricEffect effect;
    double slowdown = 1.0;   // median step-time factor of a slowdown
    Nanos duration = 0;      // median length of a slowdown
};

// The kinds for a fabric: RoCE (link flaps, RTSW and CTSW failures, trunk optics, PFC storms,
// ECMP hash collisions) or InfiniBand (link flaps, optics on every cable, leaf and spine
// failures, subnet manager events). Empty for a generic tree.
std::vector<FabricFailureKind> fabricFailureKinds(FabricKind fabric);

// How many components of `part` the topology has (1 for the subnet).
std::size_t fabricPartCount(const Topology& t, FabricPart part);

struct FabricFailures {
    std::vector<Failure> interruptions;       // in time order, cause NetworkSwitchCable
    std::vector<StragglerEpisode> slowdowns;  // in begin order; causes start "network: "
};

// Each kind a Poisson process over its components for `duration`.
FabricFailures drawFabricFailures(const Topology& t, const std::vector<FabricFailureKind>& kinds, Nanos duration, Random& random);

}  // namespace faultline
