#pragma once
// A topology as `ibnetdiscover` prints an InfiniBand fabric: every switch with the ports it
// has cabled, every host channel adapter ("HOST mlx5_N", NIC N of HOST) with its one port.
// What an InfiniBand cluster's operators keep of its cabling, and what `simulate --emit-logs`
// writes for a fat tree: a Slurm topology.conf cannot say that a host's eight NICs go to
// eight rail leaves.
#include "model/topology.h"

#include <string>

namespace faultline {

std::string ibnetdiscoverDump(const Topology& topology);

}  // namespace faultline
