#pragma once
// A FabricView in a shown top-level window of a known size, for render tests.
#include "gui_test_app.h"

#include "views/fabric/fabric_view.h"

#include <QApplication>
#include <QImage>
#include <QTest>
#include <QWidget>

#include <memory>

namespace faultline::test {

class ShownFabric {
public:
    explicit ShownFabric(const Run& run, QSize size = {1200, 800}) {
        m_window.resize(size);
        m_view = new FabricView(&m_window);
        m_view->resize(size);
        // The view keeps the run alive; the fixture's run outlives the test, so don't own it.
        m_view->setRun(std::shared_ptr<const Run>(std::shared_ptr<const Run>(), &run));
        m_window.show();
        m_exposed = QTest::qWaitForWindowExposed(&m_window);
    }
    bool exposed() const { return m_exposed; }
    // Resizes the window and the view in it, as a user dragging the window's edge would.
    void resize(QSize size) {
        m_window.resize(size);
        m_view->resize(size);
        QApplication::processEvents();
    }
    FabricView& view() { return *m_view; }
    QImage renderAt(Nanos t) {
        m_view->setTime(t);
        return m_view->renderImage().convertToFormat(QImage::Format_RGB32);
    }

private:
    bool m_appReady = (guiApp(), true);  // before any widget
    QWidget m_window;
    FabricView* m_view;
    bool m_exposed = false;
};

// The colour drawn at a widget point of a grabbed frame (which may be in device pixels).
inline QColor colourAt(const QImage& image, QPointF widgetPos) {
    const qreal dpr = image.devicePixelRatio();
    return image.pixelColor(static_cast<int>(widgetPos.x() * dpr), static_cast<int>(widgetPos.y() * dpr));
}

inline bool near(const QColor& c, int r, int g, int b, int tolerance = 12) {
    return std::abs(c.red() - r) <= tolerance && std::abs(c.green() - g) <= tolerance && std::abs(c.blue() - b) <= tolerance;
}

// Whether the pixel at `p` is drawn in `c`, within `tolerance` per channel.
inline bool drawnAs(const QImage& image, QPointF p, Rgb c, int tolerance = 12) { return near(colourAt(image, p), c[0], c[1], c[2], tolerance); }
inline std::string colourName(const QImage& image, QPointF p) { return colourAt(image, p).name().toStdString(); }

}  // namespace faultline::test
