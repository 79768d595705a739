#include "views/fabric/linked_cameras.h"

#include "views/fabric/fabric_view.h"
#include "widgets/vtk_render_widget.h"

#include <vtkCamera.h>
#include <vtkRenderer.h>

#include <algorithm>
#include <cmath>
#include <functional>

namespace faultline {

namespace {

vtkCamera* cameraOf(FabricView* view) { return view->renderWidget()->renderer()->GetActiveCamera(); }

// Where a camera is and looks, hashed: a render's own bookkeeping (clipping range) changes
// none of it, a user's move does.
unsigned long poseHash(FabricView* view) {
    vtkCamera* c = cameraOf(view);
    std::array<double, 10> p{};
    c->GetPosition(p.data());
    c->GetFocalPoint(p.data() + 3);
    c->GetViewUp(p.data() + 6);
    p[9] = c->GetParallelScale();
    unsigned long h = 1469598103934665603UL;
    for (double v : p) h = (h ^ std::hash<double>{}(std::round(v * 1e6) / 1e6)) * 1099511628211UL;
    return h;
}

}  // namespace

LinkedCameras::LinkedCameras(FabricView* a, FabricView* b, QObject* parent) : QObject(parent), m_a{a}, m_b{b} {
    // Connected after each view's own refresh, so a view's first fit is done when we look.
    connect(a->renderWidget(), &VtkRenderWidget::aboutToRender, this, [this] { follow(m_a, m_b, false); });
    connect(b->renderWidget(), &VtkRenderWidget::aboutToRender, this, [this] { follow(m_b, m_a, false); });
}

void LinkedCameras::setLinked(bool linked) {
    m_linked = linked;
    if (linked) follow(m_a, m_b, true);
}

void LinkedCameras::reset() {
    for (Side* side : {&m_a, &m_b}) {
        side->fitted = false;
        side->seen = 0;
    }
}

void LinkedCameras::follow(Side& from, Side& to, bool force) {
    if (m_moving || !from.view->run()) return;
    vtkCamera* src = cameraOf(from.view);
    const unsigned long now = poseHash(from.view);
    if (!from.fitted) {
        // Its first frame: the view has just fitted its cluster. That framing is what a move in
        // the other view is measured against.
        const double* focal = src->GetFocalPoint();
        from.fitCentre = {focal[0], focal[1], focal[2]};
        from.fitDistance = src->GetDistance();
        from.fitted = true;
        from.seen = now;
        return;
    }
    if (now == from.seen && !force) return;
    from.seen = now;
    if (!m_linked || !to.fitted) return;
    // The same view of each cluster: positions relative to each fitted focal point, scaled by
    // how far each camera stood to fit its cluster.
    const double scale = to.fitDistance / std::max(from.fitDistance, 1e-12);
    double p[3], fp[3];
    src->GetPosition(p);
    src->GetFocalPoint(fp);
    for (std::size_t i = 0; i < 3; ++i) {
        p[i] = to.fitCentre[i] + (p[i] - from.fitCentre[i]) * scale;
        fp[i] = to.fitCentre[i] + (fp[i] - from.fitCentre[i]) * scale;
    }
    m_moving = true;
    vtkCamera* dst = cameraOf(to.view);
    dst->SetParallelProjection(src->GetParallelProjection());
    dst->SetViewAngle(src->GetViewAngle());
    dst->SetPosition(p);
    dst->SetFocalPoint(fp);
    dst->SetViewUp(src->GetViewUp());
    dst->SetParallelScale(src->GetParallelScale() * scale);
    to.view->renderWidget()->renderer()->ResetCameraClippingRange();
    to.seen = poseHash(to.view);
    m_moving = false;
    to.view->renderWidget()->update();
}

}  // namespace faultline
