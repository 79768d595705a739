#include "views/fabric/camera_flight.h"

#include "views/fabric/fabric_view.h"
#include "widgets/vtk_render_widget.h"

#include <QEasingCurve>
#include <QVariantAnimation>

#include <vtkCamera.h>
#include <vtkRenderer.h>

namespace faultline {

CameraFlight::CameraFlight(FabricView* view, QObject* parent) : QObject(parent), m_view(view), m_animation(new QVariantAnimation(this)) {
    m_animation->setStartValue(0.0);
    m_animation->setEndValue(1.0);
    m_animation->setEasingCurve(QEasingCurve::InOutCubic);
    connect(m_animation, &QVariantAnimation::valueChanged, this, [this](const QVariant& v) {
        // A frame already queued when the flight was stopped must not move the camera.
        if (m_animation->state() != QAbstractAnimation::Running) return;
        apply(blendPoses(m_from, m_to, v.toDouble()));
    });
}

void CameraFlight::apply(const CameraPose& p) {
    applyPose(*m_view->renderWidget()->renderer()->GetActiveCamera(), p);
    m_view->renderWidget()->renderer()->ResetCameraClippingRange();
    m_view->renderWidget()->update();
}

void CameraFlight::flyTo(const std::function<void()>& aim, int ms) {
    m_animation->stop();
    vtkCamera& camera = *m_view->renderWidget()->renderer()->GetActiveCamera();
    m_from = poseOf(camera);
    aim();
    m_to = poseOf(camera);
    apply(m_from);
    m_animation->setDuration(ms);
    m_animation->start();
}

bool CameraFlight::flying() const { return m_animation->state() == QAbstractAnimation::Running; }

void CameraFlight::stop() { m_animation->stop(); }

void CameraFlight::land() {
    if (!flying()) return;
    m_animation->stop();
    apply(m_to);
}

}  // namespace faultline
