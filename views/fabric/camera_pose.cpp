#include "views/fabric/camera_pose.h"

#include <vtkCamera.h>
#include <vtkMatrix4x4.h>

namespace faultline {

CameraPose poseOf(vtkCamera& camera) {
    CameraPose p;
    camera.GetPosition(p.position.data());
    camera.GetFocalPoint(p.focal.data());
    // The up the view is drawn with (the set one made orthogonal to the direction of view),
    // so that a pose read back after applyPose compares equal to the one applied.
    vtkMatrix4x4* view = camera.GetViewTransformMatrix();
    for (int k = 0; k < 3; ++k) p.up[static_cast<std::size_t>(k)] = view->GetElement(1, k);
    p.viewAngle = camera.GetViewAngle();
    p.parallel = camera.GetParallelProjection() != 0;
    p.parallelScale = camera.GetParallelScale();
    return p;
}

void applyPose(vtkCamera& camera, const CameraPose& p) {
    camera.SetParallelProjection(p.parallel);
    camera.SetPosition(p.position.data());
    camera.SetFocalPoint(p.focal.data());
    camera.SetViewUp(p.up.data());
    camera.SetViewAngle(p.viewAngle);
    camera.SetParallelScale(p.parallelScale);
    camera.OrthogonalizeViewUp();
}

CameraPose blendPoses(const CameraPose& a, const CameraPose& b, double k) {
    CameraPose p = b;
    for (std::size_t i = 0; i < 3; ++i) {
        p.position[i] = a.position[i] + (b.position[i] - a.position[i]) * k;
        p.focal[i] = a.focal[i] + (b.focal[i] - a.focal[i]) * k;
        p.up[i] = a.up[i] + (b.up[i] - a.up[i]) * k;
    }
    p.viewAngle = a.viewAngle + (b.viewAngle - a.viewAngle) * k;
    p.parallelScale = a.parallelScale + (b.parallelScale - a.parallelScale) * k;
    return p;
}

}  // namespace faultline
