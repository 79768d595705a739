#pragma once
// A camera flight in the 3D view: from where the camera is to where a preset (fit all,
// zoom to a part) would put it, eased over a moment, so an audience sees where the
// hardware sits in the cluster instead of a cut.
#include <QObject>

#include <array>
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

private:
    struct Pose {
        std::array<double, 3> position, focal, up;
        double angle;
    };
    Pose pose() const;
    void apply(const Pose& pose);
    FabricView* m_view;
    QVariantAnimation* m_animation;
    Pose m_from{}, m_to{};
};

}  // namespace faultline
