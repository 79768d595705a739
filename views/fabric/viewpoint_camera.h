#pragma once
// Saved viewpoints (model/viewpoints.h) and the 3D view's camera: the camera kept under a
// name, and the view taken back there, refused when the viewpoint was saved on another
// cluster.
#include "model/viewpoints.h"

#include <optional>
#include <string>

namespace faultline {

class FabricView;

// The view's camera now, named, stamped with the view's cluster.
Viewpoint viewpointOf(const FabricView& view, const std::string& name);

// Puts the camera at `viewpoint` (flying there over `flightMs`, or at once for 0). Returns
// why it cannot (no run shown, saved on another cluster) and leaves the camera alone then.
std::optional<std::string> goToViewpoint(FabricView& view, const Viewpoint& viewpoint, int flightMs = 1200);

}  // namespace faultline
