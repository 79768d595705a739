#pragma once
// The native OpenGL window the 3D view presents its frames in, embedded in the widget tree
// with QWidget::createWindowContainer. Presenting straight to a window skips what Qt adds
// to show a QOpenGLWidget (an extra framebuffer, and every frame composing it with the
// rest of the window); on a software rasteriser those full-window passes were most of a
// frame. The window only draws and hands its input to its owner: the owner renders.
#include <QWindow>

#include <functional>

namespace faultline {

class VtkSurfaceWindow : public QWindow {
public:
    struct Handlers {
        std::function<void()> render;             // paint a frame now (the window is exposed)
        std::function<void(QEvent*)> input;       // mouse, wheel and key events, to forward
    };
    explicit VtkSurfaceWindow(Handlers handlers);

    // Asks for a frame as soon as the events before it are handled; asked again before then,
    // it is still one frame. Not QWindow::requestUpdate: where the display sends no frame
    // callbacks (X without a compositor, Xvfb), that waits for a 5 ms timer before every
    // frame, time a replay cannot spare.
    void scheduleFrame();

protected:
    bool event(QEvent* event) override;
    void exposeEvent(QExposeEvent* event) override;

private:
    Handlers m_handlers;
    bool m_framePosted = false;
};

}  // namespace faultline
