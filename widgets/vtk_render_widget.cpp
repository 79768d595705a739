#include "vtk_render_widget.h"

#include "vtk_surface_window.h"

#include <QCoreApplication>
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
#include <vtkMath.h>
#include <vtkOpenGLFramebufferObject.h>
#include <vtkOpenGLState.h>
#include <vtkRenderer.h>
#include <vtkTransform.h>

#include <algorithm>
#include <cmath>

namespace faultline {

namespace {
// GL enums without pulling a GL header in beside Qt's: values from the OpenGL 3.2 spec.
constexpr unsigned kGlLequal = 0x0203;
constexpr unsigned kGlReadFramebuffer = 0x8CA8;
constexpr unsigned kGlColorAttachment0 = 0x8CE0;
constexpr unsigned kGlPackAlignment = 0x0D05;
constexpr unsigned kGlPackRowLength = 0x0D02;
constexpr unsigned kGlPackInvertMesa = 0x8758;  // GL_MESA_pack_invert: rows read top first
constexpr unsigned kGlRgba = 0x1908;
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
    // Tab focus only: a click takes the focus itself (mousePressEvent), so that it can tell a
    // click that only focused the view from one that picks.
    setFocusPolicy(Qt::TabFocus);
    setMinimumSize(64, 64);
    setAttribute(Qt::WA_OpaquePaintEvent);
    m_container->setFocusPolicy(Qt::NoFocus);
    m_container->setGeometry(rect());
    // Until a context is current there is nothing for VTK to render into.
    m_window->SetReadyForRendering(false);
    m_window->AddRenderer(m_renderer);
    m_window->SetMultiSamples(0);
    // Showing the frame is ours (it is read back); VTK must never touch framebuffer 0.
    m_window->SetFrameBlitModeToNoBlit();
    // Nor copy its frame into a second framebuffer first: the read-back reads the one it drew.
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
        default: break;  // WindowFrameEvent: the frame is presented by renderFrame
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
    m_packInvert = m_context->hasExtension("GL_MESA_pack_invert");
    m_window->SetOwnContext(false);
    m_window->SetReadyForRendering(true);
    m_window->OpenGLInitContext();
    m_window->GetState()->Reset();
    m_window->SetReadyForRendering(false);
}

void VtkRenderWidget::makeCurrent() {
    // VTK draws into its own framebuffer, which is read back to be shown, so the context needs
    // no window: the off-screen surface serves. Before the first frame there is no context
    // and nothing of VTK's on the GPU to make it current for.
    if (m_context) m_context->makeCurrent(m_offscreen.get());
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
    if (onScreen()) m_surface->scheduleFrame();
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
    if (present) m_surface->present([this](QImage& image) { readFrame(image); });
    if (m_timing) {
        if (!present) m_context->functions()->glFinish();  // a read-back waits for the frame itself
        m_timedMs += static_cast<double>(timer.nsecsElapsed()) / 1e6;
        ++m_timedFrames;
    }
    if (present) emit framePresented();
    m_rendering = false;
}

void VtkRenderWidget::readFrame(QImage& image) {
    const int frameHeight = m_window->GetSize()[1];
    const int w = std::min(m_window->GetSize()[0], image.width());
    const int h = std::min(frameHeight, image.height());
    if (w < image.width() || h < image.height()) image.fill(Qt::black);  // a frame of the size before a resize
    makeCurrent();
    // Plain GL, not VTK's cached state: VTK's idea of what is bound cannot be trusted here.
    QOpenGLExtraFunctions* gl = m_context->extraFunctions();
    gl->glBindFramebuffer(kGlReadFramebuffer, m_window->GetRenderFramebuffer()->GetFBOIndex());
    gl->glReadBuffer(kGlColorAttachment0);
    gl->glPixelStorei(kGlPackAlignment, 4);
    gl->glPixelStorei(kGlPackRowLength, static_cast<int>(image.bytesPerLine() / 4));
    if (m_packInvert) gl->glPixelStorei(kGlPackInvertMesa, 1);
    // The frame's top rows (GL counts them from the bottom), in the framebuffer's own byte
    // order: asked for as BGRA, llvmpipe reorders the bytes itself, more slowly than the loop
    // below (a replay at 1600x1000: 123 frames a second that way, 136 this way).
    gl->glReadPixels(0, frameHeight - h, w, h, kGlRgba, kGlUnsignedByte, image.bits());
    if (m_packInvert) gl->glPixelStorei(kGlPackInvertMesa, 0);
    gl->glPixelStorei(kGlPackRowLength, 0);
    // What was bound is news to VTK's state cache: have it read GL's truth next time.
    m_window->GetState()->Reset();
    // RGBA bytes (the word 0xAABBGGRR on a little-endian machine) into RGB32's 0xffRRGGBB:
    // red and blue swap, opaque as RGB32 wants.
    for (int y = 0; y < h; ++y) {
        auto* row = reinterpret_cast<quint32*>(image.scanLine(y));
        for (int x = 0; x < w; ++x) {
            const quint32 p = row[x];
            row[x] = 0xff000000u | (p & 0x0000ff00u) | ((p & 0xffu) << 16) | ((p >> 16) & 0xffu);
        }
    }
    if (!m_packInvert)  // the rows came bottom first
        for (int y = 0; y < h / 2; ++y) std::swap_ranges(image.scanLine(y), image.scanLine(y) + w * 4, image.scanLine(h - 1 - y));
}

QImage VtkRenderWidget::grabFramebuffer() {
    renderFrame(false);
    QImage image(m_window->GetSize()[0], m_window->GetSize()[1], QImage::Format_RGB32);
    readFrame(image);
    image.setDevicePixelRatio(devicePixelRatioF());
    return image;
}

void VtkRenderWidget::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.drawImage(rect(), grabFramebuffer());
}

void VtkRenderWidget::takeInput(QEvent* event) {
    switch (event->type()) {
        case QEvent::MouseButtonPress: mousePressEvent(static_cast<QMouseEvent*>(event)); break;
        case QEvent::MouseButtonRelease: mouseReleaseEvent(static_cast<QMouseEvent*>(event)); break;
        case QEvent::MouseMove: mouseMoveEvent(static_cast<QMouseEvent*>(event)); break;
        case QEvent::Wheel: wheelEvent(static_cast<QWheelEvent*>(event)); break;
        case QEvent::KeyPress:
        case QEvent::KeyRelease: {
            // Keys the window system gave the native window (the X server sends them to the
            // window under the pointer when no window has the focus) go through the widget
            // tree as if typed here: a key sent to a widget is first tried as a shortcut, so
            // the window's menu shortcuts and its panels' keys work with the focus in here.
            const auto* key = static_cast<QKeyEvent*>(event);
            QKeyEvent copy(key->type(), key->key(), key->modifiers(), key->text(), key->isAutoRepeat(), static_cast<quint16>(key->count()));
            QCoreApplication::sendEvent(this, &copy);
            break;
        }
        default: break;
    }
}

QWindow* VtkRenderWidget::surfaceWindow() const { return m_surface.data(); }

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
    // The first click into a view without the focus is taken as meant to focus it (the user
    // was in another panel), not to pick what happens to be under the cursor.
    m_focusClick = window()->focusWidget() != this;
    // A click in the native window does not activate the window by itself (it takes no
    // focus); without a window manager nothing else would, and no shortcut would answer.
    if (!window()->isActiveWindow()) window()->activateWindow();
    setFocus(Qt::MouseFocusReason);
    if (event->button() == Qt::LeftButton) {
        m_pressPos = m_lastPos = event->position().toPoint();
        m_pressed = true;
        // A plain left drag orbits about the selection, when there is one.
        m_orbiting = m_orbitCentre.has_value() && event->modifiers() == Qt::NoModifier;
        if (m_orbiting) return;
    }
    switch (event->button()) {
        case Qt::LeftButton: forwardMouse(event, vtkCommand::LeftButtonPressEvent); break;
        case Qt::MiddleButton: forwardMouse(event, vtkCommand::MiddleButtonPressEvent); break;
        case Qt::RightButton: forwardMouse(event, vtkCommand::RightButtonPressEvent); break;
        default: break;
    }
}

void VtkRenderWidget::mouseMoveEvent(QMouseEvent* event) {
    if (m_orbiting && event->buttons().testFlag(Qt::LeftButton)) {
        orbit(m_lastPos, event->position().toPoint());
        m_lastPos = event->position().toPoint();
        emit cameraMovedByUser();
        return;
    }
    forwardMouse(event, vtkCommand::MouseMoveEvent);
    if (event->buttons() != Qt::NoButton) emit cameraMovedByUser();
}

void VtkRenderWidget::mouseReleaseEvent(QMouseEvent* event) {
    const bool orbited = event->button() == Qt::LeftButton && m_orbiting;
    if (orbited) m_orbiting = false;
    switch (event->button()) {
        case Qt::LeftButton:
            if (!orbited) forwardMouse(event, vtkCommand::LeftButtonReleaseEvent);
            break;
        case Qt::MiddleButton: forwardMouse(event, vtkCommand::MiddleButtonReleaseEvent); break;
        case Qt::RightButton: forwardMouse(event, vtkCommand::RightButtonReleaseEvent); break;
        default: break;
    }
    if (event->button() == Qt::LeftButton && m_pressed) {
        m_pressed = false;
        if ((event->position().toPoint() - m_pressPos).manhattanLength() <= kClickSlopPixels && !m_focusClick)
            emit clicked(event->position().toPoint());
    }
}

void VtkRenderWidget::wheelEvent(QWheelEvent* event) {
    const int delta = event->angleDelta().y();
    // One notch (120) zooms by a fifth, towards what the cursor points at.
    if (delta != 0) {
        zoomTowards(event->position(), std::pow(1.2, delta / 120.0));
        emit cameraMovedByUser();
    }
    event->accept();
}

void VtkRenderWidget::zoomTowards(const QPointF& widgetPos, double factor) {
    vtkCamera* camera = m_renderer->GetActiveCamera();
    std::array<double, 3> focal{}, position{};
    camera->GetFocalPoint(focal.data());
    camera->GetPosition(position.data());
    // The point under the cursor on the plane of the focal point.
    m_renderer->SetWorldPoint(focal[0], focal[1], focal[2], 1.0);
    m_renderer->WorldToDisplay();
    const double depth = m_renderer->GetDisplayPoint()[2];
    const QPoint p = toVtkPixel(widgetPos);
    m_renderer->SetDisplayPoint(p.x(), p.y(), depth);
    m_renderer->DisplayToWorld();
    const double* w = m_renderer->GetWorldPoint();
    const std::array<double, 3> under{w[0] / w[3], w[1] / w[3], w[2] / w[3]};
    // Zooming by f about the focal point scales offsets on that plane by f; moving the
    // focal point a (1 - 1/f) share of the way to the point keeps the point where it was.
    const double share = 1.0 - 1.0 / factor;
    if (camera->GetParallelProjection()) camera->SetParallelScale(camera->GetParallelScale() / factor);
    else camera->Dolly(factor);
    camera->GetPosition(position.data());
    for (std::size_t k = 0; k < 3; ++k) {
        const double shift = (under[k] - focal[k]) * share;
        focal[k] += shift;
        position[k] += shift;
    }
    camera->SetFocalPoint(focal.data());
    camera->SetPosition(position.data());
    m_renderer->ResetCameraClippingRange();
    update();
}

void VtkRenderWidget::orbit(const QPoint& from, const QPoint& to) {
    // Turns the camera (eye and focal point together) about the orbit centre: around the
    // vertical for a sideways drag, around the screen's horizontal for an up or down one.
    vtkCamera* camera = m_renderer->GetActiveCamera();
    const std::array<double, 3> c = *m_orbitCentre;
    const double degreesPerPixel = 270.0 / std::max(1, width());
    const double azimuth = -(to.x() - from.x()) * degreesPerPixel;
    const double elevation = (to.y() - from.y()) * degreesPerPixel;
    double right[3];
    {
        double direction[3], up[3];
        camera->GetDirectionOfProjection(direction);
        camera->GetViewUp(up);
        vtkMath::Cross(direction, up, right);
        vtkMath::Normalize(right);
    }
    auto turn = vtkSmartPointer<vtkTransform>::New();
    turn->PostMultiply();
    turn->Translate(-c[0], -c[1], -c[2]);
    turn->RotateWXYZ(elevation, right);
    turn->RotateWXYZ(azimuth, 0, 0, 1);
    turn->Translate(c[0], c[1], c[2]);
    double position[3], focal[3], up[3];
    camera->GetPosition(position);
    camera->GetFocalPoint(focal);
    camera->GetViewUp(up);
    turn->TransformPoint(position, position);
    turn->TransformPoint(focal, focal);
    turn->TransformVector(up, up);
    // Never over the top: keep the eye above the floor's horizon and below the zenith.
    const double dz = (position[2] - focal[2]) / std::max(1e-9, std::sqrt(vtkMath::Distance2BetweenPoints(position, focal)));
    if (dz > 0.02 && dz < 0.9995) {
        camera->SetPosition(position);
        camera->SetFocalPoint(focal);
        camera->SetViewUp(up);
        camera->OrthogonalizeViewUp();
        m_renderer->ResetCameraClippingRange();
    }
    update();
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
