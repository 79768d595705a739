#pragma once
// Root causes and straggler causes gathered into the groups a leadership audience asks about:
// what the network cost, against the GPUs, the hosts and the software.
#include "model/root_cause.h"

#include <string_view>

namespace faultline {

enum class CauseGroup : std::uint8_t { Gpu, Host, Network, Software, Planned };

// Network: switches, cables and NICs (the Llama 3 table's network switch/cable and NIC rows).
CauseGroup causeGroup(RootCause cause);
// "GPU", "Host", "Network", "Software", "Planned maintenance".
std::string_view causeGroupName(CauseGroup group);
// A straggler the fabric caused: the simulator's fabric slowdowns ("network: PFC storm on
// rtsw-r0412"), or a cause that names fabric congestion (PFC, ECMP, congestion).
bool isNetworkStraggler(std::string_view cause);

}  // namespace faultline
