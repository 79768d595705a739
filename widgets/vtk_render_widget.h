#pragma once
// A Qt 6 widget that hosts VTK rendering. Debian's VTK Qt module is built for Qt 5, so this
// is our own: a vtkGenericOpenGLRenderWindow driven on a QOpenGLContext of ours, with only
// VTK's non-Qt modules. VTK always renders into its own framebuffer; a frame is read back,
// into a native window embedded in the widget to be shown (see VtkSurfaceWindow), or into
// an image when grabbed, which works whether or not the widget is on screen. Mouse
// and keys go to a VTK interactor (trackball camera: left drag orbits, middle or
// shift-left drag pans, wheel zooms).
#include <QImage>
#include <QPointer>
#include <QWidget>

#include <vtkSmartPointer.h>

#include <array>
#include <memory>
#include <optional>

class QOffscreenSurface;
class QOpenGLContext;
class vtkGenericOpenGLRenderWindow;
class vtkGenericRenderWindowInteractor;
class vtkRenderer;
class vtkObject;

namespace faultline {

class VtkSurfaceWindow;

class VtkRenderWidget : public QWidget {
    Q_OBJECT
public:
    explicit VtkRenderWidget(QWidget* parent = nullptr);
    ~VtkRenderWidget() override;

    vtkGenericOpenGLRenderWindow* renderWindow() const;
    vtkRenderer* renderer() const;
    vtkGenericRenderWindowInteractor* interactor() const;
    // The native window the frames are presented in (its input comes back to this widget).
    QWindow* surfaceWindow() const;

    // Device pixels from the widget's top-left, as VTK counts them (origin bottom-left).
    QPoint toVtkPixel(const QPointF& widgetPos) const;
    // The render window's height in device pixels (VTK's y runs up from the bottom).
    int renderWindowHeight() const;
    // Gives the render window the widget's size in device pixels now, not at the next paint:
    // camera fitting needs the true aspect ratio.
    void syncSize();

    // Asks for a frame on screen once the events already waiting are handled; asked again
    // before then, it is still one frame. It hides QWidget's update(): the widget itself
    // draws nothing on screen, its embedded window does.
    void update();
    // Renders now, off screen, and returns the frame in device pixels.
    QImage grabFramebuffer();

    // Benchmarks: time each frame's VTK render and its read-back into the window (or, for a
    // frame not shown, waiting for the GL work to finish), apart from Qt's events around it.
    void setTimingFrames(bool timing) { m_timing = timing; m_timedFrames = 0; m_timedMs = 0; }
    double meanFrameRenderMs() const { return m_timedFrames ? m_timedMs / m_timedFrames : 0; }

    // A point the left drag orbits about (the selection's centre), instead of the focal point;
    // none to orbit about the focal point again.
    void setOrbitCentre(std::optional<std::array<double, 3>> centre) { m_orbitCentre = centre; }
    // Zooms by `factor` (above 1 nearer) towards what is under the widget point: it stays
    // under the cursor while the rest of the view grows around it.
    void zoomTowards(const QPointF& widgetPos, double factor);

signals:
    // Before every VTK render, on the GUI thread: the place to update colours for "now".
    void aboutToRender();
    // A left click that did not move the camera, in widget coordinates.
    void clicked(const QPoint& widgetPos);
    // A frame was put on screen.
    void framePresented();
    // The user turned, moved or zoomed the camera (a drag, the wheel or a key).
    void cameraMovedByUser();

protected:
    // What a grab of the window (QWidget::grab) sees where the native window is: the frame.
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    void ensureContext();
    void makeCurrent();
    bool onScreen() const;
    // Renders a frame into VTK's framebuffer; `present` also puts it on screen.
    void renderFrame(bool present);
    // Reads the frame VTK drew into `image` (32-bit, blue first in memory), top row first and
    // opaque; of a frame larger than the image, its top-left part.
    void readFrame(QImage& image);
    void takeInput(QEvent* event);
    void forwardMouse(QMouseEvent* event, unsigned long vtkEvent);
    void onWindowEvent(vtkObject* caller, unsigned long event, void* callData);

    // Owned by its container, but the window of the widget tree it is embedded in deletes
    // it when that window closes, which can come first.
    QPointer<VtkSurfaceWindow> m_surface;
    QWidget* m_container;
    std::unique_ptr<QOpenGLContext> m_context;
    std::unique_ptr<QOffscreenSurface> m_offscreen;  // the context's surface: VTK draws into a framebuffer of its own
    bool m_packInvert = false;                       // GL_MESA_pack_invert: frames read top row first
    bool m_rendering = false;

    vtkSmartPointer<vtkGenericOpenGLRenderWindow> m_window;
    vtkSmartPointer<vtkRenderer> m_renderer;
    vtkSmartPointer<vtkGenericRenderWindowInteractor> m_interactor;
    void orbit(const QPoint& from, const QPoint& to);
    QPoint m_pressPos;
    QPoint m_lastPos;
    bool m_pressed = false;
    bool m_focusClick = false;  // this press only brought the keyboard focus here: no pick
    bool m_orbiting = false;
    std::optional<std::array<double, 3>> m_orbitCentre;
    bool m_timing = false;
    long m_timedFrames = 0;
    double m_timedMs = 0;
};

}  // namespace faultline
