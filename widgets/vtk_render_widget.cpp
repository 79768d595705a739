#include "vtk_render_widget.h"

#include <QElapsedTimer>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QOpenGLContext>
#include <QOpenGLExtraFunctions>
#include <QOpenGLFunctions>
#include <QWheelEvent>

#include <vtkCamera.h>
#include <vtkCommand.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkGenericRenderWindowInteractor.h>
#include <vtkInteractorStyleTrackballCamera.h>
#include <vtkOpenGLFramebufferObject.h>
#include <vtkOpenGLState.h>
#include <vtkRenderer.h>

#include <cmath>

namespace faultline {

namespace {
// GL enums without pulling a GL header in beside Qt's: values from the OpenGL 3.2 spec.
constexpr unsigned kGlLequal = 0x0203;
constexpr unsigned kGlColorBufferBit = 0x00004000;
constexpr unsigned kGlNearest = 0x2600;
constexpr unsigned kGlReadFramebuffer = 0x8CA8;
constexpr unsigned kGlDrawFramebuffer = 0x8CA9;
constexpr unsigned kGlFramebuffer = 0x8D40;
constexpr unsigned kGlColorAttachment0 = 0x8CE0;
constexpr unsigned kGlScissorTest = 0x0C11;
// A click is a press and release this close together; more is a camera drag.
constexpr int kClickSlopPixels = 4;
}  // namespace

VtkRenderWidget::VtkRenderWidget(QWidget* parent)
    : QOpenGLWidget(parent),
      m_window(vtkSmartPointer<vtkGenericOpenGLRenderWindow>::New()),
      m_renderer(vtkSmartPointer<vtkRenderer>::New()),
      m_interactor(vtkSmartPointer<vtkGenericRenderWindowInteractor>::New()) {
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(64, 64);
    // Every frame's blit covers the whole framebuffer: no need for Qt to clear it first,
    // which on a software rasteriser is a frame-sized fill saved.
    setUpdateBehavior(QOpenGLWidget::PartialUpdate);
    // Until initializeGL there is no context for VTK to render into.
    m_window->SetReadyForRendering(false);
    m_window->AddRenderer(m_renderer);
    m_window->SetMultiSamples(0);
    // The blit into Qt's framebuffer is ours; VTK must never touch framebuffer 0.
    m_window->SetFrameBlitModeToNoBlit();
    // Nor copy its frame into a second framebuffer first: the blit reads the one it drew.
    m_window->SwapBuffersOff();
    for (unsigned long event : {vtkCommand::WindowMakeCurrentEvent, vtkCommand::WindowIsCurrentEvent,
                                vtkCommand::WindowIsDirectEvent, vtkCommand::WindowSupportsOpenGLEvent,
                                vtkCommand::WindowFrameEvent})
        m_window->AddObserver(event, this, &VtkRenderWidget::onWindowEvent);

    m_interactor->SetRenderWindow(m_window);
    auto style = vtkSmartPointer<vtkInteractorStyleTrackballCamera>::New();
    m_interactor->SetInteractorStyle(style);
    // Renders happen in paintGL only; an interactor that wants one asks Qt for a repaint.
    m_interactor->EnableRenderOff();
    m_interactor->AddObserver(vtkCommand::RenderEvent, this, &VtkRenderWidget::onWindowEvent);
    m_interactor->Initialize();
}

VtkRenderWidget::~VtkRenderWidget() {
    // Free VTK's GL resources while Qt's context still exists.
    makeCurrent();
    m_window->Finalize();
    m_window->RemoveAllObservers();
    m_interactor->RemoveAllObservers();
    doneCurrent();
}

vtkGenericOpenGLRenderWindow* VtkRenderWidget::renderWindow() const { return m_window; }
vtkRenderer* VtkRenderWidget::renderer() const { return m_renderer; }
vtkGenericRenderWindowInteractor* VtkRenderWidget::interactor() const { return m_interactor; }

void VtkRenderWidget::onWindowEvent(vtkObject*, unsigned long event, void* callData) {
    switch (event) {
        case vtkCommand::WindowMakeCurrentEvent:
            // QOpenGLWidget::makeCurrent also binds Qt's framebuffer, behind VTK's back, so
            // only when another context is current (VTK asks many times a frame).
            if (QOpenGLContext::currentContext() != context()) makeCurrent();
            break;
        case vtkCommand::WindowIsCurrentEvent:
            *static_cast<bool*>(callData) = context() && QOpenGLContext::currentContext() == context();
            break;
        case vtkCommand::WindowIsDirectEvent:
        case vtkCommand::WindowSupportsOpenGLEvent: *static_cast<int*>(callData) = 1; break;
        case vtkCommand::RenderEvent: update(); break;
        default: break;  // WindowFrameEvent: the frame is blitted by paintGL
    }
}

void VtkRenderWidget::initializeGL() {
    m_window->SetOwnContext(false);
    m_window->SetReadyForRendering(true);
    m_window->OpenGLInitContext();
    m_window->GetState()->Reset();
    m_window->SetReadyForRendering(false);
    syncSize();
}

void VtkRenderWidget::resizeGL(int, int) { syncSize(); }

void VtkRenderWidget::syncSize() {
    const qreal dpr = devicePixelRatioF();
    const int w = static_cast<int>(std::lround(width() * dpr));
    const int h = static_cast<int>(std::lround(height() * dpr));
    m_window->SetDPI(static_cast<int>(std::lround(72 * dpr)));
    if (m_window->GetSize()[0] != w || m_window->GetSize()[1] != h) {
        m_window->SetSize(w, h);
        m_interactor->SetSize(w, h);
    }
}

void VtkRenderWidget::paintGL() {
    // A widget grabbed before it was ever shown may not have seen a resize yet.
    syncSize();
    QElapsedTimer timer;
    timer.start();
    emit aboutToRender();
    makeCurrent();  // a slot above may have made another context current
    vtkOpenGLState* state = m_window->GetState();
    state->Reset();
    state->Push();
    state->vtkglDepthFunc(kGlLequal);
    m_window->SetReadyForRendering(true);
    m_window->Render();
    m_window->SetReadyForRendering(false);
    state->Pop();
    blitIntoWidget();
    if (m_timing) {
        context()->functions()->glFinish();
        m_timedMs += static_cast<double>(timer.nsecsElapsed()) / 1e6;
        ++m_timedFrames;
    }
    // What the blit bound is news to VTK's state cache: have it read GL's truth next time.
    state->Reset();
}

void VtkRenderWidget::blitIntoWidget() {
    // Plain GL, not VTK's cached state: Qt bound its own framebuffer behind VTK's back, so
    // VTK's idea of what is bound cannot be trusted here.
    QOpenGLExtraFunctions* gl = context()->extraFunctions();
    const int w = m_window->GetSize()[0];
    const int h = m_window->GetSize()[1];
    gl->glBindFramebuffer(kGlReadFramebuffer, m_window->GetRenderFramebuffer()->GetFBOIndex());
    gl->glReadBuffer(kGlColorAttachment0);
    gl->glBindFramebuffer(kGlDrawFramebuffer, defaultFramebufferObject());
    gl->glViewport(0, 0, w, h);
    gl->glDisable(kGlScissorTest);
    gl->glBlitFramebuffer(0, 0, w, h, 0, 0, w, h, kGlColorBufferBit, kGlNearest);
    // Qt composes the widget with its alpha: make it opaque whatever VTK left there.
    gl->glBindFramebuffer(kGlFramebuffer, defaultFramebufferObject());
    gl->glColorMask(false, false, false, true);
    gl->glClearColor(0, 0, 0, 1);
    gl->glClear(kGlColorBufferBit);
    gl->glColorMask(true, true, true, true);
}

int VtkRenderWidget::renderWindowHeight() const {
    return static_cast<int>(std::lround(height() * devicePixelRatioF()));
}

QPoint VtkRenderWidget::toVtkPixel(const QPointF& widgetPos) const {
    const qreal dpr = devicePixelRatioF();
    const int x = static_cast<int>(std::lround(widgetPos.x() * dpr));
    const int y = static_cast<int>(std::lround(widgetPos.y() * dpr));
    return {x, renderWindowHeight() - 1 - y};
}

void VtkRenderWidget::forwardMouse(QMouseEvent* event, unsigned long vtkEvent) {
    const QPoint p = toVtkPixel(event->position());
    const Qt::KeyboardModifiers mods = event->modifiers();
    m_interactor->SetEventInformation(p.x(), p.y(), mods.testFlag(Qt::ControlModifier) ? 1 : 0,
                                      mods.testFlag(Qt::ShiftModifier) ? 1 : 0);
    m_interactor->SetAltKey(mods.testFlag(Qt::AltModifier) ? 1 : 0);
    m_interactor->InvokeEvent(vtkEvent, nullptr);
}

void VtkRenderWidget::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton) {
        m_pressPos = event->position().toPoint();
        m_pressed = true;
    }
    switch (event->button()) {
        case Qt::LeftButton: forwardMouse(event, vtkCommand::LeftButtonPressEvent); break;
        case Qt::MiddleButton: forwardMouse(event, vtkCommand::MiddleButtonPressEvent); break;
        case Qt::RightButton: forwardMouse(event, vtkCommand::RightButtonPressEvent); break;
        default: break;
    }
}

void VtkRenderWidget::mouseMoveEvent(QMouseEvent* event) { forwardMouse(event, vtkCommand::MouseMoveEvent); }

void VtkRenderWidget::mouseReleaseEvent(QMouseEvent* event) {
    switch (event->button()) {
        case Qt::LeftButton: forwardMouse(event, vtkCommand::LeftButtonReleaseEvent); break;
        case Qt::MiddleButton: forwardMouse(event, vtkCommand::MiddleButtonReleaseEvent); break;
        case Qt::RightButton: forwardMouse(event, vtkCommand::RightButtonReleaseEvent); break;
        default: break;
    }
    if (event->button() == Qt::LeftButton && m_pressed) {
        m_pressed = false;
        if ((event->position().toPoint() - m_pressPos).manhattanLength() <= kClickSlopPixels)
            emit clicked(event->position().toPoint());
    }
}

void VtkRenderWidget::wheelEvent(QWheelEvent* event) {
    const QPoint p = toVtkPixel(event->position());
    m_interactor->SetEventInformation(p.x(), p.y());
    const int delta = event->angleDelta().y();
    if (delta > 0) m_interactor->InvokeEvent(vtkCommand::MouseWheelForwardEvent, nullptr);
    else if (delta < 0) m_interactor->InvokeEvent(vtkCommand::MouseWheelBackwardEvent, nullptr);
    event->accept();
}

void VtkRenderWidget::keyPressEvent(QKeyEvent* event) {
    // Arrow keys orbit, +/- zoom: the camera without a mouse. Other keys are the app's; VTK's
    // own key bindings (wireframe, quit, stereo) would only surprise here.
    vtkCamera* camera = m_renderer->GetActiveCamera();
    const double step = event->modifiers().testFlag(Qt::ShiftModifier) ? 15.0 : 5.0;
    switch (event->key()) {
        case Qt::Key_Left: camera->Azimuth(step); break;
        case Qt::Key_Right: camera->Azimuth(-step); break;
        case Qt::Key_Up: camera->Elevation(step); camera->OrthogonalizeViewUp(); break;
        case Qt::Key_Down: camera->Elevation(-step); camera->OrthogonalizeViewUp(); break;
        case Qt::Key_Plus:
        case Qt::Key_Equal: camera->Dolly(1.25); break;
        case Qt::Key_Minus: camera->Dolly(0.8); break;
        default: QOpenGLWidget::keyPressEvent(event); return;
    }
    m_renderer->ResetCameraClippingRange();
    update();
}

}  // namespace faultline
