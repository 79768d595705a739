#include "vtk_surface_window.h"

#include <QBackingStore>
#include <QCoreApplication>
#include <QEvent>
#include <QImage>
#include <QPainter>

#include <cmath>

namespace faultline {

VtkSurfaceWindow::VtkSurfaceWindow(Handlers handlers) : m_handlers(std::move(handlers)) {
    setSurfaceType(QSurface::RasterSurface);
    // Keyboard focus stays with the widget that holds this window, where the view's and
    // its panel's shortcuts are found.
    setFlag(Qt::WindowDoesNotAcceptFocus);
}

VtkSurfaceWindow::~VtkSurfaceWindow() = default;

void VtkSurfaceWindow::present(const std::function<void(QImage&)>& fill) {
    if (!m_store) m_store = std::make_unique<QBackingStore>(this);
    const QRect area(QPoint(0, 0), size());
    if (m_store->size() != size()) m_store->resize(size());
    m_store->beginPaint(area);
    auto* image = dynamic_cast<QImage*>(m_store->paintDevice());
    const bool blueFirst = image && (image->format() == QImage::Format_RGB32 || image->format() == QImage::Format_ARGB32 ||
                                     image->format() == QImage::Format_ARGB32_Premultiplied);
    if (blueFirst) {
        fill(*image);  // straight into what goes on screen: no copy
    } else {  // a platform whose backing store holds its pixels otherwise
        QImage frame(QSize(std::lround(width() * devicePixelRatio()), std::lround(height() * devicePixelRatio())), QImage::Format_RGB32);
        fill(frame);
        frame.setDevicePixelRatio(devicePixelRatio());
        QPainter(m_store->paintDevice()).drawImage(area, frame);
    }
    m_store->endPaint();
    m_store->flush(area);
}

void VtkSurfaceWindow::scheduleFrame() {
    if (m_framePosted) return;
    m_framePosted = true;
    // Low priority: input and the other posted events go first.
    QCoreApplication::postEvent(this, new QEvent(QEvent::UpdateRequest), Qt::LowEventPriority);
}

bool VtkSurfaceWindow::event(QEvent* event) {
    switch (event->type()) {
        case QEvent::UpdateRequest:
            m_framePosted = false;
            if (isExposed()) m_handlers.render();
            return true;
        case QEvent::MouseButtonPress:
        case QEvent::MouseButtonRelease:
        case QEvent::MouseButtonDblClick:
        case QEvent::MouseMove:
        case QEvent::Wheel:
        case QEvent::KeyPress:
        case QEvent::KeyRelease:
            m_handlers.input(event);
            return true;
        default: return QWindow::event(event);
    }
}

void VtkSurfaceWindow::exposeEvent(QExposeEvent*) {
    if (isExposed()) m_handlers.render();
}

}  // namespace faultline
