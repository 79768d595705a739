#pragma once
// Picks what an unexpected interruption of a given root cause broke: the component (a GPU,
// a host, a NIC, a switch or a cable), the GPUs it took out, its Xid code and the evidence.
#include "random.h"
#include "model/run.h"

#include <optional>

namespace faultline {

// Root causes for n unexpected interruptions in the proportions of the Llama 3 table, in
// random order: the mix is the table's, only which failure got which cause is random.
// `without` leaves one cause out (the rest keep their proportions).
std::vector<RootCause> drawLlama3CauseMix(int n, Random& random, std::optional<RootCause> without = std::nullopt);
Failure drawFailure(const Topology& topology, RootCause cause, Nanos time, Random& random);
// Hangs are only noticed when the NCCL watchdog fires; crashes and Xids are noticed at once.
bool isDetectedByWatchdog(RootCause cause);

}  // namespace faultline
