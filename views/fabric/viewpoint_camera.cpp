#include "views/fabric/viewpoint_camera.h"

#include "views/fabric/fabric_view.h"

namespace faultline {

Viewpoint viewpointOf(const FabricView& view, const std::string& name) {
    const CameraPose pose = view.cameraPose();
    Viewpoint v;
    v.name = name;
    v.position = pose.position;
    v.focal = pose.focal;
    v.up = pose.up;
    v.viewAngle = pose.viewAngle;
    v.parallel = pose.parallel;
    v.parallelScale = pose.parallelScale;
    if (view.run()) v.topology = stampOf(view.run()->topology);
    return v;
}

std::optional<std::string> goToViewpoint(FabricView& view, const Viewpoint& viewpoint, int flightMs) {
    if (!view.run()) return "no run is shown";
    if (auto mismatch = viewpointMismatch(viewpoint, view.run()->topology)) return mismatch;
    CameraPose pose;
    pose.position = viewpoint.position;
    pose.focal = viewpoint.focal;
    pose.up = viewpoint.up;
    pose.viewAngle = viewpoint.viewAngle;
    pose.parallel = viewpoint.parallel;
    pose.parallelScale = viewpoint.parallelScale;
    if (flightMs <= 0) view.setCameraPose(pose);
    else view.flyTo([&view, pose] { view.setCameraPose(pose); }, flightMs);
    return std::nullopt;
}

}  // namespace faultline
