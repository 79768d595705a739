#pragma once
// The camera on an incident, the one way the main window and the presentation's story stops
// both do it: a failed switch, cable, NIC or host is selected and its blast radius shown,
// labelled with what it cut off, and the camera flies to frame that whole scope; a failed
// GPU is selected and labelled, and the camera flies to its rack (in a fleet, to the rack in
// its surroundings: FabricView::zoomToInPlace); an incident with no
// hardware (planned maintenance) flies to the whole cluster.
#include "model/run.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace faultline {

class FabricView;

// What showIncident selected (kind None for the whole cluster), and how to frame it.
struct IncidentShot {
    ComponentRef selected;
    std::function<void()> aim;
};

// `failed` is the hardware that failed (failedPart), `gpus` the GPUs the incident took out.
// Selects and labels it; the shot's aim frames it (a picture of it calls the aim at once).
// `alsoFailed`: the incident's other failed GPUs to label beside a failed GPU (suspectGpus).
IncidentShot showIncident(FabricView& view, const ComponentRef& failed, const std::vector<std::int32_t>& gpus,
                          const std::vector<std::int32_t>& alsoFailed = {});
// showIncident, then a flight to its framing. Returns what was selected, for the inspector.
ComponentRef flyToIncident(FabricView& view, const ComponentRef& failed, const std::vector<std::int32_t>& gpus, int ms = 1200,
                           const std::vector<std::int32_t>& alsoFailed = {});

}  // namespace faultline
