#include "camera_flight.h"

#include "fabric_view.h"
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
        const double k = v.toDouble();
        Pose p{};
        for (std::size_t i = 0; i < 3; ++i) {
            p.position[i] = m_from.position[i] + (m_to.position[i] - m_from.position[i]) * k;
            p.focal[i] = m_from.focal[i] + (m_to.focal[i] - m_from.focal[i]) * k;
            p.up[i] = m_from.up[i] + (m_to.up[i] - m_from.up[i]) * k;
        }
        p.angle = m_from.angle + (m_to.angle - m_from.angle) * k;
        apply(p);
    });
}

CameraFlight::Pose CameraFlight::pose() const {
    vtkCamera* c = m_view->renderWidget()->renderer()->GetActiveCamera();
    Pose p{};
    c->GetPosition(p.position.data());
    c->GetFocalPoint(p.focal.data());
    c->GetViewUp(p.up.data());
    p.angle = c->GetViewAngle();
    return p;
}

void CameraFlight::apply(const Pose& p) {
    vtkCamera* c = m_view->renderWidget()->renderer()->GetActiveCamera();
    c->SetPosition(p.position.data());
    c->SetFocalPoint(p.focal.data());
    c->SetViewUp(p.up.data());
    c->SetViewAngle(p.angle);
    c->OrthogonalizeViewUp();
    m_view->renderWidget()->renderer()->ResetCameraClippingRange();
    m_view->renderWidget()->update();
}

void CameraFlight::flyTo(const std::function<void()>& aim, int ms) {
    m_animation->stop();
    m_from = pose();
    aim();
    m_to = pose();
    apply(m_from);
    m_animation->setDuration(ms);
    m_animation->start();
}

bool CameraFlight::flying() const { return m_animation->state() == QAbstractAnimation::Running; }

}  // namespace faultline
