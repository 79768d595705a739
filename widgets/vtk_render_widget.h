#pragma once
// A Qt 6 widget that hosts VTK rendering. Debian's VTK Qt module is built for Qt 5, so this
// is our own QOpenGLWidget driving a vtkGenericOpenGLRenderWindow on Qt's OpenGL context,
// with only VTK's non-Qt modules. VTK renders into its own framebuffer in paintGL; the
// result is blitted into the widget's framebuffer. Mouse and keys go to a VTK interactor
// (trackball camera: left drag orbits, middle or shift-left drag pans, wheel zooms).
#include <QOpenGLWidget>

#include <vtkSmartPointer.h>

class vtkGenericOpenGLRenderWindow;
class vtkGenericRenderWindowInteractor;
class vtkRenderer;
class vtkObject;

namespace faultline {

class VtkRenderWidget : public QOpenGLWidget {
    Q_OBJECT
public:
    explicit VtkRenderWidget(QWidget* parent = nullptr);
    ~VtkRenderWidget() override;

    vtkGenericOpenGLRenderWindow* renderWindow() const;
    vtkRenderer* renderer() const;
    vtkGenericRenderWindowInteractor* interactor() const;

    // Device pixels from the widget's top-left, as VTK counts them (origin bottom-left).
    QPoint toVtkPixel(const QPointF& widgetPos) const;
    // The render window's height in device pixels (VTK's y runs up from the bottom).
    int renderWindowHeight() const;
    // Gives the render window the widget's size in device pixels now, not at the next paint:
    // camera fitting needs the true aspect ratio.
    void syncSize();

    // Benchmarks: time each frame's VTK render and blit, waiting for the GL work to finish
    // (which costs a little), apart from what Qt adds to present it.
    void setTimingFrames(bool timing) { m_timing = timing; m_timedFrames = 0; m_timedMs = 0; }
    double meanFrameRenderMs() const { return m_timedFrames ? m_timedMs / m_timedFrames : 0; }

signals:
    // Before every VTK render, on the GUI thread: the place to update colours for "now".
    void aboutToRender();
    // A left click that did not move the camera, in widget coordinates.
    void clicked(const QPoint& widgetPos);

protected:
    void initializeGL() override;
    void resizeGL(int w, int h) override;
    void paintGL() override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    void blitIntoWidget();
    void forwardMouse(QMouseEvent* event, unsigned long vtkEvent);
    void onWindowEvent(vtkObject* caller, unsigned long event, void* callData);

    vtkSmartPointer<vtkGenericOpenGLRenderWindow> m_window;
    vtkSmartPointer<vtkRenderer> m_renderer;
    vtkSmartPointer<vtkGenericRenderWindowInteractor> m_interactor;
    QPoint m_pressPos;
    bool m_pressed = false;
    bool m_timing = false;
    long m_timedFrames = 0;
    double m_timedMs = 0;
};

}  // namespace faultline
