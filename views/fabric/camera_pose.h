#pragma once
// Where the 3D view's camera is and how it looks: what a flight eases between and what a
// saved viewpoint keeps.
#include <array>

class vtkCamera;

namespace faultline {

struct CameraPose {
    std::array<double, 3> position{}, focal{}, up{0, 0, 1};
    double viewAngle = 30;  // degrees, in perspective
    bool parallel = false;
    double parallelScale = 1;  // half the view's height in world units, in parallel projection
};

CameraPose poseOf(vtkCamera& camera);
// Sets the camera (its view-up made orthogonal again); the caller resets the clipping range.
void applyPose(vtkCamera& camera, const CameraPose& pose);
// The pose `k` (0..1) of the way from `a` to `b`; the projection is `b`'s.
CameraPose blendPoses(const CameraPose& a, const CameraPose& b, double k);

}  // namespace faultline
