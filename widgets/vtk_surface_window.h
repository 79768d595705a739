#pragma once
// The native window the 3D view presents its frames in, embedded in the widget tree with
// QWidget::createWindowContainer. Presenting straight to a window skips what Qt adds to show
// a QOpenGLWidget (an extra framebuffer, and every frame composing it with the rest of the
// window). It is a raster window: a frame's pixels are read back into its backing store,
// top row first, and sent to the display. On a software rasteriser a GL blit into a GL
// window flips the frame in a shader pass over every pixel, 6 ms of a 19 ms frame at
// 1600x1000; the read-back costs 1. The window only shows frames and hands its input to its
// owner: the owner renders.
#include <QWindow>

#include <functional>
#include <memory>

class QBackingStore;
class QImage;

namespace faultline {

class VtkSurfaceWindow : public QWindow {
public:
    struct Handlers {
        std::function<void()> render;             // paint a frame now (the window is exposed)
        std::function<void(QEvent*)> input;       // mouse, wheel and key events, to forward
    };
    explicit VtkSurfaceWindow(Handlers handlers);
    ~VtkSurfaceWindow() override;

    // Shows a frame: `fill` writes it, top row first, into an image of the window's size in
    // device pixels (32 bits a pixel, blue first in memory), and the image goes on screen.
    void present(const std::function<void(QImage&)>& fill);

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
    std::unique_ptr<QBackingStore> m_store;  // made with the first frame shown
};

}  // namespace faultline
