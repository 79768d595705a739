#include "vtk_render_widget.h"

#include "vtk_surface_window.h"

#include <QElapsedTimer>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLExtraFunctions>
#include <QOpenGLFunctions>
#include <QPainter>
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
constexpr unsigned kGlPackAlignment = 0x0D05;
constexpr unsigned kGlBgra = 0x80E1;
constexpr unsigned kGlUnsignedByte = 0x1401;
// A click is a press and release this close together; more is a camera drag.
constexpr int kClickSlopPixels = 4;
}  // namespace

VtkRenderWidget::VtkRenderWidget(QWidget* parent)
    : QWidget(parent),
      m_surface(new VtkSurfaceWindow({[this] { renderFrame(true); }, [this](QEvent* e) { takeInput(e); }})),
      m_container(QWidget::createWindowContainer(m_surface.data(), this)),
      m_window(vtkSmartPointer<vtkGenericOpenGLRenderWindow>::New()),
      m_renderer(vtkSmartPointer<vtkRenderer>::New()),
      m_interactor(vtkSmartPointer<vtkGenericRenderWindowInteractor>::New()) {
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(64, 64);
    setAttribute(Qt::WA_OpaquePaintEvent);
    m_surface->setFormat(QSurfaceFormat::defaultFormat());
    m_container->setFocusPolicy(Qt::NoFocus);
    m_container->setGeometry(rect());
    // Until a context is current there is nothing for VTK to render into.
    m_window->SetReadyForRendering(false);
    m_window->AddRenderer(m_renderer);
    m_window->SetMultiSamples(0);
    // The blit onto the screen is ours; VTK must never touch framebuffer 0.
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
    // Renders happen on Qt's schedule only; an interactor that wants one asks for a frame.
    m_interactor->EnableRenderOff();
    m_interactor->AddObserver(vtkCommand::RenderEvent, this, &VtkRenderWidget::onWindowEvent);
    m_interactor->Initialize();
}

VtkRenderWidget::~VtkRenderWidget() {
    // Free VTK's GL resources while the context still exists.
    if (m_context) {
        makeCurrent();
        m_window->Finalize();
        m_context->doneCurrent();
    }
    m_window->RemoveAllObservers();
    m_interactor->RemoveAllObservers();
}

vtkGenericOpenGLRenderWindow* VtkRenderWidget::renderWindow() const { return m_window; }
vtkRenderer* VtkRenderWidget::renderer() const { return m_renderer; }
vtkGenericRenderWindowInteractor* VtkRenderWidget::interactor() const { return m_interactor; }

void VtkRenderWidget::onWindowEvent(vtkObject*, unsigned long event, void* callData) {
    switch (event) {
        case vtkCommand::WindowMakeCurrentEvent:
            if (QOpenGLContext::currentContext() != m_context.get()) makeCurrent();
            break;
        case vtkCommand::WindowIsCurrentEvent:
            *static_cast<bool*>(callData) = m_context && QOpenGLContext::currentContext() == m_context.get();
            break;
        case vtkCommand::WindowIsDirectEvent:
        case vtkCommand::WindowSupportsOpenGLEvent: *static_cast<int*>(callData) = 1; break;
        case vtkCommand::RenderEvent: update(); break;
        default: break;  // WindowFrameEvent: the frame is blitted by renderFrame
    }
}

void VtkRenderWidget::ensureContext() {
    if (m_context) return;
    m_context = std::make_unique<QOpenGLContext>();
    m_context->setFormat(QSurfaceFormat::defaultFormat());
    m_context->create();
    m_offscreen = std::make_unique<QOffscreenSurface>();
    m_offscreen->setFormat(m_context->format());
    m_offscreen->create();
    makeCurrent();
    m_window->SetOwnContext(false);
    m_window->SetReadyForRendering(true);
    m_window->OpenGLInitContext();
    m_window->GetState()->Reset();
    m_window->SetReadyForRendering(false);
}

void VtkRenderWidget::makeCurrent() {
    // VTK draws into its own framebuffer, so any surface of the context will do; the window
    // when it is on screen (it is blitted into), else the off-screen one. Before the first
    // frame there is no context and nothing of VTK's on the GPU to make it current for.
    if (!m_context) return;
    if (onScreen()) m_context->makeCurrent(m_surface);
    else m_context->makeCurrent(m_offscreen.get());
}

bool VtkRenderWidget::onScreen() const { return m_surface && m_surface->isExposed(); }

void VtkRenderWidget::resizeEvent(QResizeEvent*) {
    m_container->setGeometry(rect());
    syncSize();
}

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

void VtkRenderWidget::update() {
    if (onScreen()) m_surface->requestUpdate();
}

void VtkRenderWidget::renderFrame(bool present) {
    if (m_rendering) return;  // a slot of aboutToRender asked for a frame: this is it
    m_rendering = true;
    ensureContext();
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
    present = present && onScreen();
    if (present) blitIntoWindow();
    if (m_timing) {
        m_context->functions()->glFinish();
        m_timedMs += static_cast<double>(timer.nsecsElapsed()) / 1e6;
        ++m_timedFrames;
    }
    if (present) {
        m_context->swapBuffers(m_surface);
        emit frameSwapped();
    }
    // What the blit bound is news to VTK's state cache: have it read GL's truth next time.
    state->Reset();
    m_rendering = false;
}

void VtkRenderWidget::blitIntoWindow() {
    // Plain GL, not VTK's cached state: VTK's idea of what is bound cannot be trusted here.
    QOpenGLExtraFunctions* gl = m_context->extraFunctions();
    const int w = m_window->GetSize()[0];
    const int h = m_window->GetSize()[1];
    gl->glBindFramebuffer(kGlReadFramebuffer, m_window->GetRenderFramebuffer()->GetFBOIndex());
    gl->glReadBuffer(kGlColorAttachment0);
    gl->glBindFramebuffer(kGlDrawFramebuffer, m_context->defaultFramebufferObject());
    gl->glViewport(0, 0, w, h);
    gl->glDisable(kGlScissorTest);
    gl->glBlitFramebuffer(0, 0, w, h, 0, 0, w, h, kGlColorBufferBit, kGlNearest);
}

QImage VtkRenderWidget::grabFramebuffer() {
    renderFrame(false);
    const int w = m_window->GetSize()[0];
    const int h = m_window->GetSize()[1];
    QImage image(w, h, QImage::Format_RGB32);
    makeCurrent();
    QOpenGLExtraFunctions* gl = m_context->extraFunctions();
    gl->glBindFramebuffer(kGlReadFramebuffer, m_window->GetRenderFramebuffer()->GetFBOIndex());
    gl->glReadBuffer(kGlColorAttachment0);
    gl->glPixelStorei(kGlPackAlignment, 4);
    // BGRA bytes are QImage's RGB32 words on a little-endian machine.
    gl->glReadPixels(0, 0, w, h, kGlBgra, kGlUnsignedByte, image.bits());
    m_window->GetState()->Reset();
    auto* pixels = reinterpret_cast<quint32*>(image.bits());
    for (qsizetype i = 0, n = qsizetype{w} * h; i < n; ++i) pixels[i] |= 0xff000000u;  // opaque, as RGB32 wants
    image.mirror();  // GL counts rows from the bottom
    image.setDevicePixelRatio(devicePixelRatioF());
    return image;
}

void VtkRenderWidget::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.drawImage(rect(), grabFramebuffer());
}

void VtkRenderWidget::takeInput(QEvent* event) {
    switch (event->type()) {
        case QEvent::MouseButtonPress:
            setFocus(Qt::MouseFocusReason);
            mousePressEvent(static_cast<QMouseEvent*>(event));
            break;
        case QEvent::MouseButtonRelease: mouseReleaseEvent(static_cast<QMouseEvent*>(event)); break;
        case QEvent::MouseMove: mouseMoveEvent(static_cast<QMouseEvent*>(event)); break;
        case QEvent::Wheel: wheelEvent(static_cast<QWheelEvent*>(event)); break;
        case QEvent::KeyPress: keyPressEvent(static_cast<QKeyEvent*>(event)); break;
        default: break;
    }
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

void VtkRenderWidget::mouseMoveEvent(QMouseEvent* event) {
    forwardMouse(event, vtkCommand::MouseMoveEvent);
    if (event->buttons() != Qt::NoButton) emit cameraMovedByUser();
}

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
    if (delta != 0) emit cameraMovedByUser();
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
        default: QWidget::keyPressEvent(event); return;
    }
    m_renderer->ResetCameraClippingRange();
    emit cameraMovedByUser();
    update();
}

}  // namespace faultline
