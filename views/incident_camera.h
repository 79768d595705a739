#pragma once
// The camera on an incident, the one way the main window and the presentation's story stops
// both do it: a failed switch, cable, NIC or host is selected and its blast radius shown,
// labelled with what it cut off, and the camera flies to frame that whole scope; a failed
// GPU is selected and labelled, and the camera flies to its rack; an incident with no
// hardware (planned maintenance) flies to the whole cluster.
#include "model/run.h"

#include <cstdint>
#include <vector>

namespace faultline {

class FabricView;

// `failed` is the hardware that failed (failedPart), `gpus` the GPUs the incident took out.
// Returns what was selected (kind None for the whole cluster), for the inspector to show.
ComponentRef flyToIncident(FabricView& view, const ComponentRef& failed, const std::vector<std::int32_t>& gpus, int ms = 1200);

}  // namespace faultline
