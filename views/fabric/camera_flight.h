#pragma once
// A camera flight in the 3D view: from where the camera is to where a preset (fit all,
// zoom to a part, a saved viewpoint) would put it, eased over a moment, so an audience sees
// where the hardware sits in the cluster instead of a cut. Whatever moves the camera during
// a flight (the user, another preset) stops it first: the flight never undoes a move.
#include "views/fabric/camera_pose.h"

#include <QObject>

#include <functional>

class QVariantAnimation;

namespace faultline {

class FabricView;

class CameraFlight : public QObject {
    Q_OBJECT
public:
    explicit CameraFlight(FabricView* view, QObject* parent = nullptr);
    // `aim` sets the camera where it should end (e.g. view->zoomTo(part)); the flight goes
    // there from the current camera over `ms` milliseconds.
    void flyTo(const std::function<void()>& aim, int ms = 1400);
    bool flying() const;
    // Leaves the camera where it is now, part of the way.
    void stop();
    // Puts the camera where the flight in progress ends, at once (a picture has no flight).
    void land();

private:
    void apply(const CameraPose& pose);
    FabricView* m_view;
    QVariantAnimation* m_animation;
    CameraPose m_from, m_to;
};

}  // namespace faultline
